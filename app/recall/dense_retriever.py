"""`DenseRetriever`: the "dense" recall source, query encoding + vector query behind the
search cache, with a memoised query vector and a breaker around remote engines."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.errors import InvalidRequest
from app.recall._cache_vectors import QueryVectorMemo
from app.recall.embedder import Embedder
from app.recall.filters import SearchFilters
from app.recall.guarded_store import guard_store
from app.recall.retriever import Hit
from app.recall.search_cache import CacheStats, SearchCache, normalise_query, search_cache_key
from app.recall.trace import record_vector_query, timed_step
from app.recall.vector_store import VectorStore

if TYPE_CHECKING:
    from app.recall.search_index import SearchIndex

__all__ = ["DenseCounters", "DenseRetriever"]


@dataclass(frozen=True)
class DenseCounters:
    """What a dense retriever has done so far: real encodes and vector queries, and how
    the cache answered (tests and benchmarks diff two snapshots)."""

    encodes: int
    vector_queries: int
    memo_hits: int
    cache: CacheStats


class DenseRetriever:
    """Recall by vector similarity of the query to the indexed items."""

    source = "dense"

    def __init__(
        self,
        embedder: Embedder,
        store: VectorStore,
        collection: str,
        index_version: str | Callable[[], str],
        cache: SearchCache | None = None,
    ) -> None:
        self.store = guard_store(store)
        self.collection = collection
        self._version = index_version
        self.cache = cache if cache is not None else SearchCache()
        self._vectors = QueryVectorMemo(embedder)
        self._vector_queries = 0

    @classmethod
    def from_index(cls, index: SearchIndex, cache: SearchCache | None = None) -> DenseRetriever:
        """The dense source of an opened index, keyed on its live catalog generation."""
        return cls(
            index.embedder, index.store, index.collection, lambda: index.cache_version, cache
        )

    @property
    def index_version(self) -> str:
        """What cache keys name as the index: the version, with the catalog generation."""
        return self._version() if callable(self._version) else self._version

    @property
    def counters(self) -> DenseCounters:
        return DenseCounters(
            encodes=self._vectors.encodes,
            vector_queries=self._vector_queries,
            memo_hits=self._vectors.hits,
            cache=self.cache.stats.snapshot(),
        )

    async def recall(self, query: str, filters: SearchFilters, *, top_k: int) -> list[Hit]:
        """Up to `top_k` nearest items passing `filters`; `[]` for a blank query."""
        if top_k < 1:
            raise InvalidRequest(f"top_k must be at least 1, got {top_k}")
        key = search_cache_key(self.index_version, query, filters, top_k, source=self.source)
        if not key.query:
            return []
        with timed_step("dense_recall"):
            result = await self.cache.get_or_fetch(
                key, lambda: self._fetch(key.query, filters, top_k)
            )
        return result.hits

    async def query_vector(self, query: str) -> tuple[float, ...]:
        """The unit vector this source searches with for `query`, memoised: after a recall of
        the same text it costs no encode (item_search scores lexical hits with it)."""
        return await self._vectors.vector(normalise_query(query))

    async def _fetch(self, text: str, filters: SearchFilters, top_k: int) -> list[Hit]:
        vector = await self._vectors.vector(text)
        self._vector_queries += 1
        record_vector_query()
        with timed_step("vector_query"):
            found = await self.store.search(self.collection, vector, filters, limit=top_k)
        return [Hit(h.item_id, h.score, h.payload) for h in found]
