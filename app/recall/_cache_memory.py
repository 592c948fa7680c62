"""Embedded search-cache L2: an in-process `CacheStore`, used when no `REDIS_URL` is set."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from app.config.params.cache import SEARCH_CACHE_EMBEDDED_L2_MAX_ENTRIES
from app.recall._cache_lru import TtlLru


class MemoryCacheStore:
    """Values in a TTL-LRU and locks in a dict, with the same semantics as the Redis store
    (SET PX, SET NX PX, compare-and-delete), so one process behaves as with Redis."""

    name = "memory"
    remote = False

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._values: TtlLru[bytes] = TtlLru(clock=clock)
        self._locks: dict[str, tuple[str, float]] = {}
        self._lock = threading.Lock()

    async def get(self, key: str) -> bytes | None:
        return self._values.get(key)

    async def set(self, key: str, value: bytes, *, ttl_ms: int) -> None:
        self._values.put(
            key, value, ttl_s=ttl_ms / 1000, max_entries=SEARCH_CACHE_EMBEDDED_L2_MAX_ENTRIES.get()
        )

    async def try_lock(self, key: str, token: str, *, ttl_ms: int) -> bool:
        now = self._clock()
        with self._lock:
            held = self._locks.get(key)
            if held is not None and held[1] > now:
                return False
            self._locks[key] = (token, now + ttl_ms / 1000)
            return True

    async def unlock(self, key: str, token: str) -> bool:
        with self._lock:
            held = self._locks.get(key)
            if held is None or held[0] != token:
                return False
            del self._locks[key]
            return True

    async def ping(self) -> bool:
        return True

    async def close(self) -> None:
        self._values.clear()
        with self._lock:
            self._locks.clear()
