"""Same-product decisions between two catalog items, for price comparison across shops.

`ProductMatcher` reads each item once (codes, title words, quantities, brand, price) and
scores a pair with a small fitted logistic model; every decision carries the features that
drove it, so "cheaper offer elsewhere" can always say why two offers are one product.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from app.catalog._match_features import (
    FEATURES,
    Profile,
    model_key,
    pair_features,
    profile,
    specific_codes,
)
from app.catalog._match_model import LogisticModel
from app.catalog._match_stats import MatchStats
from app.catalog._match_weights import FITTED_MODEL, MAX_CODE_DF
from app.catalog.item import Item
from app.config.params.compare import COMPARE_MATCH_THRESHOLD

__all__ = ["MatchScore", "ProductMatcher"]


@dataclass(frozen=True)
class MatchScore:
    """The matcher's verdict on one pair, with the logit share of each feature that fired."""

    left_id: str
    right_id: str
    probability: float
    threshold: float
    reasons: Mapping[str, float] = field(default_factory=dict)

    @property
    def same_product(self) -> bool:
        """Whether the pair is one product at the threshold in force when scored."""
        return self.probability >= self.threshold


class ProductMatcher:
    """Scores item pairs with the fitted model over catalog-wide statistics."""

    def __init__(
        self,
        stats: MatchStats,
        model: LogisticModel = FITTED_MODEL,
        *,
        max_code_df: int = MAX_CODE_DF,
    ) -> None:
        self.stats = stats
        self.model = model
        self.max_code_df = max_code_df
        self._profiles: dict[str, Profile] = {}

    @classmethod
    def from_items(
        cls, items: Iterable[Item], model: LogisticModel = FITTED_MODEL
    ) -> ProductMatcher:
        """A matcher whose word and code frequencies come from these items (the catalog)."""
        return cls(MatchStats.from_items(items), model)

    def profile(self, item: Item) -> Profile:
        """The item as the matcher reads it, computed once per item id."""
        known = self._profiles.get(item.item_id)
        if known is None:
            known = self._profiles[item.item_id] = profile(item, self.stats, self.max_code_df)
        return known

    def features(self, left: Item, right: Item) -> np.ndarray:
        """The pair's feature vector, in `FEATURES` order."""
        return pair_features(self.profile(left), self.profile(right))

    def score(self, left: Item, right: Item, *, threshold: float | None = None) -> MatchScore:
        """Probability that two items are one product, judged at `threshold` (default: the
        `COMPARE_MATCH_THRESHOLD` parameter now in force)."""
        values = self.features(left, right)
        return MatchScore(
            left_id=left.item_id,
            right_id=right.item_id,
            probability=self.model.probability(values, FEATURES),
            threshold=COMPARE_MATCH_THRESHOLD.get() if threshold is None else threshold,
            reasons=self.model.contributions(values, FEATURES),
        )

    def same_product(self, left: Item, right: Item) -> bool:
        """The yes/no decision price_compare acts on."""
        return self.score(left, right).same_product

    def lookup_keys(self, item: Item) -> frozenset[str]:
        """The specific codes of an item (model number, title codes, EANs) to index it by;
        computed without keeping a profile, so indexing the catalog stays light."""
        known = self._profiles.get(item.item_id)
        if known is not None:
            codes, joined, key = known.codes, known.joined_codes, known.model_key
        else:
            codes, joined = specific_codes(item, self.stats, self.max_code_df)
            key = model_key(item, self.stats, self.max_code_df)
        return codes | joined | ({key} if key else set())
