"""An inverted index from specific codes (model numbers, title codes, EANs) to catalog items.

Built once from the item table, it finds offers that name the same model number in a few
dictionary lookups, before any text search.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from app.catalog._match_text import lower_text, model_field_codes, title_codes
from app.catalog.item import Item
from app.catalog.matching import ProductMatcher

__all__ = ["CodeIndex", "different_models", "model_codes"]


class CodeIndex:
    """code -> ids of the items that carry it, for codes specific enough to name a product."""

    def __init__(self, postings: dict[str, tuple[str, ...]]) -> None:
        self._postings = postings

    def __len__(self) -> int:
        return len(self._postings)

    @classmethod
    def build(cls, matcher: ProductMatcher, items: Iterable[Item]) -> CodeIndex:
        """Index every item under `matcher.lookup_keys`, in item order."""
        postings: dict[str, list[str]] = defaultdict(list)
        for item in items:
            for key in matcher.lookup_keys(item):
                postings[key].append(item.item_id)
        return cls({key: tuple(ids) for key, ids in postings.items()})

    def add(self, matcher: ProductMatcher, item: Item) -> None:
        """Index one more item (one a live upsert adds), after the built ones."""
        for key in matcher.lookup_keys(item):
            self._postings[key] = (*self._postings.get(key, ()), item.item_id)

    def item_ids(self, keys: Iterable[str]) -> list[str]:
        """Ids of the items carrying any of `keys`, without repeats, in index order."""
        seen: dict[str, None] = {}
        for key in sorted(keys):
            for item_id in self._postings.get(key, ()):
                seen.setdefault(item_id, None)
        return list(seen)


def model_codes(item: Item) -> frozenset[str]:
    """The model-like codes an item's title and model-number field name ("27b2h"), read
    without corpus statistics."""
    codes, _ = title_codes(lower_text(item.title))
    return frozenset(codes | model_field_codes(item.model_number))


def different_models(a: Item, b: Item) -> bool:
    """Whether two items name different models: both name codes and no code of one equals,
    contains or sits in one of the other ("AOC 27B2H" vs "AOC C27G2" on one title template)."""
    codes_a, codes_b = model_codes(a), model_codes(b)
    if not codes_a or not codes_b:
        return False
    return not any(x in y or y in x for x in codes_a for y in codes_b)
