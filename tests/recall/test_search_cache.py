"""Search cache logic on fakeredis and the embedded L2: levels, TTLs, keys, singleflight in one
process and between two caches sharing an L2, and fetch errors (the L2 store contract is
in tests/recall/test_cache_stores.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import fakeredis
import pytest

from app.config.registry import REGISTRY
from app.errors import DependencyDown
from app.recall._cache_memory import MemoryCacheStore
from app.recall._cache_redis import RedisCacheStore
from app.recall.breakers import BREAKERS
from app.recall.filters import SearchFilters
from app.recall.redis_link import RedisLink
from app.recall.retriever import Hit
from app.recall.search_cache import (
    KEY_PREFIX,
    CacheStore,
    SearchCache,
    SearchKey,
    normalise_query,
    open_search_cache,
    search_cache_key,
)
from app.recall.trace import recall_trace

HITS = [
    Hit("amazon:1", 0.91, {"title": "Sony WH-1000XM5", "price_usd": 348.0, "brand_key": "sony"}),
    Hit("walmart:7", 0.87, {"title": "Bose QC45", "price_usd": None, "rating": 4.5}),
]
KEY = search_cache_key("v1", "wireless headphones", SearchFilters(), 10)


@pytest.fixture(autouse=True)
def _closed_breakers() -> Iterator[None]:
    BREAKERS.reset()
    yield
    BREAKERS.reset()


@pytest.fixture
def server() -> fakeredis.FakeServer:
    return fakeredis.FakeServer()


def fake_store(server: fakeredis.FakeServer) -> RedisCacheStore:
    link = RedisLink(fakeredis.FakeAsyncRedis(server=server), breaker="redis_cache", size=16)
    return RedisCacheStore(link)


@pytest.fixture(params=["fakeredis", "memory"])
async def l2(
    request: pytest.FixtureRequest, server: fakeredis.FakeServer
) -> AsyncIterator[CacheStore]:
    store: CacheStore = fake_store(server) if request.param == "fakeredis" else MemoryCacheStore()
    yield store
    await store.close()


class Fetcher:
    """A counting fetch; waits for `gate` when given, raises `error` when set."""

    def __init__(
        self,
        hits: list[Hit] | None = None,
        *,
        gate: asyncio.Event | None = None,
        error: Exception | None = None,
    ) -> None:
        self.hits = HITS if hits is None else hits
        self.gate = gate
        self.error = error
        self.calls = 0

    async def __call__(self) -> list[Hit]:
        self.calls += 1
        if self.gate is not None:
            await self.gate.wait()
        if self.error is not None:
            raise self.error
        return list(self.hits)


async def until(condition: object, *, limit: int = 2000) -> None:
    """Yield to the loop until `condition()` holds (no wall-clock assumptions)."""
    for _ in range(limit):
        if callable(condition) and condition():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("condition never held")


# -- levels and values ------------------------------------------------------------------------


async def test_miss_then_l1_then_l2_from_another_process(l2: CacheStore) -> None:
    cache = SearchCache(l2)
    fetch = Fetcher()
    first = await cache.get_or_fetch(KEY, fetch)
    second = await cache.get_or_fetch(KEY, fetch)
    other = SearchCache(l2)  # a second process: own L1, shared L2
    third = await other.get_or_fetch(KEY, fetch)
    fourth = await other.get_or_fetch(KEY, fetch)
    assert [r.level for r in (first, second, third, fourth)] == ["miss", "l1", "l2", "l1"]
    assert fetch.calls == 1
    for result in (first, second, third, fourth):
        assert result.hits == HITS
    assert (cache.stats.miss, cache.stats.l1, other.stats.l2, other.stats.l1) == (1, 1, 1, 1)


async def test_each_caller_gets_its_own_list(l2: CacheStore) -> None:
    cache = SearchCache(l2)
    first = await cache.get_or_fetch(KEY, Fetcher())
    first.hits.clear()
    again = await cache.get_or_fetch(KEY, Fetcher())
    assert again.level == "l1"
    assert again.hits == HITS


async def test_values_are_compact_json_under_a_hashed_prefixed_key(
    server: fakeredis.FakeServer,
) -> None:
    cache = SearchCache(fake_store(server))
    await cache.get_or_fetch(KEY, Fetcher())
    raw = await fakeredis.FakeAsyncRedis(server=server).get(KEY.l2_key)
    assert KEY.l2_key.startswith(KEY_PREFIX)
    assert "headphones" not in KEY.l2_key
    assert isinstance(raw, bytes)
    assert raw.startswith(b'[["amazon:1",0.91,{"title":"Sony WH-1000XM5"')


async def test_trace_records_the_level_that_answered(l2: CacheStore) -> None:
    cache = SearchCache(l2)
    with recall_trace() as trace:
        await cache.get_or_fetch(KEY, Fetcher())
        await cache.get_or_fetch(KEY, Fetcher())
    assert trace.cache_levels == ["miss", "l1"]
    assert trace.cache == "l1"


async def test_l1_evicts_least_recently_used_and_l2_answers_instead(l2: CacheStore) -> None:
    cache = SearchCache(l2)
    keys = [search_cache_key("v1", f"query {i}", SearchFilters(), 10) for i in range(3)]
    with REGISTRY.overridden(SEARCH_CACHE_L1_MAX_ENTRIES=2):
        for key in keys:
            await cache.get_or_fetch(key, Fetcher())
        newest_first = keys[::-1]
        levels = [(await cache.get_or_fetch(key, Fetcher())).level for key in newest_first]
    assert levels == ["l1", "l1", "l2"]


async def test_disabled_cache_always_fetches(l2: CacheStore) -> None:
    cache = SearchCache(l2)
    fetch = Fetcher()
    with REGISTRY.overridden(SEARCH_CACHE_ENABLED=False):
        levels = [(await cache.get_or_fetch(KEY, fetch)).level for _ in range(3)]
    assert levels == ["miss"] * 3
    assert fetch.calls == 3


async def test_malformed_l2_entry_counts_as_a_miss(server: fakeredis.FakeServer) -> None:
    await fakeredis.FakeAsyncRedis(server=server).set(KEY.l2_key, b'{"not": "hits"}')
    result = await SearchCache(fake_store(server)).get_or_fetch(KEY, Fetcher())
    assert result.level == "miss"
    assert result.hits == HITS


async def test_a_payload_that_is_not_json_stays_in_l1(server: fakeredis.FakeServer) -> None:
    cache = SearchCache(fake_store(server))
    odd = [Hit("amazon:1", 0.5, {"tags": {"a", "b"}})]
    assert (await cache.get_or_fetch(KEY, Fetcher(odd))).hits == odd
    assert (await cache.get_or_fetch(KEY, Fetcher(odd))).level == "l1"
    assert await fakeredis.FakeAsyncRedis(server=server).get(KEY.l2_key) is None


# -- TTLs ---------------------------------------------------------------------------------------


async def test_entries_expire_after_their_ttl(l2: CacheStore) -> None:
    cache = SearchCache(l2)
    fetch = Fetcher()
    with REGISTRY.overridden(SEARCH_CACHE_TTL_S=0.2):
        assert (await cache.get_or_fetch(KEY, fetch)).level == "miss"
        assert (await cache.get_or_fetch(KEY, fetch)).level == "l1"
        await asyncio.sleep(0.3)
        assert (await cache.get_or_fetch(KEY, fetch)).level == "miss"
    assert fetch.calls == 2


async def test_empty_results_get_the_short_ttl(l2: CacheStore) -> None:
    cache = SearchCache(l2)
    empty_key = search_cache_key("v1", "no such thing", SearchFilters(), 10)
    empty, full = Fetcher([]), Fetcher()
    with REGISTRY.overridden(SEARCH_CACHE_TTL_S=60.0, SEARCH_CACHE_EMPTY_TTL_S=0.2):
        await cache.get_or_fetch(empty_key, empty)
        await cache.get_or_fetch(KEY, full)
        await asyncio.sleep(0.3)
        assert (await cache.get_or_fetch(empty_key, empty)).level == "miss"
        assert (await cache.get_or_fetch(KEY, full)).level == "l1"
    assert (empty.calls, full.calls) == (2, 1)


async def test_redis_ttls_are_the_declared_defaults(server: fakeredis.FakeServer) -> None:
    cache = SearchCache(fake_store(server))
    empty_key = search_cache_key("v1", "no such thing", SearchFilters(), 10)
    await cache.get_or_fetch(KEY, Fetcher())
    await cache.get_or_fetch(empty_key, Fetcher([]))
    client = fakeredis.FakeAsyncRedis(server=server)
    assert 890_000 < await client.pttl(KEY.l2_key) <= 900_000
    assert 50_000 < await client.pttl(empty_key.l2_key) <= 60_000


# -- keys ----------------------------------------------------------------------------------------


def test_query_normalisation() -> None:
    assert normalise_query("  Wireless \t HEADPHONES\n") == "wireless headphones"
    base = search_cache_key("v1", "wireless headphones", SearchFilters(), 10)
    for variant in ("Wireless Headphones", "  wireless   headphones ", "WIRELESS\theadphones"):
        assert search_cache_key("v1", variant, SearchFilters(), 10) == base
    assert base.query == "wireless headphones"


def test_which_inputs_change_the_key() -> None:
    build = SearchFilters.build
    base = search_cache_key("v1", "q", build(platforms=["amazon", "walmart"], price_max=100), 10)
    same = [
        search_cache_key("v1", "q", build(platforms=["walmart", "amazon"], price_max=100), 10),
        search_cache_key("v1", "Q ", build(platforms=("walmart", " Amazon"), price_max=100.0), 10),
    ]
    different = [
        search_cache_key("v2", "q", build(platforms=["amazon", "walmart"], price_max=100), 10),
        search_cache_key("v1", "q2", build(platforms=["amazon", "walmart"], price_max=100), 10),
        search_cache_key("v1", "q", build(platforms=["amazon", "walmart"], price_max=100), 20),
        search_cache_key("v1", "q", build(platforms=["amazon"], price_max=100), 10),
        search_cache_key("v1", "q", build(platforms=["amazon", "walmart"], price_max=99), 10),
        search_cache_key(
            "v1", "q", build(platforms=["amazon", "walmart"], price_max=100, price_min=5), 10
        ),
        search_cache_key(
            "v1", "q", build(platforms=["amazon", "walmart"], price_max=100, rating_min=4), 10
        ),
        search_cache_key(
            "v1", "q", build(platforms=["amazon", "walmart"], price_max=100, brands_in=["Sony"]), 10
        ),
        search_cache_key(
            "v1",
            "q",
            build(platforms=["amazon", "walmart"], price_max=100, brands_out=["Sony"]),
            10,
        ),
        search_cache_key(
            "v1", "q", build(platforms=["amazon", "walmart"], price_max=100), 10, source="other"
        ),
    ]
    assert all(key == base for key in same)
    digests = {key.digest for key in different}
    assert base.digest not in digests
    assert len(digests) == len(different)
    assert "bin=" not in base.text
    assert "bout=" not in base.text
    assert "bin=sony" in different[7].text


def test_key_forms() -> None:
    key = SearchKey("text", "q")
    assert key.l2_key == KEY_PREFIX + key.digest
    assert key.lock_key.startswith(KEY_PREFIX + "lock:")
    assert len(key.digest) == 40


# -- singleflight and errors ------------------------------------------------------------------


async def test_eight_concurrent_lookups_fetch_once(l2: CacheStore) -> None:
    cache = SearchCache(l2)
    fetch = Fetcher(gate=asyncio.Event())
    tasks = [asyncio.create_task(cache.get_or_fetch(KEY, fetch)) for _ in range(8)]
    await until(lambda: fetch.calls == 1)
    assert fetch.gate is not None
    fetch.gate.set()
    results = await asyncio.gather(*tasks)
    assert fetch.calls == 1
    assert {r.level for r in results} == {"miss"}
    assert all(r.hits == HITS for r in results)
    assert (cache.stats.fetches, cache.stats.joined, cache.stats.lookups) == (1, 7, 8)


async def test_a_cancelled_caller_does_not_cancel_the_shared_fetch(l2: CacheStore) -> None:
    cache = SearchCache(l2)
    fetch = Fetcher(gate=asyncio.Event())
    first = asyncio.create_task(cache.get_or_fetch(KEY, fetch))
    second = asyncio.create_task(cache.get_or_fetch(KEY, fetch))
    await until(lambda: fetch.calls == 1)
    first.cancel()
    assert fetch.gate is not None
    fetch.gate.set()
    assert (await second).hits == HITS
    assert first.cancelled()


async def test_fetch_error_reaches_every_waiter_and_is_not_cached(l2: CacheStore) -> None:
    cache = SearchCache(l2)
    error = DependencyDown("qdrant", "connection refused")
    failing = Fetcher(gate=asyncio.Event(), error=error)
    tasks = [asyncio.create_task(cache.get_or_fetch(KEY, failing)) for _ in range(8)]
    await until(lambda: failing.calls == 1)
    assert failing.gate is not None
    failing.gate.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    assert all(r is error for r in results)
    assert failing.calls == 1
    assert await l2.get(KEY.l2_key) is None
    assert await l2.try_lock(KEY.lock_key, "probe", ttl_ms=1000), "the fetch lock was released"
    await l2.unlock(KEY.lock_key, "probe")
    healthy = Fetcher()
    assert (await cache.get_or_fetch(KEY, healthy)).level == "miss"
    assert healthy.calls == 1


async def test_second_process_waits_for_the_first_and_reads_l2(l2: CacheStore) -> None:
    first, second = SearchCache(l2), SearchCache(l2)
    slow = Fetcher(gate=asyncio.Event())
    never = Fetcher()
    leader = asyncio.create_task(first.get_or_fetch(KEY, slow))
    await until(lambda: slow.calls == 1)
    follower = asyncio.create_task(second.get_or_fetch(KEY, never))
    await until(lambda: second.stats.lock_waits == 1)
    assert slow.gate is not None
    slow.gate.set()
    assert (await leader).level == "miss"
    result = await follower
    assert (result.level, result.hits, never.calls) == ("l2", HITS, 0)


async def test_waiter_takes_over_when_the_lock_holder_fails(l2: CacheStore) -> None:
    first, second = SearchCache(l2), SearchCache(l2)
    failing = Fetcher(gate=asyncio.Event(), error=RuntimeError("vector query failed"))
    healthy = Fetcher()
    leader = asyncio.create_task(first.get_or_fetch(KEY, failing))
    await until(lambda: failing.calls == 1)
    follower = asyncio.create_task(second.get_or_fetch(KEY, healthy))
    await until(lambda: second.stats.lock_waits == 1)
    assert failing.gate is not None
    failing.gate.set()
    with pytest.raises(RuntimeError):
        await leader
    result = await follower
    assert (result.level, healthy.calls) == ("miss", 1)


async def test_waiter_fetches_itself_after_the_max_wait(l2: CacheStore) -> None:
    assert await l2.try_lock(KEY.lock_key, "stuck-process", ttl_ms=60_000)
    cache = SearchCache(l2)
    fetch = Fetcher()
    with REGISTRY.overridden(SEARCH_CACHE_LOCK_WAIT_MS=50, SEARCH_CACHE_LOCK_POLL_MS=5):
        result = await cache.get_or_fetch(KEY, fetch)
    assert (result.level, fetch.calls, cache.stats.lock_waits) == ("miss", 1, 1)
    assert not await l2.unlock(KEY.lock_key, "someone-else")
    assert await l2.unlock(KEY.lock_key, "stuck-process"), "the other holder's lock is untouched"


async def test_factory_picks_the_backend() -> None:
    embedded = open_search_cache(None)
    remote = open_search_cache("redis://127.0.0.1:1/0")
    assert (embedded.l2.name, embedded.l2.remote) == ("memory", False)
    assert (remote.l2.name, remote.l2.remote) == ("redis", True)
    await embedded.close()
    await remote.close()
