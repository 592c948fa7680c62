"""Recall by product type: when few hits are of an asked product of two words or more, the
items the catalog files as it ("mini pc": four, whose long spec titles the query words
miss) are looked up directly, nearest to the query first."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from app.catalog.item import Item
from app.catalog.product_nouns import category_words
from app.catalog.shelves import shelf_key, shelf_keys
from app.recall.filters import SearchFilters
from app.recall.vector_store import item_payload
from app.tools.search._product import none_named, on_shelf

SHELF_SOURCE = "shelf"
"""The source name of hits found on the product's shelf."""


class ShelfLookup:
    """Item ids per shelf (an item's product type, as `shelf_key`), built once per item
    table."""

    def __init__(self, items: Mapping[str, Item]) -> None:
        self._items = items
        self._by_shelf: dict[tuple[str, ...], list[str]] = {}
        for item in items.values():
            self.add(item)

    def add(self, item: Item) -> None:
        """File one item on its shelf (built items, and new ones a live upsert adds)."""
        if item.product_type:
            self._by_shelf.setdefault(shelf_key(item.product_type), []).append(item.item_id)

    def shelved(self, product: str, filters: SearchFilters) -> list[Item]:
        """The items filed as the product (under its name, its catalog name or a type of its
        kind, saying the sort asked) that pass the filters, in item-id order."""
        ids = sorted({i for key in shelf_keys(product) for i in self._by_shelf.get(key, ())})
        items = (item for i in ids if (item := self._items.get(i)) is not None)
        return [
            item
            for item in items
            if on_shelf(item, product) and filters.matches(item_payload(item))
        ]


def needs_shelf(items: Sequence[Item], product: str, request: str = "") -> bool:
    """Whether to look the product up by type: its name has two words or more, which the
    catalog also uses apart ("mini" cd, "pc" software), and at most half of the shown items
    from the typed catalog are of it; with none from it, when none names the product. A
    one-word product ("scanner") is found by its word."""
    if len(category_words(product)) < 2:
        return False
    typed = [item for item in items if item.typed]
    if not typed:
        return none_named(items, product, request)
    return 2 * sum(on_shelf(item, product) for item in typed) <= len(typed)
