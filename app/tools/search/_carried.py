"""Whether the catalog lists the asked product at all. When no hit names it, every item
that says its noun is checked, so the answer can say the shop has none ("earrings" in an
electronics shop) rather than that the search found none. An item whose description opens
by naming the noun ("Black high top shoes with ...") is one too: never claim a shop lacks
what it describes."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from app.catalog.item import Item
from app.catalog.product_nouns import (
    canonical,
    catalog_name,
    category_words,
    head,
    kinds_of,
    listed_as,
    tokens,
)
from app.catalog.profile_kinds import title_head
from app.catalog.shelves import shelf_keys
from app.catalog.short_names import with_short_names
from app.tools.search._product import names_product

__all__ = ["CarriedLookup"]


class CarriedLookup:
    """Item ids per canonical word of their title, category and product type (hyphenated
    compounds by their parts too), built once per item table; the words of each description's
    opening sentence by its head noun, read on the first check."""

    def __init__(self, items: Mapping[str, Item]) -> None:
        self._items = items
        self._by_word: dict[str, list[str]] = {}
        self._described: dict[str, set[frozenset[str]]] | None = None
        self._known: dict[tuple[str, str], bool] = {}
        for item in items.values():
            self.add(item)

    def add(self, item: Item) -> None:
        """File one item under its words (built items, and new ones a live upsert adds)."""
        text = " ".join(t for t in (item.title, item.category, item.product_type) if t)
        for word in _words(with_short_names(text.lower())):
            self._by_word.setdefault(word, []).append(item.item_id)
        if self._described is not None:
            _file_lead(self._described, item)
        self._known.clear()

    def carries(self, product: str, request: str = "") -> bool:
        """Whether any item names the product (`names_product`) under its name, the catalog
        name for it, a name shops list it as or a kind it covers."""
        key = (product, request)
        if key not in self._known:
            also = (*listed_as(product), *kinds_of(product))
            names = dict.fromkeys((product, catalog_name(product), *also))
            self._known[key] = any(self._names(name, request) for name in names)
        return self._known[key]

    def _leads(self) -> dict[str, set[frozenset[str]]]:
        """Description openings by head noun, read on the first check (start-up stays fast)."""
        if self._described is None:
            self._described = {}
            for item in self._items.values():
                _file_lead(self._described, item)
        return self._described

    def _names(self, name: str, request: str) -> bool:
        noun = head(name)
        if noun is None:
            return True  # nothing to look for: never claim the catalog lacks it
        wanted = {canonical(w) for w in category_words(name)}
        if any(wanted <= said for said in self._leads().get(canonical(noun), ())):
            return True
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


_SENTENCE_END = re.compile(r"[.!?;:](?:\s|$)|\n")


def _file_lead(leads: dict[str, set[frozenset[str]]], item: Item) -> None:
    found = _lead(item.description)
    if found is not None:
        leads.setdefault(found[0], set()).add(found[1])


def _lead(description: str | None) -> tuple[str, frozenset[str]] | None:
    """The canonical head noun of a description's first sentence, read as a title is, and
    the canonical words of that sentence (what a "desk lamp" needs besides "lamp")."""
    if not description:
        return None
    first = _SENTENCE_END.split(description.strip(), maxsplit=1)[0][:200]
    found = title_head(first)
    if found is None:
        return None
    return canonical(found), frozenset(_words(with_short_names(first.lower())))
