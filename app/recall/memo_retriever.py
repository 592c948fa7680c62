"""`MemoRetriever`: an in-process TTL-LRU of recent recalls in front of a local, deterministic
source (BM25), so a repeated search does not rescore the catalog. It is not a level of the
search cache and records nothing in the recall trace."""

from __future__ import annotations

from collections.abc import Callable

from app.config.params.cache import (
    SEARCH_CACHE_EMPTY_TTL_S,
    SEARCH_CACHE_ENABLED,
    SEARCH_CACHE_L1_MAX_ENTRIES,
    SEARCH_CACHE_TTL_S,
)
from app.recall._cache_lru import TtlLru
from app.recall.filters import SearchFilters
from app.recall.retriever import Hit, Retriever
from app.recall.search_cache import search_cache_key

__all__ = ["MemoRetriever"]


class MemoRetriever:
    """Answers a recall it has seen within the cache TTL from memory, else asks `inner`;
    errors are never memoised. Sizes and TTLs are those of the search cache's L1. `variant`
    names the runtime parameters that shape the inner source's hits, read at each call, so
    an admin's change takes effect at once."""

    def __init__(
        self,
        inner: Retriever,
        *,
        index_version: str | Callable[[], str] = "",
        variant: Callable[[], str] | None = None,
    ) -> None:
        self.inner = inner
        self.source = inner.source
        self._version = index_version
        self.variant = variant
        self.hits = 0
        self.misses = 0
        self._memo: TtlLru[tuple[Hit, ...]] = TtlLru()

    async def recall(self, query: str, filters: SearchFilters, *, top_k: int) -> list[Hit]:
        """The inner source's hits for these arguments, from memory when recent."""
        if not SEARCH_CACHE_ENABLED.get():
            return await self.inner.recall(query, filters, top_k=top_k)
        version = self._version() if callable(self._version) else self._version
        key = search_cache_key(version, query, filters, top_k, source=self.source).text
        if self.variant is not None:
            key = f"{key}|{self.variant()}"
        found = self._memo.get(key)
        if found is not None:
            self.hits += 1
            return list(found)
        self.misses += 1
        hits = tuple(await self.inner.recall(query, filters, top_k=top_k))
        ttl_s = (SEARCH_CACHE_TTL_S if hits else SEARCH_CACHE_EMPTY_TTL_S).get()
        self._memo.put(key, hits, ttl_s=ttl_s, max_entries=SEARCH_CACHE_L1_MAX_ENTRIES.get())
        return list(hits)

    def clear(self) -> None:
        """Forget every memoised recall."""
        self._memo.clear()
