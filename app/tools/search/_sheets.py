"""Recall by spec sheet: when no hit states a must-have ("touchscreen", "wifi 6") that only
spec sheets list, the catalog's items of the asked product whose sheets list it are looked
up directly, since neither the BM25 text nor the dense text carries sheet features; so are
those whose titles state a must-have's amounts ("32gb ram": a long notebook title saying
"32 GB DDR4-SDRAM" ranks below short accessory titles for "laptop notebook 32gb") or all
its words ("usb ports": one surge protector of dozens says "2-USB Charging Ports")."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from app.catalog.item import Item
from app.catalog.standards import standard_labels
from app.recall.filters import SearchFilters, brand_key
from app.recall.fusion import FusedHit
from app.recall.vector_store import item_payload
from app.tools.search._args import SearchScope
from app.tools.search._postfilters import ItemMatchers
from app.tools.search._probe import Block, PriceVerdict, block_reasons, price_verdict
from app.tools.search._product import names_product
from app.tools.terms import Term, find_specs, spec_said, term_in, tokens, where_stated

SHEET_SOURCE = "spec_sheet"
"""The source name of hits found by spec sheet."""


class SheetLookup:
    """Item ids per spec-sheet feature ("HDMI" -> the items whose sheet lists one), built
    once per item table, and per unit of an amount a title states, built on first use."""

    def __init__(self, items: Mapping[str, Item]) -> None:
        self._items = items
        self._by_feature: dict[str, list[str]] = {}
        for item in items.values():
            for feature in item.features:
                self._by_feature.setdefault(feature, []).append(item.item_id)

    def add(self, item: Item) -> None:
        """Take in an item new to the table (a live upsert): its features, title words and
        amounts, in whichever of the tables are built already."""
        for feature in item.features:
            self._by_feature.setdefault(feature, []).append(item.item_id)
        if "_by_word" in self.__dict__:
            for word in tokens(f"{item.title} {item.brand or ''}"):
                self._by_word.setdefault(word, set()).add(item.item_id)
        if "_by_unit" in self.__dict__:
            for unit in {s.measure[1] for s in find_specs(item.title) if s.value}:
                self._by_unit.setdefault(unit, []).append(item.item_id)

    @functools.cached_property
    def _by_word(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for item in self._items.values():
            for word in tokens(f"{item.title} {item.brand or ''}"):
                out.setdefault(word, set()).add(item.item_id)
        return out

    @functools.cached_property
    def _by_unit(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for item in self._items.values():
            for unit in {s.measure[1] for s in find_specs(item.title) if s.value}:
                out.setdefault(unit, []).append(item.item_id)
        return out

    def stating(
        self,
        terms: Sequence[Term],
        product: str,
        request: str,
        filters: SearchFilters,
        *,
        limit: int,
    ) -> list[Item]:
        """Up to `limit` items naming the product whose sheets list any of the terms, or whose
        titles state a term's amounts, and that pass the filters: those stating the most
        terms first, then those whose titles say the most request words, then in item-id
        order."""
        if limit <= 0:
            return []
        listed: Counter[str] = Counter()
        for term in terms:
            on_sheet = {
                i
                for feature, ids in self._by_feature.items()
                if term_in(feature, term)
                for i in ids
            }
            listed.update(on_sheet | self._title_stating(term))
        for gone in [i for i in listed if i not in self._items]:
            del listed[gone]  # deleted by a live update since this lookup was built
        asked = set(tokens(request))

        def order(entry: tuple[str, int]) -> tuple[int, int, str]:
            item_id, count = entry
            return -count, -len(asked.intersection(tokens(self._items[item_id].title))), item_id

        out = []
        for item_id, _ in sorted(listed.items(), key=order):
            item = self._items[item_id]
            if filters.matches(item_payload(item)) and names_product(item, product, request):
                out.append(item)
                if len(out) >= limit:
                    break
        return out

    def _title_stating(self, term: Term) -> set[str]:
        """The items whose titles state every amount of the term ("32gb ram": 32 GB of RAM,
        or of no part said), or for a term without one, every word of it."""
        amounts = [s for s in term.specs if s.value]
        if not amounts:
            return self._title_saying(term)
        titled = self._by_unit.get(amounts[0].measure[1], ())
        return {
            i
            for i in titled
            if i in self._items
            and all(spec_said(s, find_specs(self._items[i].title)) for s in amounts)
        }

    def _title_saying(self, term: Term) -> set[str]:
        """The items whose title or brand says the term (`where_stated`), found by its
        words (any of a term named by its makers' lines); none for a term of specs alone."""
        if term.either:
            found = set().union(*(self._by_word.get(w, set()) for w in term.either))
        elif not term.words or term.specs:
            return set()
        else:
            found = set.intersection(*(self._by_word.get(w, set()) for w in term.words))
        return {
            i for i in found if i in self._items and where_stated(self._items[i], term) == "title"
        }


def sheet_price_verdict(
    lookup: SheetLookup,
    terms: Sequence[Term],
    product: str,
    scope: SearchScope,
    matchers: ItemMatchers,
    *,
    limit: int,
) -> PriceVerdict | None:
    """When the product's items whose sheets list the terms are all kept out by the budget
    alone ("router with Wi-Fi 6": two, from $282.95, over $150), the verdict that says so."""
    if scope.price_max is None and scope.price_min is None:
        return None
    filters = scope.filters().without("price_min", "price_max")
    priced = lookup.stating(terms, product, scope.query, filters, limit=limit)
    blocks = [Block(item, block_reasons(item, scope, matchers)) for item in priced]
    blocks = [b for b in blocks if b.reasons]
    if not blocks or len(blocks) < len(priced):
        return None
    return price_verdict(blocks, scope, _asked_product(product, terms, blocks))


def _asked_product(product: str, terms: Sequence[Term], blocks: Sequence[Block]) -> str:
    """The product as asked: a term that is the items' brand before it, the others after
    "with" ("razer gaming keyboard", "router with Wi-Fi 6")."""
    brands = {brand_key(b.item.brand) for b in blocks}
    makers = [t.text for t in terms if brand_key(t.text) in brands]
    others = [t.wording or t.text for t in terms if t.text not in makers]
    named = " ".join([*makers, product])
    return f"{named} with {standard_labels(' and '.join(others))}" if others else named


def unstated(terms: Iterable[Term], items: Iterable[Item]) -> list[Term]:
    """The terms no item's title, brand or spec sheet states."""
    shown = list(items)
    return [t for t in terms if not any(where_stated(item, t) for item in shown)]


def lookup_hits(items: Sequence[Item], score: float, source: str) -> list[FusedHit]:
    """Looked-up items as fused hits of their own source, in the given order, each with
    `score` (the best recalled hit's, since they go first)."""
    return [
        FusedHit(
            item_id=item.item_id,
            score=score,
            source_scores={source: 1.0},
            best_rank=rank,
            payload=item_payload(item),
        )
        for rank, item in enumerate(items, start=1)
    ]
