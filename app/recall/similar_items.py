"""Similar items: the nearest stored vectors of one item, of its category where the catalog
names one, that are other products. The item itself, its variants (same group), the same
product under its codes (GTIN, brand + MPN) and what the product matcher calls the same
product on another shop are left out; the caller's limits (budget, shops, ruled-out words)
are applied, in the store where they are filters and after it where they are not."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from app.catalog.item import Item
from app.catalog.matching import ProductMatcher
from app.config.params.compare import SIMILAR_FETCH_FACTOR
from app.errors import NotFound
from app.recall.filters import SearchFilters, brand_key
from app.recall.search_index import SearchIndex

__all__ = ["SimilarFinder", "SimilarHit", "SimilarLimits", "SimilarResult", "identity_keys"]

SAME_FIELDS = ("category",)
"""Payload fields a neighbour must share with the item (when the item has them)."""
_MAX_EXCLUDED = 256
"""Ids of the same product sent to the store as an exclusion; more are dropped after it."""
_ROUNDS = 3
_MAX_FETCH = 1_000
"""Most neighbours one store call asks for (each round asks `SIMILAR_FETCH_FACTOR` times more)."""
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class SimilarLimits:
    """What the neighbours must respect: the shop scope, a price range in USD, a ceiling in
    a shop's own currency (a budget said in it) and ruled-out words (whole words of the
    title, brand or category)."""

    platforms: tuple[str, ...] = ()
    price_min_usd: float | None = None
    price_max_usd: float | None = None
    listed_max: tuple[float, str] | None = None
    exclude_terms: tuple[str, ...] = ()

    def filters(self) -> SearchFilters:
        return SearchFilters.build(
            platforms=self.platforms, price_min=self.price_min_usd, price_max=self.price_max_usd
        )


@dataclass(frozen=True)
class SimilarHit:
    """One neighbour with its cosine similarity to the item."""

    item: Item
    score: float


@dataclass(frozen=True)
class SimilarResult:
    """The neighbours of `anchor`, best first, the category they share (None when the
    anchor has none) and how many were left out and why."""

    anchor: Item
    hits: list[SimilarHit]
    category: str | None = None
    left_out: dict[str, int] = field(default_factory=dict)


def identity_keys(item: Item) -> frozenset[str]:
    """What names this item's product exactly: its variant group (per shop), its GTINs
    (leading zeros dropped), its brand and manufacturer part number."""
    keys: set[str] = set()
    if item.group_id:
        keys.add(f"group:{item.platform}:{item.group_id}")
    keys.update(f"gtin:{code.lstrip('0')}" for code in item.ean if code.strip("0"))
    mpn = _NOT_ALNUM.sub("", (item.model_number or "").lower())
    brand = brand_key(item.brand)
    if brand and len(mpn) >= 4:
        keys.add(f"mpn:{brand}:{mpn}")
    return frozenset(keys)


class SimilarFinder:
    """Similar items over one opened index; its identity table is built once."""

    def __init__(
        self, index: SearchIndex, matcher: ProductMatcher, identities: dict[str, tuple[str, ...]]
    ) -> None:
        self.index = index
        self.matcher = matcher
        self._identities = identities

    @classmethod
    def build(cls, index: SearchIndex, matcher: ProductMatcher | None = None) -> SimilarFinder:
        """Read the item table once: identity keys -> item ids (and the matcher, unless given)."""
        items = list(index.items.values())
        postings: defaultdict[str, list[str]] = defaultdict(list)
        for item in items:
            for key in identity_keys(item):
                postings[key].append(item.item_id)
        identities = {k: tuple(ids) for k, ids in postings.items() if len(ids) > 1}
        return cls(index, matcher or ProductMatcher.from_items(items), identities)

    def same_product_ids(self, item: Item) -> list[str]:
        """Other items sharing one of the item's identity keys (variants, same GTIN or MPN)."""
        found: dict[str, None] = {}
        for key in sorted(identity_keys(item)):
            for item_id in self._identities.get(key, ()):
                if item_id != item.item_id:
                    found.setdefault(item_id, None)
        return list(found)

    async def similar(
        self, item_id: str, *, k: int, limits: SimilarLimits | None = None
    ) -> SimilarResult:
        """Up to `k` neighbours of the item; `NotFound` for an id the catalog lacks."""
        anchor = self.index.items.get(item_id)
        if anchor is None:
            raise NotFound(f"item {item_id!r} is not in the catalog")
        limits = limits or SimilarLimits()
        twins = self.same_product_ids(anchor)
        keep = _Keep(self, anchor, limits)
        factor = SIMILAR_FETCH_FACTOR.get()
        limit = min(k * factor + 8, _MAX_FETCH)
        for _ in range(_ROUNDS):
            found = await self.index.store.similar(
                self.index.collection,
                item_id,
                limits.filters(),
                limit=limit,
                exclude=twins[:_MAX_EXCLUDED],
                same=SAME_FIELDS,
            )
            for hit in found:
                if hit.item_id not in keep.seen:
                    keep.offer(hit.item_id, hit.score)
            if len(keep.hits) >= k or len(found) < limit or limit >= _MAX_FETCH:
                break
            limit = min(limit * max(factor, 2), _MAX_FETCH)
        left_out = {**keep.left_out, "same_product": keep.left_out["same_product"] + len(twins)}
        return SimilarResult(anchor, keep.hits[:k], anchor.category or None, left_out)


class _Keep:
    """The post-store checks of one search, in order: a listing of the same product, a
    ruled-out word, over a ceiling in the shop's own currency, a duplicate listing."""

    def __init__(self, finder: SimilarFinder, anchor: Item, limits: SimilarLimits) -> None:
        self.finder = finder
        self.anchor = anchor
        self.limits = limits
        self.keys = identity_keys(anchor)
        self.patterns = [_word(t) for t in limits.exclude_terms if t.strip()]
        self.signatures = {_signature(anchor)}
        self.seen: set[str] = set()
        self.hits: list[SimilarHit] = []
        self.left_out = {"same_product": 0, "excluded": 0, "over_budget": 0, "duplicate": 0}

    def offer(self, item_id: str, score: float) -> None:
        self.seen.add(item_id)
        item = self.finder.index.items.get(item_id)
        if item is None:
            return
        reason = self._reason(item)
        if reason is not None:
            self.left_out[reason] += 1
            return
        self.signatures.add(_signature(item))
        self.hits.append(SimilarHit(item, score))

    def _reason(self, item: Item) -> str | None:
        if self.keys & identity_keys(item) or (
            item.platform != self.anchor.platform
            and self.finder.matcher.same_product(self.anchor, item)
        ):
            return "same_product"
        if _mentions(item, self.patterns):
            return "excluded"
        listed = self.limits.listed_max
        if listed is not None and item.currency == listed[1] and (item.price or 0) > listed[0]:
            return "over_budget"
        if _signature(item) in self.signatures:
            return "duplicate"
        return None


def _word(term: str) -> re.Pattern[str]:
    words = r"\s+".join(re.escape(w) for w in term.split())
    return re.compile(rf"(?<![0-9a-z]){words}(?![0-9a-z])", re.IGNORECASE)


def _mentions(item: Item, patterns: Sequence[re.Pattern[str]]) -> bool:
    texts: Iterable[str | None] = (item.title, item.brand, item.category)
    return any(p.search(t) for p in patterns for t in texts if t)


def _signature(item: Item) -> str:
    return (
        " ".join(_NOT_ALNUM.sub(" ", item.title.lower()).split())
        + "|"
        + (brand_key(item.brand) or "")
    )
