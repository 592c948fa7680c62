"""Redis per role on a real redis-server of the test's own: a full pool and a stalled event
loop are overload (uncounted), not Redis failures; a restarted Redis is used again without a
failure (stale connections retried); the cache's outage never opens the sessions' breaker."""

from __future__ import annotations

import asyncio
import subprocess
import time
from collections.abc import AsyncIterator, Iterator

import pytest
from redis.asyncio import Redis

from app.agent._session_stores import RedisSessionStore
from app.agent.session import Session
from app.config.registry import REGISTRY
from app.errors import DependencyDown, Overloaded
from app.recall._cache_redis import RedisCacheStore
from app.recall.breakers import BREAKERS, guarded
from app.recall.filters import SearchFilters
from app.recall.loop_lag import LoopLag
from app.recall.redis_link import RedisLink, pool_size
from app.recall.retriever import Hit
from app.recall.search_cache import SearchCache, search_cache_key
from tests.redis_process import free_port, start_redis, stop_redis

pytestmark = pytest.mark.timeout(120)

HITS = [Hit("amazon:1", 0.9, {"title": "USB-C charger"})]


@pytest.fixture(autouse=True)
def _closed_breakers() -> Iterator[None]:
    BREAKERS.reset()
    yield
    BREAKERS.reset()


@pytest.fixture
def redis_port() -> Iterator[tuple[int, list[subprocess.Popen[bytes]]]]:
    port = free_port()
    procs = [start_redis(port)]
    yield port, procs
    for proc in procs:
        if proc.poll() is None:
            stop_redis(proc)


@pytest.fixture
async def link(redis_port: tuple[int, list[subprocess.Popen[bytes]]]) -> AsyncIterator[RedisLink]:
    port, _ = redis_port
    opened = RedisLink(Redis.from_url(f"redis://127.0.0.1:{port}/0"), breaker="redis_cache", size=1)
    yield opened
    await opened.close()


def test_pools_are_sized_from_the_admission_bound() -> None:
    with REGISTRY.overridden(API_MAX_TURNS_IN_FLIGHT=10, REDIS_POOL_SPARE=3):
        assert pool_size(1) == 13
        assert pool_size(2) == 23
        link = RedisSessionStore.from_url("redis://127.0.0.1:1/0")._link
        assert link.size == link.client.connection_pool.max_connections == 13


async def test_a_full_pool_is_overload_and_no_redis_failure(link: RedisLink) -> None:
    release = asyncio.Event()

    async def hold(client: Redis) -> bool:
        await client.ping()
        await release.wait()
        return True

    with REGISTRY.overridden(BREAKER_REDIS_CACHE_TIMEOUT_S=60.0, REDIS_POOL_WAIT_S=0.05):
        holder = asyncio.create_task(link.run(hold))
        await asyncio.sleep(0.05)
        with pytest.raises(Overloaded) as refused:
            await link.run(lambda c: c.ping())
        assert refused.value.retry_after_s >= 1
        release.set()
        assert await holder
        assert await link.run(lambda c: c.ping())
    state = BREAKERS.state("redis_cache")
    assert (state.state, state.failures) == ("closed", 0)


async def hog_the_loop(stalls: int, stall_s: float) -> None:
    for _ in range(stalls):
        time.sleep(stall_s)  # noqa: ASYNC251 - the point: a busy loop, not a slow Redis
        await asyncio.sleep(0.01)


async def test_a_stall_of_our_own_loop_costs_a_call_no_failure() -> None:
    with REGISTRY.overridden(BREAKER_REDIS_CACHE_TIMEOUT_S=0.4):
        hog = asyncio.create_task(hog_the_loop(1, 1.0))
        assert await guarded("redis_cache", lambda: asyncio.sleep(0.3, "done")) == "done"
        await hog
    assert BREAKERS.state("redis_cache").failures == 0


async def test_a_loop_that_stays_stalled_is_overload_and_uncounted() -> None:
    with REGISTRY.overridden(BREAKER_REDIS_CACHE_TIMEOUT_S=0.4, LOCAL_TIMEOUT_EXTENSIONS=1):
        hog = asyncio.create_task(hog_the_loop(6, 0.5))
        with pytest.raises(Overloaded, match="busy"):
            await guarded("redis_cache", lambda: asyncio.sleep(30))
        await hog
        assert BREAKERS.state("redis_cache").failures == 0
        with pytest.raises(DependencyDown, match="timed out"):
            await guarded("redis_cache", lambda: asyncio.sleep(30))
    assert BREAKERS.state("redis_cache").failures == 1


async def test_the_loop_monitor_sees_a_stall_only_after_it_began() -> None:
    monitor = LoopLag(tick_s=0.01)
    monitor.ensure_running()
    await asyncio.sleep(0.05)
    before = time.monotonic()
    assert monitor.worst_since(before) < 0.2
    time.sleep(0.3)  # noqa: ASYNC251
    await asyncio.sleep(0.02)
    assert monitor.worst_since(before) >= 0.2
    assert monitor.worst_since(time.monotonic() + 1) < 0.2
    monitor.stop()


async def test_a_restarted_redis_is_used_again_without_a_failure(
    redis_port: tuple[int, list[subprocess.Popen[bytes]]],
) -> None:
    port, procs = redis_port
    store = RedisSessionStore.from_url(f"redis://127.0.0.1:{port}/0")
    try:
        await asyncio.gather(*(store.save(Session(session_id=f"s{i}")) for i in range(4)))
        stop_redis(procs[0])
        procs.append(start_redis(port))
        found = await asyncio.gather(*(store.get(f"s{i}") for i in range(4)))
        assert found == [None] * 4, "a fresh server without persistence holds nothing"
        await store.save(Session(session_id="after"))
        assert await store.get("after") is not None
    finally:
        await store.close()
    state = BREAKERS.state("redis_sessions")
    assert (state.state, state.failures) == ("closed", 0)


async def test_after_an_outage_the_half_open_trial_closes_the_breaker(
    redis_port: tuple[int, list[subprocess.Popen[bytes]]],
) -> None:
    port, procs = redis_port
    store = RedisSessionStore.from_url(f"redis://127.0.0.1:{port}/0")
    try:
        await store.save(Session(session_id="before"))
        stop_redis(procs[0])
        for _ in range(3):
            with pytest.raises(DependencyDown):
                await store.get("before")
        assert BREAKERS.state("redis_sessions").state == "open"
        procs.append(start_redis(port))
        with REGISTRY.overridden(BREAKER_REDIS_SESSIONS_RESET_S=0.05):
            await asyncio.sleep(0.1)
            await store.save(Session(session_id="back"))
        assert BREAKERS.state("redis_sessions").state == "closed"
        assert await store.get("back") is not None
    finally:
        await store.close()


async def test_a_cache_outage_leaves_the_session_breaker_closed(
    redis_port: tuple[int, list[subprocess.Popen[bytes]]],
) -> None:
    port, _ = redis_port
    cache = SearchCache(RedisCacheStore.from_url(f"redis://127.0.0.1:{free_port()}/0"))
    sessions = RedisSessionStore.from_url(f"redis://127.0.0.1:{port}/0")

    async def fetch() -> list[Hit]:
        return HITS

    try:
        for i in range(5):
            key = search_cache_key("v1", f"query {i}", SearchFilters(), 10)
            assert (await cache.get_or_fetch(key, fetch)).hits == HITS
        assert BREAKERS.state("redis_cache").state == "open"
        assert not cache.l2_available
        assert cache.l2_down_reason is not None
        await sessions.save(Session(session_id="still-saved"))
        assert await sessions.get("still-saved") is not None
        assert BREAKERS.state("redis_sessions").state == "closed"
    finally:
        await cache.close()
        await sessions.close()


async def test_a_save_too_busy_to_finish_is_not_saved_and_uncounted(
    redis_port: tuple[int, list[subprocess.Popen[bytes]]],
) -> None:
    port, _ = redis_port
    with REGISTRY.overridden(API_MAX_TURNS_IN_FLIGHT=1, REDIS_POOL_SPARE=1, REDIS_POOL_WAIT_S=0.05):
        store = RedisSessionStore.from_url(f"redis://127.0.0.1:{port}/0")
        release = asyncio.Event()

        async def hold(client: Redis) -> None:
            await client.ping()
            await release.wait()

        holders = [asyncio.create_task(store._link.run(hold)) for _ in range(2)]
        await asyncio.sleep(0.05)
        try:
            with pytest.raises(DependencyDown, match="not saved") as refused:
                await store.save(Session(session_id="busy"))
            assert refused.value.name == "redis_sessions"
            with pytest.raises(Overloaded):
                await store.get("busy")
        finally:
            release.set()
            await asyncio.gather(*holders)
            await store.close()
    state = BREAKERS.state("redis_sessions")
    assert (state.state, state.failures) == ("closed", 0)
