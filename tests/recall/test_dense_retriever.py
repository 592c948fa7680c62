"""The dense retriever on a real Qdrant Edge store with synthetic vectors: encode-once per
search, one encode and one query for 8 identical concurrent searches, cache levels in the
trace, and which errors become DependencyDown (remote) or surface unchanged (embedded)."""

from __future__ import annotations

import asyncio
import hashlib
import socket
import threading
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from app.errors import DependencyDown, IndexMissing, InvalidRequest
from app.recall._cache_memory import MemoryCacheStore
from app.recall._edge_store import EdgeVectorStore
from app.recall.breakers import BREAKERS
from app.recall.dense_retriever import DenseRetriever
from app.recall.filters import SearchFilters
from app.recall.guarded_store import BreakerGuardedStore
from app.recall.retriever import Retriever
from app.recall.search_cache import SearchCache, open_search_cache
from app.recall.trace import recall_trace
from app.recall.vector_store import VectorHit, VectorStore
from tests.contracts.vector_store_contract import COLLECTION, DIM, catalog

FILTERS = SearchFilters.build(platforms=["amazon", "walmart"], price_max=300, rating_min=3.5)
RELAXED = FILTERS.without("price_min", "price_max", "rating_min", "rating_max")
PROBE = SearchFilters()


class CountingEmbedder:
    """Deterministic query vectors from a hash of the text; counts calls across threads."""

    model_id = "test:hash"
    dimension = DIM

    def __init__(self, *, remote: bool = False, error: Exception | None = None) -> None:
        self.remote = remote
        self.error = error
        self.texts: list[str] = []
        self._lock = threading.Lock()

    @property
    def calls(self) -> int:
        return len(self.texts)

    def encode_documents(self, texts: Sequence[str], *, progress: object = None) -> np.ndarray:
        return self.encode_queries(texts)

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        with self._lock:
            self.texts.extend(texts)
        if self.error is not None:
            raise self.error
        return np.stack([vector_of(t) for t in texts])


def vector_of(text: str) -> np.ndarray:
    seed = int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)
    vector = np.random.default_rng(seed).standard_normal(DIM).astype(np.float32)
    return vector / np.linalg.norm(vector)


@pytest.fixture(autouse=True)
def _closed_breakers() -> Iterator[None]:
    BREAKERS.reset()
    yield
    BREAKERS.reset()


@pytest.fixture(scope="module")
def shard_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("dense") / "vectors"

    async def build() -> None:
        store = EdgeVectorStore(root)
        await store.ensure_collection(COLLECTION, DIM)
        await store.upsert(COLLECTION, catalog())
        await store.close()

    asyncio.run(build())
    return root


@pytest.fixture
async def edge(shard_root: Path) -> AsyncIterator[EdgeVectorStore]:
    store = EdgeVectorStore(shard_root)
    yield store
    await store.close()


def dense(
    embedder: CountingEmbedder, store: VectorStore, cache: SearchCache | None = None
) -> DenseRetriever:
    return DenseRetriever(embedder, store, COLLECTION, "v-test", cache)


async def test_is_a_retriever_named_dense(edge: EdgeVectorStore) -> None:
    retriever = dense(CountingEmbedder(), edge)
    assert isinstance(retriever, Retriever)
    assert retriever.source == "dense"
    assert retriever.store is edge, "an embedded store is used without a breaker"


async def test_recall_matches_an_exact_store_search(edge: EdgeVectorStore) -> None:
    retriever = dense(CountingEmbedder(), edge)
    hits = await retriever.recall("noise cancelling headphones", FILTERS, top_k=10)
    exact = await edge.search(
        COLLECTION, vector_of("noise cancelling headphones").tolist(), FILTERS, limit=10, exact=True
    )
    assert [h.item_id for h in hits] == [h.item_id for h in exact]
    assert [h.score for h in hits] == pytest.approx([h.score for h in exact])
    assert hits
    assert all(FILTERS.matches(h.payload) for h in hits)


async def test_main_relaxed_and_probe_recalls_encode_once(edge: EdgeVectorStore) -> None:
    embedder = CountingEmbedder()
    retriever = dense(embedder, edge)
    with recall_trace() as trace:
        main = await retriever.recall("usb-c cable", FILTERS, top_k=5)
        relaxed = await retriever.recall("usb-c cable", RELAXED, top_k=5)
        probe = await retriever.recall("usb-c cable", PROBE, top_k=5)
    assert embedder.calls == 1
    counters = retriever.counters
    assert (counters.encodes, counters.vector_queries, counters.memo_hits) == (1, 3, 2)
    assert (trace.encodes, trace.vector_queries) == (1, 3)
    assert trace.cache_levels == ["miss", "miss", "miss"]
    assert set(trace.steps_ms) == {"encode", "vector_query", "dense_recall"}
    assert all(FILTERS.matches(h.payload) for h in main)
    assert all(RELAXED.matches(h.payload) for h in relaxed)
    assert len(probe) == 5


async def test_concurrent_recalls_with_different_filters_encode_once(
    edge: EdgeVectorStore,
) -> None:
    embedder = CountingEmbedder()
    retriever = dense(embedder, edge)
    with recall_trace() as trace:
        await asyncio.gather(
            *(retriever.recall("bluetooth speaker", f, top_k=5) for f in (FILTERS, RELAXED, PROBE))
        )
    assert embedder.calls == 1
    assert retriever.counters.vector_queries == 3
    assert (trace.encodes, trace.vector_queries) == (1, 3)


async def test_eight_concurrent_identical_searches_encode_and_query_once(
    edge: EdgeVectorStore,
) -> None:
    embedder = CountingEmbedder()
    retriever = dense(embedder, edge)
    results = await asyncio.gather(
        *(retriever.recall("webcam", FILTERS, top_k=10) for _ in range(8))
    )
    assert embedder.calls == 1
    counters = retriever.counters
    assert (counters.encodes, counters.vector_queries) == (1, 1)
    assert (counters.cache.fetches, counters.cache.joined) == (1, 7)
    assert all(r == results[0] for r in results)


async def test_repeat_search_comes_from_l1_and_the_trace_says_so(edge: EdgeVectorStore) -> None:
    embedder = CountingEmbedder()
    retriever = dense(embedder, edge)
    first = await retriever.recall("Wireless  KEYBOARD ", FILTERS, top_k=5)
    with recall_trace() as trace:
        again = await retriever.recall("wireless keyboard", FILTERS, top_k=5)
    assert trace.cache == "l1"
    assert (trace.encodes, trace.vector_queries) == (0, 0)
    assert again == first
    assert embedder.texts == ["wireless keyboard"], "the normalised text is what gets encoded"


async def test_another_process_is_answered_by_l2(edge: EdgeVectorStore) -> None:
    shared_l2 = MemoryCacheStore()
    first = dense(CountingEmbedder(), edge, SearchCache(shared_l2))
    second_embedder = CountingEmbedder()
    second = dense(second_embedder, edge, SearchCache(shared_l2))
    hits = await first.recall("charger", PROBE, top_k=5)
    with recall_trace() as trace:
        assert await second.recall("charger", PROBE, top_k=5) == hits
    assert trace.cache == "l2"
    assert second_embedder.calls == 0


async def test_blank_query_and_bad_top_k(edge: EdgeVectorStore) -> None:
    embedder = CountingEmbedder()
    retriever = dense(embedder, edge)
    assert await retriever.recall("   \t ", FILTERS, top_k=5) == []
    assert embedder.calls == 0
    with pytest.raises(InvalidRequest):
        await retriever.recall("charger", FILTERS, top_k=0)


async def test_unreachable_redis_does_not_fail_the_search(edge: EdgeVectorStore) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed_port = sock.getsockname()[1]
    cache = open_search_cache(f"redis://127.0.0.1:{closed_port}/0")
    retriever = dense(CountingEmbedder(), edge, cache)
    with recall_trace() as trace:
        first = await retriever.recall("speaker", FILTERS, top_k=5)
        second = await retriever.recall("speaker", FILTERS, top_k=5)
    assert first
    assert second == first
    assert trace.cache_levels == ["miss", "l1"]
    assert not cache.l2_available
    await cache.close()


async def test_embedded_errors_surface_unwrapped_and_are_not_cached(
    edge: EdgeVectorStore, tmp_path: Path
) -> None:
    empty = EdgeVectorStore(tmp_path / "nothing-built")
    retriever = dense(CountingEmbedder(), empty)
    for _ in range(4):
        with pytest.raises(IndexMissing):
            await retriever.recall("charger", FILTERS, top_k=5)
    assert retriever.counters.vector_queries == 4, "errors are not cached"
    await empty.close()

    broken = CountingEmbedder(error=RuntimeError("model weights missing"))
    retriever = dense(broken, edge)
    for _ in range(4):
        with pytest.raises(RuntimeError, match="weights"):
            await retriever.recall("charger", FILTERS, top_k=5)
    assert broken.calls == 4
    assert all(s.failures == 0 and s.state == "closed" for s in BREAKERS.states())


async def test_remote_embedder_failures_open_the_embedder_breaker(edge: EdgeVectorStore) -> None:
    embedder = CountingEmbedder(remote=True, error=ConnectionError("embedding API down"))
    retriever = dense(embedder, edge)
    for _ in range(3):
        with pytest.raises(DependencyDown) as info:
            await retriever.recall("charger", FILTERS, top_k=5)
        assert info.value.name == "embedder"
    embedder.error = None
    with pytest.raises(DependencyDown, match="circuit open"):
        await retriever.recall("charger", FILTERS, top_k=5)
    assert embedder.calls == 3
    assert BREAKERS.state("embedder").state == "open"


class RemoteEdgeStore(EdgeVectorStore):
    """The edge engine posing as a remote server that can go down."""

    remote = True
    down = False

    async def search(
        self,
        collection: str,
        vector: Sequence[float],
        filters: SearchFilters,
        *,
        limit: int,
        exact: bool = False,
    ) -> list[VectorHit]:
        if self.down:
            raise ConnectionRefusedError("qdrant server unreachable")
        return await super().search(collection, vector, filters, limit=limit, exact=exact)


async def test_remote_store_failures_raise_dependency_down(shard_root: Path) -> None:
    store = RemoteEdgeStore(shard_root)
    embedder = CountingEmbedder(remote=False)
    retriever = dense(embedder, store)
    assert isinstance(retriever.store, BreakerGuardedStore)
    assert await retriever.recall("charger", FILTERS, top_k=5)
    store.down = True
    for query in ("speaker", "webcam", "cable"):
        with pytest.raises(DependencyDown) as info:
            await retriever.recall(query, FILTERS, top_k=5)
        assert info.value.name == "qdrant"
    store.down = False
    with pytest.raises(DependencyDown, match="circuit open"):
        await retriever.recall("keyboard", FILTERS, top_k=5)
    assert (await retriever.recall("charger", FILTERS, top_k=5)) != [], "cached hits still answer"
    assert BREAKERS.state("embedder").failures == 0, "a local embedder has no breaker"
    await store.close()
