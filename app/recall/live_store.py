"""`LiveVectorStore`: a built collection plus the live changes made since its build.

Every process keeps the changes it replayed from the catalog journal in memory: changed and
deleted items are left out of the built collection's answers (asked for that many more) and
the changed ones are scored here by exact cosine, so each search sees the catalog as it is
now without any process writing the shared shard. The next `index build` folds them in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from app.catalog.item import Item
from app.errors import NotFound
from app.recall.filters import SearchFilters
from app.recall.vector_store import (
    VectorHit,
    VectorPoint,
    VectorStore,
    anchor_values,
    item_payload,
)

__all__ = ["LiveVectorStore"]


class LiveVectorStore:
    """A `VectorStore` over `base` with in-memory upserts and deletes of catalog items."""

    def __init__(self, base: VectorStore) -> None:
        self.base = base
        self.name = base.name
        self.remote = base.remote
        self._state = _Live(frozenset(), {}, [], np.zeros((0, 0), dtype=np.float32))

    @property
    def changed(self) -> int:
        """How many items differ from the built collection."""
        return len(self._state.touched)

    def put(self, item: Item, vector: np.ndarray) -> None:
        """Serve `item` with `vector` from now on."""
        unit = _unit(np.asarray(vector, dtype=np.float32))
        state = self._state
        point = VectorPoint(item.item_id, unit.tolist(), item_payload(item))
        self._swap({**state.points, item.item_id: point}, state.touched | {item.item_id})

    def drop(self, item_id: str) -> None:
        """Never answer with `item_id` again."""
        state = self._state
        points = {k: v for k, v in state.points.items() if k != item_id}
        self._swap(points, state.touched | {item_id})

    async def ensure_collection(self, collection: str, dimension: int) -> None:
        await self.base.ensure_collection(collection, dimension)

    async def upsert(self, collection: str, points: Sequence[VectorPoint]) -> None:
        await self.base.upsert(collection, points)

    async def delete(self, collection: str, item_ids: Sequence[str]) -> None:
        await self.base.delete(collection, item_ids)

    async def search(
        self,
        collection: str,
        vector: Sequence[float],
        filters: SearchFilters,
        *,
        limit: int,
        exact: bool = False,
    ) -> list[VectorHit]:
        """The built collection's hits minus changed items, merged with the changed ones."""
        touched, points, ids, matrix = self._state
        if not touched:
            return await self.base.search(collection, vector, filters, limit=limit, exact=exact)
        built = await self.base.search(
            collection, vector, filters, limit=limit + len(touched), exact=exact
        )
        hits = [h for h in built if h.item_id not in touched]
        if ids:
            query = _unit(np.asarray(vector, dtype=np.float32))
            scores = matrix @ query
            for item_id, score in zip(ids, scores.tolist(), strict=True):
                payload = points[item_id].payload
                if filters.matches(payload):
                    hits.append(VectorHit(item_id, float(score), payload))
        hits.sort(key=lambda h: -h.score)
        return hits[:limit]

    async def count(self, collection: str, filters: SearchFilters | None = None) -> int:
        """Built points passing `filters`, less the changed ones that did, plus live ones."""
        wanted = filters or SearchFilters()
        touched, points, _, _ = self._state
        total = await self.base.count(collection, filters)
        if not touched:
            return total
        old = await self.base.retrieve(collection, sorted(touched))
        total -= sum(1 for p in old if wanted.matches(p.payload))
        return total + sum(1 for p in points.values() if wanted.matches(p.payload))

    async def retrieve(self, collection: str, item_ids: Sequence[str]) -> list[VectorPoint]:
        """Live points for changed ids (none for deleted ones), built points for the rest."""
        touched, points, _, _ = self._state
        built = await self.base.retrieve(collection, [i for i in item_ids if i not in touched])
        found = {p.item_id: p for p in built}
        found.update({i: points[i] for i in item_ids if i in points})
        return [found[i] for i in item_ids if i in found]

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
        """Items nearest to a stored item, itself and `exclude` left out, sharing its `same`
        payload values, live changes included; NotFound when it is not served."""
        touched = self._state.touched
        if not touched:
            return await self.base.similar(
                collection, item_id, filters, limit=limit, exclude=exclude, same=same
            )
        found = await self.retrieve(collection, [item_id])
        if not found:
            raise NotFound(f"item {item_id!r} is not in vector collection {collection!r}")
        equal = anchor_values(found[0].payload, same)
        skip = {item_id, *exclude}
        # Neighbours from the merged (built + live) view, narrowed here: a wider net covers
        # what the skipped ids and the payload match take out.
        wide = limit + len(skip) + len(touched) + (4 * limit if equal else 0)
        hits = await self.search(collection, found[0].vector, filters, limit=wide)
        kept = [
            h
            for h in hits
            if h.item_id not in skip and all(h.payload.get(k) == v for k, v in equal.items())
        ]
        return kept[:limit]

    async def collection_exists(self, collection: str) -> bool:
        return await self.base.collection_exists(collection)

    async def close(self) -> None:
        await self.base.close()

    def _swap(self, points: dict[str, VectorPoint], touched: frozenset[str]) -> None:
        """Replace the live state in one step, so a search in flight reads one consistent set."""
        ids = sorted(points)
        matrix = (
            np.stack([np.asarray(points[i].vector, dtype=np.float32) for i in ids])
            if ids
            else np.zeros((0, 0), dtype=np.float32)
        )
        self._state = _Live(touched, points, ids, matrix)


class _Live(NamedTuple):
    """The live changes: every touched id, the live points, their ids and vectors in order."""

    touched: frozenset[str]
    points: dict[str, VectorPoint]
    ids: list[str]
    matrix: np.ndarray


def _unit(vector: np.ndarray) -> Any:
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm else vector
