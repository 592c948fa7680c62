"""How well price_compare groups offers, on the ditto same-product labels of one split.

Pairwise: the matcher's decision on each labelled pair, at the threshold price_compare uses.
End to end: whether price_compare's candidate generation plus matcher lists the right item
among the left item's offers. Both give precision, recall and F1 over the labelled pairs.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import numpy as np

from app.catalog.item import MatchLabel
from app.catalog.loader import Catalog, load_catalog
from app.catalog.matching import ProductMatcher
from app.catalog.matching_fit import (
    FEATURES,
    MATCH_DATASETS,
    labelled_pairs,
    pair_matrix,
    precision_recall_f1,
)
from app.config.params.compare import COMPARE_MATCH_THRESHOLD
from app.config.settings import Settings
from app.recall.matching_offers import OfferFinder
from app.recall.search_index import SearchIndex

__all__ = ["end_to_end_scores", "pairwise_scores", "run_matching_eval"]


def pairwise_scores(
    matcher: ProductMatcher, catalog: Catalog, labels: Sequence[MatchLabel]
) -> dict[str, Any]:
    """Precision, recall, F1 of the matcher's decisions on labelled pairs, and their counts."""
    x, truth = pair_matrix(matcher, catalog, labels)
    threshold = COMPARE_MATCH_THRESHOLD.get()
    probabilities = np.array([matcher.model.probability(row, FEATURES) for row in x])
    return _scores(probabilities >= threshold, truth) | {"threshold": threshold}


async def end_to_end_scores(
    finder: OfferFinder, catalog: Catalog, labels: Sequence[MatchLabel]
) -> dict[str, Any]:
    """Whether each labelled right item is among the offers price_compare finds for the left."""
    offers: dict[str, set[str]] = {}
    for left_id in dict.fromkeys(label.left_id for label in labels):
        found = await finder.offers(catalog.resolve(left_id))
        offers[left_id] = {match.item.item_id for match in found}
    predicted = np.array([label.right_id in offers[label.left_id] for label in labels], dtype=bool)
    truth = np.array([label.same_product for label in labels], dtype=bool)
    return _scores(predicted, truth) | {"items": len(offers)}


def _scores(predicted: np.ndarray, truth: np.ndarray) -> dict[str, Any]:
    precision, recall, f1 = precision_recall_f1(predicted, truth)
    return {
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "f1": round(f1, 4),
        "pairs": len(truth),
        "positives": int(truth.sum()),
    }


def run_matching_eval(
    settings: Settings,
    *,
    split: str = "test",
    datasets: Sequence[str] = MATCH_DATASETS,
    end_to_end: bool = True,
    catalog: Catalog | None = None,
    index: SearchIndex | None = None,
) -> dict[str, dict[str, Any]]:
    """Dataset -> pairwise scores (plus `end_to_end` scores over the built index, when asked)."""
    catalog = catalog or load_catalog(settings.data_dir, locale=settings.esci_locale)
    if not end_to_end:
        matcher = ProductMatcher.from_items(catalog.items)
        return {
            name: pairwise_scores(matcher, catalog, labelled_pairs(catalog, split, [name]))
            for name in datasets
        }
    return asyncio.run(_with_index(settings, catalog, split, datasets, index))


async def _with_index(
    settings: Settings,
    catalog: Catalog,
    split: str,
    datasets: Sequence[str],
    index: SearchIndex | None,
) -> dict[str, dict[str, Any]]:
    opened = index if index is not None else await asyncio.to_thread(SearchIndex.open, settings)
    try:
        finder = await asyncio.to_thread(OfferFinder.build, opened)
        report: dict[str, dict[str, Any]] = {}
        for name in datasets:
            labels = labelled_pairs(catalog, split, [name])
            report[name] = pairwise_scores(finder.matcher, catalog, labels)
            report[name]["end_to_end"] = await end_to_end_scores(finder, catalog, labels)
        return report
    finally:
        if index is None:
            await opened.close()
