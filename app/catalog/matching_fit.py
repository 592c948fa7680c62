"""Refits the matcher's weights on the ditto train labels and its threshold on valid.

The weights in `_match_weights` come from `fit_matcher`; test labels are never read here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from app.catalog._match_features import FEATURES
from app.catalog._match_model import (
    LogisticModel,
    fit_logistic,
    pick_threshold,
    precision_recall_f1,
)
from app.catalog.item import MatchLabel
from app.catalog.loader import Catalog
from app.catalog.matching import ProductMatcher

__all__ = [
    "FEATURES",
    "MATCH_DATASETS",
    "MatcherFit",
    "fit_matcher",
    "labelled_pairs",
    "pair_matrix",
    "precision_recall_f1",
]

MATCH_DATASETS: tuple[str, ...] = ("walmart-amazon", "amazon-google", "abt-buy")
L2_PENALTY = 1.0


@dataclass(frozen=True)
class MatcherFit:
    """A fitted model, the threshold chosen on valid, and the pair counts behind them."""

    model: LogisticModel
    threshold: float
    train_pairs: int
    valid_pairs: int


def labelled_pairs(catalog: Catalog, split: str, datasets: Iterable[str]) -> list[MatchLabel]:
    """The catalog's labels of one split for the given datasets, in file order."""
    wanted = set(datasets)
    return [m for m in catalog.matches if m.split == split and m.dataset in wanted]


def pair_matrix(
    matcher: ProductMatcher, catalog: Catalog, labels: Sequence[MatchLabel]
) -> tuple[np.ndarray, np.ndarray]:
    """Feature rows and boolean truth of labelled pairs (ids resolved through dedupe aliases)."""
    rows = [
        matcher.features(catalog.resolve(label.left_id), catalog.resolve(label.right_id))
        for label in labels
    ]
    x = np.array(rows, dtype=np.float64).reshape(len(rows), len(FEATURES))
    return x, np.array([label.same_product for label in labels], dtype=bool)


def fit_matcher(
    catalog: Catalog,
    *,
    datasets: Sequence[str] = MATCH_DATASETS,
    matcher: ProductMatcher | None = None,
) -> MatcherFit:
    """Weights from every train pair of `datasets` pooled, threshold from their valid pairs."""
    matcher = matcher or ProductMatcher.from_items(catalog.items)
    train = labelled_pairs(catalog, "train", datasets)
    x, y = pair_matrix(matcher, catalog, train)
    model = fit_logistic(x, y.astype(np.float64), FEATURES, l2=L2_PENALTY)
    valid = labelled_pairs(catalog, "valid", datasets)
    xv, yv = pair_matrix(matcher, catalog, valid)
    probabilities = np.array([model.probability(row, FEATURES) for row in xv])
    return MatcherFit(model, pick_threshold(probabilities, yv), len(train), len(valid))
