"""Circuit breakers: they open after the threshold and then fail fast with DependencyDown;
our own errors and cancellations are not failures; parameters apply at call time; a remote
store is guarded and an embedded one is not."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from app.config.registry import REGISTRY
from app.errors import ConfigError, DependencyDown, IndexMissing, InvalidRequest, NotFound
from app.recall._edge_store import EdgeVectorStore
from app.recall.breakers import BREAKERS, SPECS, BreakerRegistry, guarded, is_excluded
from app.recall.filters import SearchFilters
from app.recall.guarded_store import BreakerGuardedStore, guard_store
from app.recall.vector_store import VectorHit, VectorPoint


@pytest.fixture
def registry() -> BreakerRegistry:
    return BreakerRegistry(SPECS)


@pytest.fixture(autouse=True)
def _closed_global_breakers() -> Iterator[None]:
    BREAKERS.reset()
    yield
    BREAKERS.reset()


class Remote:
    """A scripted remote call: fails with `error` while it is set, counts every call."""

    def __init__(self, error: BaseException | None = None) -> None:
        self.error = error
        self.calls = 0

    async def __call__(self) -> str:
        self.calls += 1
        await asyncio.sleep(0)
        if self.error is not None:
            raise self.error
        return "ok"


async def test_opens_after_three_failures_then_fails_fast(registry: BreakerRegistry) -> None:
    remote = Remote(ConnectionError("connection refused"))
    for _ in range(2):
        with pytest.raises(DependencyDown) as info:
            await guarded("qdrant", remote, registry=registry)
        assert info.value.name == "qdrant"
        assert "ConnectionError" in info.value.reason
        assert isinstance(info.value.__cause__, ConnectionError)
    assert registry.state("qdrant").state == "closed"
    assert registry.state("qdrant").failures == 2

    with pytest.raises(DependencyDown, match="circuit opened"):
        await guarded("qdrant", remote, registry=registry)
    assert registry.state("qdrant").state == "open"

    remote.error = None
    with pytest.raises(DependencyDown, match="circuit open") as info:
        await guarded("qdrant", remote, registry=registry)
    assert info.value.name == "qdrant"
    assert remote.calls == 3, "an open breaker must not call the dependency"


async def test_trial_call_after_reset_closes_the_breaker(registry: BreakerRegistry) -> None:
    remote = Remote(TimeoutError())
    with REGISTRY.overridden(BREAKER_REDIS_RESET_S=0.05):
        for _ in range(3):
            with pytest.raises(DependencyDown):
                await guarded("redis", remote, registry=registry)
        assert registry.state("redis").state == "open"
        await asyncio.sleep(0.1)
        remote.error = None
        assert await guarded("redis", remote, registry=registry) == "ok"
    state = registry.state("redis")
    assert (state.state, state.failures) == ("closed", 0)


async def test_failed_trial_call_reopens(registry: BreakerRegistry) -> None:
    remote = Remote(OSError("unreachable"))
    with REGISTRY.overridden(BREAKER_EMBEDDER_RESET_S=0.05):
        for _ in range(3):
            with pytest.raises(DependencyDown):
                await guarded("embedder", remote, registry=registry)
        await asyncio.sleep(0.1)
        with pytest.raises(DependencyDown, match="circuit opened"):
            await guarded("embedder", remote, registry=registry)
    assert registry.state("embedder").state == "open"
    assert remote.calls == 4


@pytest.mark.parametrize(
    "error",
    [
        InvalidRequest("bad top_k"),
        ConfigError("no index"),
        NotFound("no such item"),
        TypeError("wrong call"),
        AttributeError("typo"),
    ],
    ids=lambda e: type(e).__name__,
)
async def test_our_own_errors_pass_through_uncounted(
    registry: BreakerRegistry, error: Exception
) -> None:
    remote = Remote(error)
    for _ in range(5):
        with pytest.raises(type(error)) as info:
            await guarded("qdrant", remote, registry=registry)
        assert info.value is error, "must not be turned into DependencyDown"
    state = registry.state("qdrant")
    assert (state.state, state.failures) == ("closed", 0)
    assert remote.calls == 5


async def test_dependency_down_raised_inside_counts_and_keeps_its_name(
    registry: BreakerRegistry,
) -> None:
    remote = Remote(DependencyDown("embedder", "HTTP 503"))
    with pytest.raises(DependencyDown) as info:
        await guarded("embedder", remote, registry=registry)
    assert info.value is remote.error
    assert registry.state("embedder").failures == 1
    for _ in range(2):
        with pytest.raises(DependencyDown) as info:
            await guarded("embedder", remote, registry=registry)
    assert str(info.value) == "embedder is unavailable: HTTP 503; circuit opened"


async def test_timeout_is_a_failure(registry: BreakerRegistry) -> None:
    async def hangs() -> str:
        await asyncio.sleep(30)
        return "late"

    with (
        REGISTRY.overridden(VECTOR_QUERY_TIMEOUT_S=0.1),
        pytest.raises(DependencyDown, match="timed out") as info,
    ):
        await guarded("qdrant", hangs, registry=registry)
    assert info.value.name == "qdrant"
    assert registry.state("qdrant").failures == 1


async def test_untimed_call_is_not_cut_short(registry: BreakerRegistry) -> None:
    async def slowish() -> str:
        await asyncio.sleep(0.2)
        return "done"

    with REGISTRY.overridden(VECTOR_QUERY_TIMEOUT_S=0.1):
        assert await guarded("qdrant", slowish, timed=False, registry=registry) == "done"


async def test_cancellation_is_not_a_failure(registry: BreakerRegistry) -> None:
    started = asyncio.Event()

    async def waits() -> str:
        started.set()
        await asyncio.sleep(30)
        return "never"

    task = asyncio.create_task(guarded("llm_agent", waits, registry=registry))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert registry.state("llm_agent").failures == 0


async def test_threshold_and_reset_are_read_at_call_time(registry: BreakerRegistry) -> None:
    remote = Remote(ConnectionError())
    with REGISTRY.overridden(BREAKER_OPENSEARCH_FAIL_MAX=1, BREAKER_OPENSEARCH_RESET_S=7.0):
        with pytest.raises(DependencyDown, match="circuit opened"):
            await guarded("opensearch", remote, registry=registry)
        state = registry.state("opensearch")
        assert (state.state, state.fail_max, state.reset_s) == ("open", 1, 7.0)


def test_registry_reports_every_breaker(registry: BreakerRegistry) -> None:
    states = registry.states()
    assert [s.name for s in states] == [
        "qdrant",
        "redis",
        "redis_cache",
        "redis_sessions",
        "embedder",
        "opensearch",
        "llm_planner",
        "llm_agent",
        "reranker",
    ]
    assert all(s.state == "closed" and s.failures == 0 for s in states)
    assert {s.name: s.fail_max for s in states}["qdrant"] == 3
    assert {s.name: s.reset_s for s in states}["redis"] == 30.0
    assert {s.name: s.reset_s for s in states}["redis_sessions"] == 2.0
    assert registry.timeout_s("qdrant") == 5.0
    with pytest.raises(NotFound):
        registry.breaker("postgres")


async def test_reset_closes_open_breakers(registry: BreakerRegistry) -> None:
    remote = Remote(ConnectionError())
    for _ in range(3):
        with pytest.raises(DependencyDown):
            await guarded("reranker", remote, registry=registry)
    registry.reset()
    assert registry.state("reranker").state == "closed"


def test_exclusion_predicate() -> None:
    assert is_excluded(InvalidRequest("x"))
    assert is_excluded(asyncio.CancelledError())
    assert not is_excluded(DependencyDown("redis"))
    assert not is_excluded(ConnectionError())
    assert not is_excluded(ValueError("bad JSON from the server"))


class FlakyRemoteStore:
    """A remote vector store whose every call fails while `down` is set."""

    name = "fake-qdrant-server"
    remote = True

    def __init__(self) -> None:
        self.down = True
        self.calls = 0

    async def _answer(self) -> None:
        self.calls += 1
        if self.down:
            raise ConnectionRefusedError("qdrant server unreachable")

    async def search(
        self,
        collection: str,
        vector: Sequence[float],
        filters: SearchFilters,
        *,
        limit: int,
        exact: bool = False,
    ) -> list[VectorHit]:
        await self._answer()
        return [VectorHit("amazon:1", 0.5, {"item_id": "amazon:1"})]

    async def count(self, collection: str, filters: SearchFilters | None = None) -> int:
        await self._answer()
        return 1

    async def retrieve(self, collection: str, item_ids: Sequence[str]) -> list[VectorPoint]:
        await self._answer()
        return []

    async def ensure_collection(self, collection: str, dimension: int) -> None:
        await self._answer()

    async def upsert(self, collection: str, points: Sequence[VectorPoint]) -> None:
        await self._answer()

    async def delete(self, collection: str, item_ids: Sequence[str]) -> None:
        await self._answer()

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
        await self._answer()
        return []

    async def collection_exists(self, collection: str) -> bool:
        await self._answer()
        return True

    async def close(self) -> None:
        self.calls += 1


async def test_guarded_store_turns_remote_failures_into_dependency_down() -> None:
    inner = FlakyRemoteStore()
    store = guard_store(inner)
    assert isinstance(store, BreakerGuardedStore)
    assert guard_store(store) is store
    assert (store.name, store.remote) == (inner.name, True)
    for call in (
        lambda: store.search("c", [0.1], SearchFilters(), limit=3),
        lambda: store.count("c"),
        lambda: store.retrieve("c", ["amazon:1"]),
    ):
        with pytest.raises(DependencyDown) as info:
            await call()
        assert info.value.name == "qdrant"
    assert BREAKERS.state("qdrant").state == "open"
    inner.down = False
    with pytest.raises(DependencyDown, match="circuit open"):
        await store.search("c", [0.1], SearchFilters(), limit=3)
    assert inner.calls == 3
    await store.close()
    assert inner.calls == 4, "close is local clean-up and runs with the breaker open"


async def test_guarded_store_passes_answers_through() -> None:
    inner = FlakyRemoteStore()
    inner.down = False
    store = guard_store(inner)
    hits = await store.search("c", [0.1], SearchFilters(), limit=3)
    assert [h.item_id for h in hits] == ["amazon:1"]
    assert await store.count("c") == 1
    assert await store.collection_exists("c")


async def test_embedded_store_is_not_guarded_and_its_errors_stay_config_errors(
    tmp_path: Path,
) -> None:
    edge = EdgeVectorStore(tmp_path / "vectors")
    assert guard_store(edge) is edge
    for _ in range(5):
        with pytest.raises(IndexMissing):
            await edge.search("missing", [0.1, 0.2], SearchFilters(), limit=3)
    assert BREAKERS.state("qdrant").failures == 0
    await edge.close()
