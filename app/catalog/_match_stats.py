"""Catalog-wide statistics the matcher needs: word IDF, how common each code is, known brands.

Built once from the item table, so "ddr3" or "802.11n" (in hundreds of titles) never pass for
a model number while "kxtg4500b" (in two) does.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from app.catalog._match_text import lower_text, model_field_codes, squash, title_codes, words
from app.catalog.item import Item


@dataclass(frozen=True)
class MatchStats:
    """Document frequencies over a catalog: of title words, of codes, and the brand names."""

    items: int
    word_df: dict[str, int]
    code_df: dict[str, int]
    model_df: dict[str, int]
    brands: frozenset[str]

    @classmethod
    def from_items(cls, items: Iterable[Item]) -> MatchStats:
        """Count once over every item (title words, title and model-field codes, brands)."""
        word_df: Counter[str] = Counter()
        code_df: Counter[str] = Counter()
        model_df: Counter[str] = Counter()
        brand_counts: Counter[str] = Counter()
        n = 0
        for item in items:
            n += 1
            text = lower_text(item.title)
            word_df.update(set(words(text)))
            codes, joined = title_codes(text)
            code_df.update(codes | joined | model_field_codes(item.model_number))
            if item.model_number:
                model_df[squash(item.model_number)] += 1
            if item.brand:
                brand_counts[squash(item.brand)] += 1
        brands = frozenset(b for b, count in brand_counts.items() if len(b) >= 2 and count >= 2)
        return cls(n, dict(word_df), dict(code_df), dict(model_df), brands)

    def idf(self, word: str) -> float:
        """Smoothed inverse document frequency of a title word."""
        return math.log((1 + self.items) / (1 + self.word_df.get(word, 0))) + 1.0

    def code_count(self, code: str) -> int:
        """In how many items a code occurs (title or model-number field)."""
        return self.code_df.get(code, 0)

    def model_count(self, key: str) -> int:
        """In how many items a squashed model-number field occurs."""
        return self.model_df.get(key, 0)
