"""Whether the catalog lists the asked product at all. When no hit names it, every item
that says its noun is checked, so the answer can say the shop has none ("earrings" in an
electronics shop) rather than that the search found none."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from app.catalog.item import Item
from app.catalog.product_nouns import canonical, catalog_name, head, listed_as, tokens
from app.catalog.shelves import shelf_keys
from app.catalog.short_names import with_short_names
from app.tools.search._product import names_product

__all__ = ["CarriedLookup"]


class CarriedLookup:
    """Item ids per canonical word of their title, category and product type (hyphenated
    compounds by their parts too), built once per item table."""

    def __init__(self, items: Mapping[str, Item]) -> None:
        self._items = items
        self._by_word: dict[str, list[str]] = {}
        self._known: dict[tuple[str, str], bool] = {}
        for item in items.values():
            self.add(item)

    def add(self, item: Item) -> None:
        """File one item under its words (built items, and new ones a live upsert adds)."""
        text = " ".join(t for t in (item.title, item.category, item.product_type) if t)
        for word in _words(with_short_names(text.lower())):
            self._by_word.setdefault(word, []).append(item.item_id)
        self._known.clear()

    def carries(self, product: str, request: str = "") -> bool:
        """Whether any item names the product (`names_product`) under its name, the catalog
        name for it or a name shops list it as."""
        key = (product, request)
        if key not in self._known:
            names = dict.fromkeys((product, catalog_name(product), *listed_as(product)))
            self._known[key] = any(self._names(name, request) for name in names)
        return self._known[key]

    def _names(self, name: str, request: str) -> bool:
        noun = head(name)
        if noun is None:
            return True  # nothing to look for: never claim the catalog lacks it
        words = {canonical(noun), *(canonical(key[-1]) for key in shelf_keys(name) if key)}
        ids = dict.fromkeys(i for word in words for i in self._by_word.get(word, ()))
        items = (item for i in ids if (item := self._items.get(i)) is not None)
        return any(names_product(item, name, request) for item in items)


def _words(text: str) -> Iterable[str]:
    """The canonical words of a text, and of each part of a hyphenated one."""
    for token in tokens(text):
        yield canonical(token)
        if "-" in token:
            yield from (canonical(part) for part in token.split("-") if part)
