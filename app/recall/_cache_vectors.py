"""`QueryVectorMemo`: normalised query text → query vector, LRU-bounded, one encode per text,
so the main, relaxed and probe recalls of one search (same text, other filters) encode once."""

from __future__ import annotations

import math

from app.config.params.cache import QUERY_VECTOR_MEMO_SIZE
from app.recall._cache_lru import TtlLru
from app.recall._cache_singleflight import SingleFlight
from app.recall.breakers import guarded
from app.recall.embedder import Embedder
from app.recall.offload import offload
from app.recall.trace import record_encode, timed_step

Vector = tuple[float, ...]


class QueryVectorMemo:
    """Encodes through `embedder` off the event loop; a remote embedder goes through the
    "embedder" breaker, a local one is called directly (its errors surface unchanged)."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self.encodes = 0
        self.hits = 0
        self._memo: TtlLru[Vector] = TtlLru()
        self._flights: SingleFlight[Vector] = SingleFlight()

    async def vector(self, text: str) -> Vector:
        """The query vector of `text`, encoded at most once while it stays memoised."""
        memo = self._memo.get(text)
        if memo is not None:
            self.hits += 1
            return memo
        vector, joined = await self._flights.run(text, lambda: self._encode(text))
        self.hits += joined
        return vector

    def clear(self) -> None:
        """Forget every memoised vector."""
        self._memo.clear()

    async def _encode(self, text: str) -> Vector:
        self.encodes += 1
        record_encode()
        with timed_step("encode"):
            if self.embedder.remote:
                rows = await guarded(
                    "embedder", lambda: offload(self.embedder.encode_queries, [text])
                )
            else:
                rows = await offload(self.embedder.encode_queries, [text])
        vector: Vector = tuple(float(x) for x in rows[0])
        self._memo.put(text, vector, ttl_s=math.inf, max_entries=QUERY_VECTOR_MEMO_SIZE.get())
        return vector
