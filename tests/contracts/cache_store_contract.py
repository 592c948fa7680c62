"""The behaviour every search-cache L2 (`CacheStore`) backend must show: bytes values under a
TTL, and locks taken with a token that only their holder releases and that expire.

Backend test classes inherit `CacheStoreContract` and provide an async `store` fixture that
yields an empty, reachable store.
"""

from __future__ import annotations

import asyncio

import pytest

from app.recall.search_cache import CacheStore

LONG_MS = 60_000
SHORT_MS = 100
PAST_SHORT_S = 0.3


class CacheStoreContract:
    """Inherit and provide a `store` fixture yielding the empty backend under test."""

    @pytest.fixture
    async def store(self) -> CacheStore:
        raise NotImplementedError

    async def test_is_a_cache_store(self, store: CacheStore) -> None:
        assert isinstance(store, CacheStore)
        assert isinstance(store.name, str)
        assert store.name
        assert isinstance(store.remote, bool)
        assert await store.ping()

    async def test_an_unknown_key_is_none(self, store: CacheStore) -> None:
        assert await store.get("pickwise:test:absent") is None

    async def test_a_value_comes_back_byte_for_byte(self, store: CacheStore) -> None:
        value = bytes(range(256)) + "é €".encode()
        await store.set("pickwise:test:bytes", value, ttl_ms=LONG_MS)
        assert await store.get("pickwise:test:bytes") == value
        await store.set("pickwise:test:empty", b"", ttl_ms=LONG_MS)
        assert await store.get("pickwise:test:empty") == b""

    async def test_set_replaces_and_keys_are_independent(self, store: CacheStore) -> None:
        await store.set("pickwise:test:a", b"first", ttl_ms=LONG_MS)
        await store.set("pickwise:test:b", b"other", ttl_ms=LONG_MS)
        await store.set("pickwise:test:a", b"second", ttl_ms=LONG_MS)
        assert await store.get("pickwise:test:a") == b"second"
        assert await store.get("pickwise:test:b") == b"other"

    async def test_a_value_expires_after_its_ttl(self, store: CacheStore) -> None:
        await store.set("pickwise:test:short", b"x", ttl_ms=SHORT_MS)
        await store.set("pickwise:test:long", b"y", ttl_ms=LONG_MS)
        await asyncio.sleep(PAST_SHORT_S)
        assert await store.get("pickwise:test:short") is None
        assert await store.get("pickwise:test:long") == b"y"

    async def test_a_lock_has_one_holder_and_only_it_unlocks(self, store: CacheStore) -> None:
        assert await store.try_lock("pickwise:test:lock", "a", ttl_ms=LONG_MS)
        assert not await store.try_lock("pickwise:test:lock", "b", ttl_ms=LONG_MS)
        assert not await store.try_lock("pickwise:test:lock", "a", ttl_ms=LONG_MS)
        assert not await store.unlock("pickwise:test:lock", "b")
        assert await store.unlock("pickwise:test:lock", "a")
        assert not await store.unlock("pickwise:test:lock", "a"), "released twice"
        assert await store.try_lock("pickwise:test:lock", "b", ttl_ms=LONG_MS)

    async def test_locks_are_independent_of_each_other_and_of_values(
        self, store: CacheStore
    ) -> None:
        await store.set("pickwise:test:value", b"v", ttl_ms=LONG_MS)
        assert await store.try_lock("pickwise:test:lock-1", "a", ttl_ms=LONG_MS)
        assert await store.try_lock("pickwise:test:lock-2", "b", ttl_ms=LONG_MS)
        assert await store.get("pickwise:test:value") == b"v"

    async def test_an_expired_lock_can_be_taken_and_its_old_holder_cannot_release_it(
        self, store: CacheStore
    ) -> None:
        assert await store.try_lock("pickwise:test:stale", "old", ttl_ms=SHORT_MS)
        await asyncio.sleep(PAST_SHORT_S)
        assert await store.try_lock("pickwise:test:stale", "new", ttl_ms=LONG_MS)
        assert not await store.unlock("pickwise:test:stale", "old")
        assert not await store.try_lock("pickwise:test:stale", "third", ttl_ms=LONG_MS)
        assert await store.unlock("pickwise:test:stale", "new")

    async def test_concurrent_takers_get_the_lock_once(self, store: CacheStore) -> None:
        taken = await asyncio.gather(
            *(store.try_lock("pickwise:test:race", f"t{i}", ttl_ms=LONG_MS) for i in range(8))
        )
        assert sum(taken) == 1
