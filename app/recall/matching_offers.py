"""Finds the offers of one catalog item on the other platforms: candidates, then the matcher.

Candidates come from three cheap sources — items sharing a specific code (model number, EAN),
BM25 over the item's title and the nearest stored vectors, all limited to the other
platforms — and only those the matcher calls the same product are kept.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from app.catalog.item import PLATFORMS, Item
from app.catalog.matching import MatchScore, ProductMatcher
from app.catalog.matching_codes import CodeIndex
from app.config.params.compare import (
    COMPARE_DENSE_CANDIDATES,
    COMPARE_LEXICAL_CANDIDATES,
    COMPARE_MAX_CODE_HITS,
    COMPARE_MAX_OFFERS,
)
from app.errors import NotFound
from app.recall.filters import SearchFilters
from app.recall.offload import offload
from app.recall.search_index import SearchIndex

__all__ = ["OfferFinder", "OfferMatch"]


@dataclass(frozen=True)
class OfferMatch:
    """An offer of the same product on another platform, the matcher's verdict and which
    candidate sources found it ("code", "lexical", "dense")."""

    item: Item
    score: MatchScore
    found_by: tuple[str, ...]


class OfferFinder:
    """Same-product offers across platforms over one opened index; shared by all requests."""

    def __init__(self, index: SearchIndex, matcher: ProductMatcher, codes: CodeIndex) -> None:
        self.index = index
        self.matcher = matcher
        self.codes = codes

    @classmethod
    def build(cls, index: SearchIndex, matcher: ProductMatcher | None = None) -> OfferFinder:
        """Read the item table once: matcher statistics (unless given) and the code index."""
        items = list(index.items.values())
        matcher = matcher or ProductMatcher.from_items(items)
        finder = cls(index, matcher, CodeIndex.build(matcher, items))
        if index.live is not None:  # items a live upsert adds are found by their codes
            index.live.listen(lambda item: finder.codes.add(matcher, item))
        return finder

    async def offers(
        self, item: Item, *, limit: int | None = None, platforms: Sequence[str] = ()
    ) -> list[OfferMatch]:
        """Offers of `item` elsewhere that the matcher accepts, most probable first, at most
        `limit` (default `COMPARE_MAX_OFFERS`), only on `platforms` when given; never the item
        itself or another offer of its own platform."""
        limit = COMPARE_MAX_OFFERS.get() if limit is None else limit
        found = await self.candidates(item, platforms=platforms)
        return await offload(self._matching, item, found, limit)

    def _matching(self, item: Item, found: dict[str, list[str]], limit: int) -> list[OfferMatch]:
        """The candidates the matcher calls the same product, best first (CPU-bound)."""
        matches: list[OfferMatch] = []
        for item_id, sources in found.items():
            other = self.index.items.get(item_id)
            if other is None:
                continue
            score = self.matcher.score(item, other)
            if score.same_product:
                matches.append(OfferMatch(other, score, tuple(sources)))
        matches.sort(key=lambda m: (-m.score.probability, m.item.item_id))
        return matches[:limit]

    async def candidates(
        self, item: Item, *, platforms: Sequence[str] = ()
    ) -> dict[str, list[str]]:
        """Ids of candidate offers on the other platforms -> the sources that found each."""
        others = [p for p in platforms or PLATFORMS if p != item.platform]
        found: dict[str, list[str]] = {}
        if not others:
            return found
        filters = SearchFilters.build(platforms=others)

        def add(item_ids: list[str], source: str) -> None:
            for item_id in item_ids:
                other = self.index.items.get(item_id)
                if other is not None and other.platform in others:
                    found.setdefault(item_id, []).append(source)

        code_hits = self.codes.item_ids(self.matcher.lookup_keys(item))
        add(code_hits[: COMPARE_MAX_CODE_HITS.get()], "code")
        lexical, dense = await asyncio.gather(
            self._lexical(item, filters), self._dense(item, filters)
        )
        add(lexical, "lexical")
        add(dense, "dense")
        found.pop(item.item_id, None)
        return found

    async def _lexical(self, item: Item, filters: SearchFilters) -> list[str]:
        top_k = COMPARE_LEXICAL_CANDIDATES.get()
        if top_k == 0:
            return []
        query = " ".join(p for p in (item.brand, item.title) if p)
        hits = await offload(self.index.bm25.search, query, filters, top_k=top_k)
        return [hit.item_id for hit in hits]

    async def _dense(self, item: Item, filters: SearchFilters) -> list[str]:
        limit = COMPARE_DENSE_CANDIDATES.get()
        if limit == 0:
            return []
        try:
            hits = await self.index.store.similar(
                self.index.collection, item.item_id, filters, limit=limit
            )
        except NotFound:
            return []
        return [hit.item_id for hit in hits]
