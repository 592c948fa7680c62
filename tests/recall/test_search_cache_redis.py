"""The search cache on a real Redis: levels and TTLs, one fetch across two processes, and a
Redis that stops mid-test degrading to L1 (logged once) and being used again once it is back."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from redis.asyncio import Redis

from app.config.registry import REGISTRY
from app.recall._cache_redis import RedisCacheStore
from app.recall.breakers import BREAKERS
from app.recall.filters import SearchFilters
from app.recall.retriever import Hit
from app.recall.search_cache import SearchCache, search_cache_key
from tests.redis_process import free_port, start_redis, stop_redis

REDIS_URL = "redis://127.0.0.1:6379/11"
REPO = Path(__file__).resolve().parents[2]
HITS = [Hit("amazon:1", 0.9, {"title": "USB-C charger", "price_usd": 19.99})]

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(autouse=True)
def _closed_breakers() -> Iterator[None]:
    BREAKERS.reset()
    yield
    BREAKERS.reset()


@pytest.fixture
async def redis() -> AsyncIterator[Redis]:
    client = Redis.from_url(REDIS_URL)
    try:
        await client.ping()
    except OSError as exc:
        pytest.fail(f"the shared Redis on 127.0.0.1:6379 does not answer: {exc}")
    await client.flushdb()
    yield client
    await client.flushdb()
    await client.aclose()


def redis_cache(url: str = REDIS_URL) -> SearchCache:
    return SearchCache(RedisCacheStore.from_url(url, timeout_s=0.5))


class Fetcher:
    def __init__(self, hits: list[Hit] | None = None) -> None:
        self.hits = HITS if hits is None else hits
        self.calls = 0

    async def __call__(self) -> list[Hit]:
        self.calls += 1
        return list(self.hits)


async def test_levels_and_ttls_on_real_redis(redis: Redis) -> None:
    first, second = redis_cache(), redis_cache()
    full = search_cache_key("v1", "usb-c charger", SearchFilters(), 10)
    empty = search_cache_key("v1", "no such thing", SearchFilters(), 10)
    fetch = Fetcher()
    levels = [
        (await first.get_or_fetch(full, fetch)).level,
        (await first.get_or_fetch(full, fetch)).level,
        (await second.get_or_fetch(full, fetch)).level,
    ]
    assert levels == ["miss", "l1", "l2"]
    assert fetch.calls == 1
    await first.get_or_fetch(empty, Fetcher([]))
    assert 890_000 < await redis.pttl(full.l2_key) <= 900_000
    assert 50_000 < await redis.pttl(empty.l2_key) <= 60_000
    assert await redis.exists(full.lock_key) == 0, "the fetch lock is released"
    with REGISTRY.overridden(SEARCH_CACHE_TTL_S=0.2):
        short = search_cache_key("v1", "short lived", SearchFilters(), 10)
        await first.get_or_fetch(short, Fetcher())
        await asyncio.sleep(0.3)
        assert await redis.get(short.l2_key) is None
        assert (await second.get_or_fetch(short, Fetcher())).level == "miss"
    await first.close()
    await second.close()


_LOOKUP = """
import asyncio, json, sys
from redis.asyncio import Redis
from app.recall._cache_redis import RedisCacheStore
from app.recall.filters import SearchFilters
from app.recall.retriever import Hit
from app.recall.search_cache import SearchCache, search_cache_key
from tests.redis_process import free_port, start_redis, stop_redis

URL = sys.argv[1]

async def main():
    counter = Redis.from_url(URL)
    cache = SearchCache(RedisCacheStore.from_url(URL, timeout_s=2.0))
    key = search_cache_key("v1", "shared query", SearchFilters(), 10)

    async def slow_fetch():
        await counter.incr("test:fetches")
        await asyncio.sleep(0.5)
        return [Hit("amazon:1", 0.9, {"title": "shared"})]

    await counter.incr("test:ready")
    while int(await counter.get("test:ready")) < 2:
        await asyncio.sleep(0.005)
    result = await cache.get_or_fetch(key, slow_fetch)
    print(json.dumps({"level": result.level, "ids": [h.item_id for h in result.hits]}))
    await cache.close()
    await counter.aclose()

asyncio.run(main())
"""


async def test_two_processes_fetch_once(redis: Redis) -> None:
    env = {**os.environ, "SEARCH_CACHE_LOCK_WAIT_MS": "20000"}
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            _LOOKUP,
            REDIS_URL,
            cwd=REPO,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for _ in range(2)
    ]
    outputs = []
    for proc in procs:
        out, err = await asyncio.wait_for(proc.communicate(), timeout=90)
        assert proc.returncode == 0, err.decode()
        outputs.append(json.loads(out.decode().strip().splitlines()[-1]))
    assert int(await redis.get("test:fetches") or 0) == 1
    assert sorted(o["level"] for o in outputs) == ["l2", "miss"]
    assert all(o["ids"] == ["amazon:1"] for o in outputs)


@pytest.fixture
def private_redis() -> Iterator[tuple[int, list[subprocess.Popen[bytes]]]]:
    """A throw-away redis-server of our own; the test may stop and restart it."""
    port = free_port()
    procs = [start_redis(port)]
    yield port, procs
    for proc in procs:
        if proc.poll() is None:
            stop_redis(proc)


async def test_redis_stopping_degrades_to_l1_logs_once_and_recovers(
    private_redis: tuple[int, list[subprocess.Popen[bytes]]], caplog: pytest.LogCaptureFixture
) -> None:
    port, procs = private_redis
    url = f"redis://127.0.0.1:{port}/0"
    cache = redis_cache(url)
    warm = search_cache_key("v1", "warm query", SearchFilters(), 10)
    assert (await cache.get_or_fetch(warm, Fetcher())).level == "miss"
    other = redis_cache(url)
    assert (await other.get_or_fetch(warm, Fetcher())).level == "l2"
    await other.close()

    stop_redis(procs[0])
    caplog.set_level(logging.INFO, logger="app.recall")
    fetch = Fetcher()
    levels = [(await cache.get_or_fetch(warm, fetch)).level]
    for i in range(10):
        result = await cache.get_or_fetch(
            search_cache_key("v1", f"q{i}", SearchFilters(), 10), fetch
        )
        assert result.hits == HITS
        levels.append(result.level)
    assert levels == ["l1"] + ["miss"] * 10
    assert fetch.calls == 10
    assert (
        await cache.get_or_fetch(search_cache_key("v1", "q3", SearchFilters(), 10), fetch)
    ).level == "l1"
    unavailable = [r for r in caplog.records if "unavailable" in r.getMessage()]
    assert len(unavailable) == 1, [r.getMessage() for r in caplog.records]
    assert not cache.l2_available
    assert cache.stats.l2_errors >= 1
    assert BREAKERS.state("redis_cache").state == "open"

    procs.append(start_redis(port))
    with REGISTRY.overridden(BREAKER_REDIS_CACHE_RESET_S=0.05):
        await asyncio.sleep(0.1)
        back = search_cache_key("v1", "after the outage", SearchFilters(), 10)
        assert (await cache.get_or_fetch(back, Fetcher())).level == "miss"
    assert cache.l2_available
    assert BREAKERS.state("redis_cache").state == "closed"
    assert any("reachable again" in r.getMessage() for r in caplog.records)
    check = Redis.from_url(url)
    assert await check.get(back.l2_key) is not None, "L2 is written again after recovery"
    await check.aclose()
    await cache.close()
