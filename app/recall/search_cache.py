"""Two-level cache of dense recalls: in-process TTL-LRU (L1) over a `CacheStore` (L2, Redis
or in-process). One fetch per key: a shared task in-process, a `SET NX PX` lock across
processes. Redis failures degrade to L1; fetch errors reach every waiter, never cached."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple, Protocol, TypeVar, runtime_checkable

from app.config.params.breakers import BREAKER_REDIS_TIMEOUT_S
from app.config.params.cache import (
    SEARCH_CACHE_EMPTY_TTL_S,
    SEARCH_CACHE_ENABLED,
    SEARCH_CACHE_L1_MAX_ENTRIES,
    SEARCH_CACHE_LOCK_POLL_MS,
    SEARCH_CACHE_LOCK_TTL_MS,
    SEARCH_CACHE_LOCK_WAIT_MS,
    SEARCH_CACHE_TTL_S,
)
from app.errors import DependencyDown
from app.recall._cache_codec import decode_hits, encode_hits
from app.recall._cache_lru import TtlLru
from app.recall._cache_memory import MemoryCacheStore
from app.recall._cache_singleflight import SingleFlight
from app.recall.breakers import guarded
from app.recall.filters import SearchFilters
from app.recall.retriever import Hit
from app.recall.trace import CacheLevel, record_cache_level

__all__ = [
    "KEY_PREFIX",
    "CacheResult",
    "CacheStats",
    "CacheStore",
    "Fetch",
    "Hits",
    "SearchCache",
    "SearchKey",
    "normalise_query",
    "open_search_cache",
    "search_cache_key",
]

KEY_PREFIX = "pickwise:sc:"
_KEY_SCHEMA = "sc1"

T = TypeVar("T")
Fetch = Callable[[], Awaitable[Sequence[Hit]]]
Hits = tuple[Hit, ...]

log = logging.getLogger(__name__)


@runtime_checkable
class CacheStore(Protocol):
    """The L2 of the search cache: bytes values with a TTL and short-lived locks."""

    name: str
    remote: bool

    async def get(self, key: str) -> bytes | None:
        """The value of `key`, or None when absent or expired."""
        ...

    async def set(self, key: str, value: bytes, *, ttl_ms: int) -> None:
        """Store `value` under `key` for `ttl_ms` milliseconds."""
        ...

    async def try_lock(self, key: str, token: str, *, ttl_ms: int) -> bool:
        """Take the lock `key` for `ttl_ms` (SET NX PX); False when someone else holds it."""
        ...

    async def unlock(self, key: str, token: str) -> bool:
        """Release the lock `key` if it still holds `token`."""
        ...

    async def ping(self) -> bool:
        """True when the store answers (raises when it cannot be reached)."""
        ...

    async def close(self) -> None:
        """Release connections."""
        ...


def normalise_query(query: str) -> str:
    """The cached form of a query: trimmed, lower-cased, inner whitespace collapsed."""
    return " ".join(query.lower().split())


@dataclass(frozen=True)
class SearchKey:
    """A cache key: the canonical text (L1) and its hash (L2); `query` is the normalised text."""

    text: str
    query: str

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()[:40]

    @property
    def l2_key(self) -> str:
        return KEY_PREFIX + self.digest

    @property
    def lock_key(self) -> str:
        return KEY_PREFIX + "lock:" + self.digest


def search_cache_key(
    index_version: str,
    query: str,
    filters: SearchFilters,
    top_k: int,
    *,
    source: str = "dense",
) -> SearchKey:
    """The key of one recall: index version, normalised query, top_k and canonical filters."""
    text = normalise_query(query)
    canonical = f"{_KEY_SCHEMA}|{source}|v={index_version}|k={top_k}|{filters.key()}|q={text}"
    return SearchKey(canonical, text)


class CacheResult(NamedTuple):
    """Hits of a lookup (a fresh list of shared, immutable hits) and the level that answered.

    Hits are frozen and their payload is a read-only `Mapping`: L1 hands out the same objects.
    """

    hits: list[Hit]
    level: CacheLevel


@dataclass
class CacheStats:
    """Counters of one cache: answers per level, real fetches, shared and degraded lookups."""

    lookups: int = 0
    l1: int = 0
    l2: int = 0
    miss: int = 0
    fetches: int = 0
    joined: int = 0
    lock_waits: int = 0
    l2_errors: int = 0

    def count(self, level: CacheLevel) -> None:
        """Count one answer from `level`."""
        if level == "l1":
            self.l1 += 1
        elif level == "l2":
            self.l2 += 1
        else:
            self.miss += 1

    def snapshot(self) -> CacheStats:
        """A copy, so a caller can diff counts before and after."""
        return replace(self)


class SearchCache:
    """Answers `get_or_fetch` from L1, else L2, else by running `fetch` once per key."""

    def __init__(self, l2: CacheStore | None = None) -> None:
        self.l2: CacheStore = l2 if l2 is not None else MemoryCacheStore()
        self.stats = CacheStats()
        self._l1: TtlLru[Hits] = TtlLru()
        self._flights: SingleFlight[tuple[Hits, CacheLevel]] = SingleFlight()
        self._l2_down = False

    @property
    def l2_available(self) -> bool:
        """False from an L2 failure until the next successful L2 call."""
        return not self._l2_down

    async def get_or_fetch(self, key: SearchKey, fetch: Fetch) -> CacheResult:
        """Hits for `key` and the level that answered; `fetch` runs only on a miss."""
        self.stats.lookups += 1
        if not SEARCH_CACHE_ENABLED.get():
            self.stats.fetches += 1
            hits = tuple(await fetch())
            level: CacheLevel = "miss"
        else:
            cached = self._l1.get(key.text)
            if cached is not None:
                hits, level = cached, "l1"
            else:
                (hits, level), joined = await self._flights.run(
                    key.text, lambda: self._lookup(key, fetch)
                )
                self.stats.joined += joined
        self.stats.count(level)
        record_cache_level(level)
        return CacheResult(list(hits), level)

    def clear_l1(self) -> None:
        """Drop every L1 entry (tests, admin)."""
        self._l1.clear()

    async def close(self) -> None:
        """Release L2 connections."""
        await self.l2.close()

    async def _lookup(self, key: SearchKey, fetch: Fetch) -> tuple[Hits, CacheLevel]:
        """L2, then the cross-process lock, then the fetch; runs once per key at a time."""
        found = await self._l2_value(key)
        if found is not None:
            return found, "l2"
        token = uuid.uuid4().hex
        locked = await self._try_lock(key, token)
        if locked is False:
            found, locked = await self._await_peer(key, token)
            if found is not None:
                return found, "l2"
        try:
            return await self._fetch_and_store(key, fetch), "miss"
        finally:
            if locked:
                await self._l2_call(lambda: self.l2.unlock(key.lock_key, token), False)

    async def _await_peer(self, key: SearchKey, token: str) -> tuple[Hits | None, bool]:
        """Poll L2 while another process fetches; take over its lock if it lets go empty-handed.
        Returns the value it stored, or None and whether we now hold the lock."""
        self.stats.lock_waits += 1
        deadline = time.monotonic() + SEARCH_CACHE_LOCK_WAIT_MS.get() / 1000
        while time.monotonic() < deadline:
            await asyncio.sleep(SEARCH_CACHE_LOCK_POLL_MS.get() / 1000)
            found = await self._l2_value(key)
            if found is not None:
                return found, False
            got = await self._try_lock(key, token)
            if got is not False:
                return None, bool(got)
        return None, False

    async def _try_lock(self, key: SearchKey, token: str) -> bool | None:
        """True: we hold the fetch lock; False: another process does; None: L2 unavailable."""
        ttl_ms = SEARCH_CACHE_LOCK_TTL_MS.get()
        return await self._l2_call(
            lambda: self.l2.try_lock(key.lock_key, token, ttl_ms=ttl_ms), None
        )

    async def _fetch_and_store(self, key: SearchKey, fetch: Fetch) -> Hits:
        self.stats.fetches += 1
        hits = tuple(await fetch())
        ttl_s = self._remember(key, hits)
        try:
            raw = encode_hits(hits)
        except (TypeError, ValueError) as exc:
            log.warning("not sharing %s through L2: its payload is not JSON: %s", key.l2_key, exc)
            return hits
        ttl_ms = max(1, round(ttl_s * 1000))
        await self._l2_call(lambda: self.l2.set(key.l2_key, raw, ttl_ms=ttl_ms), None)
        return hits

    async def _l2_value(self, key: SearchKey) -> Hits | None:
        """The L2 hits of `key`, copied into L1; a malformed value counts as a miss."""
        raw = await self._l2_call(lambda: self.l2.get(key.l2_key), None)
        if raw is None:
            return None
        try:
            hits = tuple(decode_hits(raw))
        except ValueError as exc:
            log.warning("ignoring a malformed search cache entry %s: %s", key.l2_key, exc)
            return None
        self._remember(key, hits)
        return hits

    def _remember(self, key: SearchKey, hits: Hits) -> float:
        """Put `hits` in L1 with the TTL their emptiness calls for; returns that TTL."""
        ttl_s = (SEARCH_CACHE_TTL_S if hits else SEARCH_CACHE_EMPTY_TTL_S).get()
        self._l1.put(key.text, hits, ttl_s=ttl_s, max_entries=SEARCH_CACHE_L1_MAX_ENTRIES.get())
        return ttl_s

    async def _l2_call(self, call: Callable[[], Awaitable[T]], fallback: T) -> T:
        """One L2 operation; a remote L2 goes through the "redis" breaker and its failure
        returns `fallback` (L1 only), logged once per outage rather than once per request."""
        if not self.l2.remote:
            return await call()
        try:
            result = await guarded("redis", call)
        except DependencyDown as exc:
            self.stats.l2_errors += 1
            if not self._l2_down:
                self._l2_down = True
                log.warning(
                    "search cache L2 (%s) unavailable, serving from L1 only: %s", self.l2.name, exc
                )
            return fallback
        if self._l2_down:
            self._l2_down = False
            log.info("search cache L2 (%s) is reachable again", self.l2.name)
        return result


def open_search_cache(redis_url: str | None) -> SearchCache:
    """A cache over Redis when a URL is given (connected lazily), else over the embedded L2."""
    if not redis_url:
        return SearchCache(MemoryCacheStore())
    from app.recall._cache_redis import RedisCacheStore

    return SearchCache(RedisCacheStore.from_url(redis_url, timeout_s=BREAKER_REDIS_TIMEOUT_S.get()))
