"""An inverted index from specific codes (model numbers, title codes, EANs) to catalog items.

Built once from the item table, it finds offers that name the same model number in a few
dictionary lookups, before any text search.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from app.catalog.item import Item
from app.catalog.matching import ProductMatcher


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

    def item_ids(self, keys: Iterable[str]) -> list[str]:
        """Ids of the items carrying any of `keys`, without repeats, in index order."""
        seen: dict[str, None] = {}
        for key in sorted(keys):
            for item_id in self._postings.get(key, ()):
                seen.setdefault(item_id, None)
        return list(seen)
