"""The search-cache L2 backends against one contract: the embedded store and Redis (the real
server on 127.0.0.1:6379, its own db, flushed)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
from redis.asyncio import Redis

from app.recall._cache_memory import MemoryCacheStore
from app.recall._cache_redis import RedisCacheStore
from app.recall.breakers import BREAKERS
from app.recall.search_cache import CacheStore
from tests.contracts.cache_store_contract import CacheStoreContract

REDIS_URL = "redis://127.0.0.1:6379/5"


@pytest.fixture(autouse=True)
def _closed_breakers() -> Iterator[None]:
    BREAKERS.reset()
    yield
    BREAKERS.reset()


class TestMemoryCacheStore(CacheStoreContract):
    @pytest.fixture
    async def store(self) -> AsyncIterator[CacheStore]:
        store = MemoryCacheStore()
        yield store
        await store.close()


class TestRedisCacheStore(CacheStoreContract):
    @pytest.fixture
    async def store(self) -> AsyncIterator[CacheStore]:
        client = Redis.from_url(REDIS_URL)
        try:
            await client.ping()
        except OSError as exc:
            pytest.fail(f"the shared Redis on 127.0.0.1:6379 does not answer: {exc}")
        await client.flushdb()
        await client.aclose()
        store = RedisCacheStore.from_url(REDIS_URL, timeout_s=1.0)
        yield store
        await store.close()
        client = Redis.from_url(REDIS_URL)
        await client.flushdb()
        await client.aclose()
