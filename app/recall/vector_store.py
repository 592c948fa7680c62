"""The `VectorStore` protocol and the facade that picks the embedded or the remote Qdrant.

Both backends run the real Qdrant engine: `qdrant-edge-py` in-process (default, a shard
directory under `var/`), or a Qdrant server through `qdrant-client` when `QDRANT_URL` is
set. Points are keyed by a UUID derived from `item_id`, so both backends agree on ids.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from app.catalog.item import Item
from app.config.params.index import (
    INDEX_HNSW_FULL_SCAN_KB,
    INDEX_HNSW_M,
    INDEX_HNSW_PAYLOAD_M,
    INDEX_QUANTIZATION,
    VECTOR_ACORN,
    VECTOR_HNSW_EF,
    VECTOR_OVERSAMPLING,
)
from app.recall.filters import SearchFilters, brand_key

__all__ = [
    "DENSE_VECTOR",
    "PAYLOAD_INDEXES",
    "VectorHit",
    "VectorLayout",
    "VectorPoint",
    "VectorSearchTuning",
    "VectorStore",
    "anchor_values",
    "item_payload",
    "open_vector_store",
    "point_id",
]

DENSE_VECTOR = "dense"
PAYLOAD_INDEXES: Mapping[str, str] = {
    "item_id": "keyword",
    "platform": "keyword",
    "brand_key": "keyword",
    "price_usd": "float",
    "rating": "float",
    "category": "keyword",
}
"""Payload fields indexed in every collection. `category` serves similar items (neighbours of
the anchor's category: ~1 ms a call at 32k items with it, ~200 ms without); a collection
built before it was added lacks it until `pickwise index build --force`."""
_ID_NAMESPACE = uuid.UUID("5b0c4c8e-8f0e-4a8f-9a57-8c8e2f6b1f3d")


def point_id(item_id: str) -> str:
    """The stable Qdrant point id (a UUID string) of a catalog item."""
    return str(uuid.uuid5(_ID_NAMESPACE, item_id))


def item_payload(item: Item) -> dict[str, Any]:
    """The payload stored with an item's vector: what filters and result rendering need."""
    return {
        "item_id": item.item_id,
        "platform": item.platform,
        "title": item.title,
        "brand": item.brand,
        "brand_key": brand_key(item.brand),
        "category": item.category,
        "price_usd": item.price_usd,
        "rating": item.rating,
    }


@dataclass(frozen=True)
class VectorPoint:
    """A vector with its item id and payload, as written to a store."""

    item_id: str
    vector: Sequence[float]
    payload: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class VectorHit:
    """One search result: the item id, its similarity and its payload."""

    item_id: str
    score: float
    payload: Mapping[str, Any]


@runtime_checkable
class VectorStore(Protocol):
    """A dense vector store holding named collections of catalog vectors.

    Reading or writing a collection that was never created raises `IndexMissing`.
    """

    name: str
    remote: bool

    async def ensure_collection(self, collection: str, dimension: int) -> None:
        """Create the collection (cosine, named dense vector, payload indexes) if missing."""
        ...

    async def upsert(self, collection: str, points: Sequence[VectorPoint]) -> None:
        """Insert or replace points, in batches."""
        ...

    async def delete(self, collection: str, item_ids: Sequence[str]) -> None:
        """Remove the points of these item ids; an id with no point is no error."""
        ...

    async def search(
        self,
        collection: str,
        vector: Sequence[float],
        filters: SearchFilters,
        *,
        limit: int,
        exact: bool = False,
    ) -> list[VectorHit]:
        """Nearest neighbours passing `filters`, best first; `exact` forces a full scan."""
        ...

    async def count(self, collection: str, filters: SearchFilters | None = None) -> int:
        """Exact number of points passing `filters` (all when None)."""
        ...

    async def retrieve(self, collection: str, item_ids: Sequence[str]) -> list[VectorPoint]:
        """Stored points for the given item ids, in the order asked; unknown ids skipped.
        Vectors come back unit-length (collections are cosine)."""
        ...

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
        """Items nearest to a stored item, the item itself and the `exclude` ids left out;
        with `same`, only items whose payload equals the item's on those fields (see
        `anchor_values`). `NotFound` if the item is absent."""
        ...

    async def collection_exists(self, collection: str) -> bool:
        """Whether the collection has been created."""
        ...

    async def close(self) -> None:
        """Finish pending work (the edge store optimises shards it wrote), release resources."""
        ...


def anchor_values(payload: Mapping[str, Any], fields: Sequence[str]) -> dict[str, str | int]:
    """The values of `fields` in an anchor item's payload that neighbours must share: the
    keyword-like ones it has (a field it leaves empty constrains nothing)."""
    found: dict[str, str | int] = {}
    for name in fields:
        value = payload.get(name)
        if isinstance(value, str | int) and not isinstance(value, bool) and value != "":
            found[name] = value
    return found


def open_vector_store(
    *, qdrant_url: str | None, edge_root: Path, api_key: str | None = None
) -> VectorStore:
    """The store the configuration asks for: a Qdrant server when a URL is given, else edge."""
    if qdrant_url:
        from app.recall._qdrant_server_store import QdrantServerStore

        return QdrantServerStore.connect(qdrant_url, api_key=api_key)
    from app.recall._edge_store import EdgeVectorStore

    return EdgeVectorStore(edge_root)


@dataclass(frozen=True)
class VectorLayout:
    """How a new collection is laid out, from the settings when it is created: HNSW links
    (0 = exact scans), per-value links, the full-scan threshold and quantized codes. Every
    backend builds from it; the index manifest records it."""

    hnsw_m: int
    hnsw_payload_m: int
    hnsw_full_scan_kb: int
    quantization: str

    @classmethod
    def current(cls) -> VectorLayout:
        """The layout the settings ask for now."""
        return cls(
            hnsw_m=INDEX_HNSW_M.get(),
            hnsw_payload_m=INDEX_HNSW_PAYLOAD_M.get(),
            hnsw_full_scan_kb=INDEX_HNSW_FULL_SCAN_KB.get(),
            quantization=INDEX_QUANTIZATION.get(),
        )


@dataclass(frozen=True)
class VectorSearchTuning:
    """How a non-exact search runs on every backend: candidates kept walking a graph, ACORN
    under filters, and how many quantized candidates are rescored per hit asked."""

    hnsw_ef: int
    acorn: bool
    oversampling: float

    @classmethod
    def current(cls) -> VectorSearchTuning:
        """The search settings in force now."""
        return cls(VECTOR_HNSW_EF.get(), VECTOR_ACORN.get(), VECTOR_OVERSAMPLING.get())

    def acorn_for(self, filtered: bool) -> bool:
        """Whether a search walks neighbours' neighbours: only under a filter, when on."""
        return self.acorn and filtered
