"""`VectorStore` over a Qdrant server through `qdrant-client`'s async client.

Same collection layout and filter semantics as the edge store. Every remote call goes through
`QdrantServerStore._call`, the one place where errors are classified (and a breaker can wrap).
The in-memory mode (`in_memory()`) runs qdrant-client's local engine: for tests only, it is slow.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

import httpx
from qdrant_client import AsyncQdrantClient
from qdrant_client import models as qm
from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse

from app.config.params.index import INDEX_UPSERT_BATCH
from app.config.params.search import VECTOR_QUERY_TIMEOUT_S
from app.errors import ConfigError, DependencyDown, IndexMissing, NotFound, PickwiseError
from app.recall.filters import SearchFilters
from app.recall.vector_store import (
    DENSE_VECTOR,
    PAYLOAD_INDEXES,
    VectorHit,
    VectorLayout,
    VectorPoint,
    VectorSearchTuning,
    anchor_values,
    point_id,
)

T = TypeVar("T")

_DEPENDENCY = "qdrant"
_ADMIN_TIMEOUT_S = 60
_SCHEMA_TYPES = {"keyword": qm.PayloadSchemaType.KEYWORD, "float": qm.PayloadSchemaType.FLOAT}
_REJECTED = {400, 401, 403, 409, 422}


class QdrantServerStore:
    """Collections on a Qdrant server (or qdrant-client's in-memory engine for tests)."""

    remote: bool

    def __init__(self, client: AsyncQdrantClient, *, name: str, remote: bool, where: str) -> None:
        self.name = name
        self.remote = remote
        self._client = client
        self._where = where

    @classmethod
    def connect(cls, url: str, *, api_key: str | None = None) -> QdrantServerStore:
        """A store on the Qdrant server at `url`; nothing is sent until the first call
        (the client's background version probe is off: it would only emit a warning)."""
        client = AsyncQdrantClient(
            url=url, api_key=api_key, timeout=_ADMIN_TIMEOUT_S, check_compatibility=False
        )
        return cls(client, name="qdrant-server", remote=True, where=url)

    @classmethod
    def in_memory(cls) -> QdrantServerStore:
        """A store on qdrant-client's in-process engine: congruence and contract tests only."""
        client = AsyncQdrantClient(location=":memory:")
        return cls(client, name="qdrant-memory", remote=False, where=":memory:")

    async def ensure_collection(self, collection: str, dimension: int) -> None:
        """Create the collection (named cosine vector, payload indexes) or check it fits."""
        client = self._client
        if await self.collection_exists(collection):
            info = await self._call(
                "get_collection", collection, lambda: client.get_collection(collection)
            )
            _check_layout(collection, info, dimension)
            present = set(info.payload_schema)
        else:
            vectors = {DENSE_VECTOR: qm.VectorParams(size=dimension, distance=qm.Distance.COSINE)}
            layout = VectorLayout.current()
            await self._call(
                "create_collection",
                collection,
                lambda: client.create_collection(
                    collection,
                    vectors_config=vectors,
                    hnsw_config=_hnsw_config(layout),
                    quantization_config=_quantization(layout.quantization),
                ),
            )
            present = set()
        for field, kind in PAYLOAD_INDEXES.items():
            if field not in present:
                await self._call(
                    "create_payload_index",
                    collection,
                    _index_request(client, collection, field, kind),
                )

    async def upsert(self, collection: str, points: Sequence[VectorPoint]) -> None:
        """Insert or replace points in batches of `INDEX_UPSERT_BATCH`, waiting for each."""
        batch = INDEX_UPSERT_BATCH.get()
        for start in range(0, len(points), batch):
            structs = [_point_struct(p) for p in points[start : start + batch]]
            await self._call(
                "upsert", collection, _upsert_request(self._client, collection, structs)
            )

    async def delete(self, collection: str, item_ids: Sequence[str]) -> None:
        """Remove the points of these item ids (absent ones are no error), waiting for it."""
        if not item_ids:
            return
        ids: list[Any] = list(dict.fromkeys(point_id(i) for i in item_ids))
        selector = qm.PointIdsList(points=ids)
        await self._call(
            "delete",
            collection,
            lambda: self._client.delete(collection, points_selector=selector, wait=True),
        )

    async def search(
        self,
        collection: str,
        vector: Sequence[float],
        filters: SearchFilters,
        *,
        limit: int,
        exact: bool = False,
    ) -> list[VectorHit]:
        """Nearest neighbours passing `filters`, best first (brute force when `exact`)."""
        return await self._nearest(
            collection, _floats(vector), client_filter(filters), limit, exact
        )

    async def count(self, collection: str, filters: SearchFilters | None = None) -> int:
        """Exact number of points passing `filters` (all when None)."""
        where = client_filter(filters or SearchFilters())
        timeout = VECTOR_QUERY_TIMEOUT_S.get()

        def request() -> Awaitable[qm.CountResult]:
            return self._client.count(
                collection, count_filter=where, exact=True, timeout=_server_timeout(timeout)
            )

        result = await self._call("count", collection, request, within_s=timeout)
        return int(result.count)

    async def retrieve(self, collection: str, item_ids: Sequence[str]) -> list[VectorPoint]:
        """Stored points (unit-length vectors) for the ids, in the order asked; unknown skipped."""
        ids: list[Any] = list(dict.fromkeys(point_id(i) for i in item_ids))
        found: dict[str, VectorPoint] = {}
        for record in await self._records(collection, ids, with_payload=True):
            payload = dict(record.payload or {})
            item_id = str(payload.get("item_id"))
            found[item_id] = VectorPoint(item_id, _dense(record.vector), payload)
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
        """Items nearest to a stored item, the item itself and `exclude` left out, sharing its
        `same` payload values; NotFound if it is absent."""
        pid = point_id(item_id)
        records = await self._records(collection, [pid], with_payload=bool(same))
        if not records:
            raise NotFound(f"item {item_id!r} is not in vector collection {collection!r}")
        left_out = list(dict.fromkeys([pid, *(point_id(i) for i in exclude)]))
        equal = anchor_values(records[0].payload or {}, same)
        where = client_filter(filters, exclude_points=left_out, equal=equal)
        return await self._nearest(collection, _dense(records[0].vector), where, limit, False)

    async def collection_exists(self, collection: str) -> bool:
        """Whether the collection exists on the server."""
        exists = await self._call(
            "collection_exists", None, lambda: self._client.collection_exists(collection)
        )
        return bool(exists)

    async def close(self) -> None:
        """Close the client's connections."""
        await self._client.close()

    async def _nearest(
        self,
        collection: str,
        vector: list[float],
        where: qm.Filter | None,
        limit: int,
        exact: bool,
    ) -> list[VectorHit]:
        timeout = VECTOR_QUERY_TIMEOUT_S.get()

        def request() -> Awaitable[qm.QueryResponse]:
            return self._client.query_points(
                collection,
                query=vector,
                using=DENSE_VECTOR,
                query_filter=where,
                search_params=_search_params(exact=exact, filtered=where is not None),
                limit=limit,
                with_payload=True,
                timeout=_server_timeout(timeout),
            )

        response = await self._call("query_points", collection, request, within_s=timeout)
        return [_hit(p.score, p.payload) for p in response.points]

    async def _records(
        self, collection: str, ids: list[Any], *, with_payload: bool
    ) -> list[qm.Record]:
        timeout = VECTOR_QUERY_TIMEOUT_S.get()

        def request() -> Awaitable[list[qm.Record]]:
            return self._client.retrieve(
                collection,
                ids,
                with_payload=with_payload,
                with_vectors=[DENSE_VECTOR],
                timeout=_server_timeout(timeout),
            )

        return list(await self._call("retrieve", collection, request, within_s=timeout))

    async def _call(
        self,
        what: str,
        collection: str | None,
        request: Callable[[], Awaitable[T]],
        *,
        within_s: float | None = None,
    ) -> T:
        """Await one remote call: timeouts and transport failures are DependencyDown, a
        missing collection is IndexMissing, a rejected request is ConfigError."""
        try:
            if within_s is None:
                return await request()
            return await asyncio.wait_for(request(), within_s)
        except PickwiseError:
            raise
        except TimeoutError:
            limit = f" after {within_s:g}s" if within_s is not None else ""
            raise DependencyDown(_DEPENDENCY, f"{what} timed out{limit}") from None
        except UnexpectedResponse as exc:
            if exc.status_code == 404 and collection is not None:
                raise self._missing(collection) from exc
            if exc.status_code in _REJECTED:
                raise ConfigError(
                    f"Qdrant at {self._where} rejected {what} on {collection!r}: "
                    f"HTTP {exc.status_code} {_content(exc)}"
                ) from exc
            raise DependencyDown(_DEPENDENCY, f"{what}: HTTP {exc.status_code}") from exc
        except (ResponseHandlingException, httpx.HTTPError, OSError) as exc:
            raise DependencyDown(_DEPENDENCY, f"{what}: {type(exc).__name__}: {exc}") from exc
        except ValueError as exc:
            if collection is not None and not await self.collection_exists(collection):
                raise self._missing(collection) from exc
            raise ConfigError(f"Qdrant {what} on {collection!r} failed: {exc}") from exc

    def _missing(self, collection: str) -> IndexMissing:
        return IndexMissing(
            f"no vector collection {collection!r} on Qdrant at {self._where} "
            "(run `pickwise index build`)"
        )


def client_filter(
    filters: SearchFilters,
    *,
    exclude_points: Sequence[str] = (),
    equal: Mapping[str, str | int] | None = None,
) -> qm.Filter | None:
    """`SearchFilters` as a qdrant-client filter, leaving out `exclude_points` (point ids) and
    keeping only payloads with the `equal` values; None when nothing is filtered."""
    must: list[Any] = []
    must_not: list[Any] = []
    if filters.platforms:
        must.append(
            qm.FieldCondition(key="platform", match=qm.MatchAny(any=list(filters.platforms)))
        )
    for field, lo, hi in (
        ("price_usd", filters.price_min, filters.price_max),
        ("rating", filters.rating_min, filters.rating_max),
    ):
        if lo is not None or hi is not None:
            must.append(qm.FieldCondition(key=field, range=qm.Range(gte=lo, lte=hi)))
    if filters.brands_in:
        must.append(
            qm.FieldCondition(key="brand_key", match=qm.MatchAny(any=list(filters.brands_in)))
        )
    if filters.brands_out:
        must_not.append(
            qm.FieldCondition(key="brand_key", match=qm.MatchAny(any=list(filters.brands_out)))
        )
    for field, value in (equal or {}).items():
        must.append(qm.FieldCondition(key=field, match=qm.MatchValue(value=value)))
    if exclude_points:
        must_not.append(qm.HasIdCondition(has_id=list(exclude_points)))
    if not must and not must_not:
        return None
    return qm.Filter(must=must or None, must_not=must_not or None)


def _index_request(
    client: AsyncQdrantClient, collection: str, field: str, kind: str
) -> Callable[[], Awaitable[qm.UpdateResult]]:
    return lambda: client.create_payload_index(collection, field, _SCHEMA_TYPES[kind], wait=True)


def _upsert_request(
    client: AsyncQdrantClient, collection: str, points: list[qm.PointStruct]
) -> Callable[[], Awaitable[qm.UpdateResult]]:
    return lambda: client.upsert(collection, points, wait=True)


def _check_layout(collection: str, info: qm.CollectionInfo, dimension: int) -> None:
    vectors = info.config.params.vectors
    params = vectors.get(DENSE_VECTOR) if isinstance(vectors, dict) else None
    if params is None or params.size != dimension or params.distance != qm.Distance.COSINE:
        raise ConfigError(
            f"Qdrant collection {collection!r} does not hold a {dimension}-d cosine vector "
            f"named {DENSE_VECTOR!r} (found {vectors!r}); rebuild the index"
        )


def _point_struct(point: VectorPoint) -> qm.PointStruct:
    payload = {**point.payload, "item_id": point.item_id}
    return qm.PointStruct(
        id=point_id(point.item_id), vector={DENSE_VECTOR: _floats(point.vector)}, payload=payload
    )


def _hit(score: float, payload: dict[str, Any] | None) -> VectorHit:
    fields = dict(payload or {})
    return VectorHit(item_id=str(fields.get("item_id")), score=float(score), payload=fields)


def _dense(vector: object) -> list[float]:
    dense = vector.get(DENSE_VECTOR) if isinstance(vector, dict) else None
    return [float(x) for x in dense] if isinstance(dense, list) else []


def _floats(vector: Sequence[float]) -> list[float]:
    tolist: Callable[[], list[float]] | None = getattr(vector, "tolist", None)
    return list(tolist()) if callable(tolist) else [float(x) for x in vector]


def _server_timeout(seconds: float) -> int:
    return max(1, math.ceil(seconds))


def _content(exc: UnexpectedResponse) -> str:
    return exc.content.decode("utf-8", "replace")[:300]


def _hnsw_config(layout: VectorLayout) -> qm.HnswConfigDiff:
    """The server builds its graph (its own `m` unless the layout sets one), with per-value
    graphs only when the layout asks, as the edge store does."""
    return qm.HnswConfigDiff(
        m=layout.hnsw_m or None,
        payload_m=layout.hnsw_payload_m,
        full_scan_threshold=layout.hnsw_full_scan_kb,
    )


def _quantization(kind: str) -> qm.QuantizationConfig | None:
    """INDEX_QUANTIZATION as the server's config: int8 or 1-bit codes kept in RAM."""
    if kind == "scalar":
        int8 = qm.ScalarQuantizationConfig(type=qm.ScalarType.INT8, quantile=0.99, always_ram=True)
        return qm.ScalarQuantization(scalar=int8)
    if kind == "binary":
        return qm.BinaryQuantization(binary=qm.BinaryQuantizationConfig(always_ram=True))
    return None


def _search_params(*, exact: bool, filtered: bool) -> qm.SearchParams:
    """The edge store's search settings: exact ignores codes; otherwise as
    `VectorSearchTuning` says (rescored codes, the graph's ef, ACORN under a filter)."""
    if exact:
        return qm.SearchParams(exact=True, quantization=qm.QuantizationSearchParams(ignore=True))
    tuning = VectorSearchTuning.current()
    acorn = qm.AcornSearchParams(enable=True) if tuning.acorn_for(filtered) else None
    rescored = qm.QuantizationSearchParams(rescore=True, oversampling=tuning.oversampling)
    return qm.SearchParams(hnsw_ef=tuning.hnsw_ef, acorn=acorn, quantization=rescored)
