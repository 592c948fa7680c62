"""`BreakerGuardedStore`: a remote `VectorStore` behind the "qdrant" breaker (reads get the
vector query timeout). Embedded stores stay unwrapped: their errors are config errors."""

from __future__ import annotations

from collections.abc import Sequence

from app.recall.breakers import guarded
from app.recall.filters import SearchFilters
from app.recall.vector_store import VectorHit, VectorPoint, VectorStore

__all__ = ["BREAKER", "BreakerGuardedStore", "guard_store"]

BREAKER = "qdrant"


class BreakerGuardedStore:
    """Delegates every `VectorStore` call to `inner` through the "qdrant" breaker."""

    def __init__(self, inner: VectorStore) -> None:
        self.inner = inner
        self.name = inner.name
        self.remote = inner.remote

    async def ensure_collection(self, collection: str, dimension: int) -> None:
        await guarded(
            BREAKER, lambda: self.inner.ensure_collection(collection, dimension), timed=False
        )

    async def upsert(self, collection: str, points: Sequence[VectorPoint]) -> None:
        await guarded(BREAKER, lambda: self.inner.upsert(collection, points), timed=False)

    async def delete(self, collection: str, item_ids: Sequence[str]) -> None:
        await guarded(BREAKER, lambda: self.inner.delete(collection, item_ids), timed=False)

    async def search(
        self,
        collection: str,
        vector: Sequence[float],
        filters: SearchFilters,
        *,
        limit: int,
        exact: bool = False,
    ) -> list[VectorHit]:
        return await guarded(
            BREAKER,
            lambda: self.inner.search(collection, vector, filters, limit=limit, exact=exact),
        )

    async def count(self, collection: str, filters: SearchFilters | None = None) -> int:
        return await guarded(BREAKER, lambda: self.inner.count(collection, filters))

    async def retrieve(self, collection: str, item_ids: Sequence[str]) -> list[VectorPoint]:
        return await guarded(BREAKER, lambda: self.inner.retrieve(collection, item_ids))

    async def similar(
        self,
        collection: str,
        item_id: str,
        filters: SearchFilters,
        *,
        limit: int,
        exclude: Sequence[str] = (),
        same: Sequence[str] = (),
    ) -> list[VectorHit]:
        return await guarded(
            BREAKER,
            lambda: self.inner.similar(
                collection, item_id, filters, limit=limit, exclude=exclude, same=same
            ),
        )

    async def collection_exists(self, collection: str) -> bool:
        return await guarded(BREAKER, lambda: self.inner.collection_exists(collection))

    async def close(self) -> None:
        """Closing is local cleanup: not guarded, so it runs even with the breaker open."""
        await self.inner.close()


def guard_store(store: VectorStore) -> VectorStore:
    """`store` behind the "qdrant" breaker when it is remote; embedded stores unchanged."""
    if not store.remote or isinstance(store, BreakerGuardedStore):
        return store
    return BreakerGuardedStore(store)
