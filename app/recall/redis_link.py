"""A Redis client for one role (search cache, session store): its own breaker, a pool sized
from the admission bound with a local wait for a free connection (running out is overload,
429, never a Redis failure), and one retry on a fresh connection when a pooled one went
stale (Redis restarted), so a breaker's half-open trial tests Redis and not the pool."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError

from app.config.params.api import API_MAX_TURNS_IN_FLIGHT, API_RETRY_AFTER_S
from app.config.params.breakers import REDIS_POOL_SPARE, REDIS_POOL_WAIT_S
from app.errors import Overloaded
from app.recall.breakers import BREAKERS, guarded

__all__ = ["RedisLink", "pool_size"]

T = TypeVar("T")

_SOCKET_TIMEOUT_FACTOR = 2.0
"""Socket timeouts are a backstop behind the breaker's own timeout, which fires first."""


def pool_size(connections_per_turn: int) -> int:
    """Connections a pool needs for `API_MAX_TURNS_IN_FLIGHT` turns, plus the spare ones."""
    return connections_per_turn * API_MAX_TURNS_IN_FLIGHT.get() + REDIS_POOL_SPARE.get()


class RedisLink:
    """Runs commands on one client through the breaker `breaker`, at most `size` at once."""

    def __init__(self, client: Redis, *, breaker: str, size: int) -> None:
        self.client = client
        self.breaker = breaker
        self.size = size
        self._slots = asyncio.Semaphore(size)

    @classmethod
    def from_url(
        cls,
        url: str,
        *,
        breaker: str,
        connections_per_turn: int = 1,
        timeout_s: float | None = None,
    ) -> RedisLink:
        """A link on `url` (connected lazily); the socket timeouts follow the breaker's."""
        size = pool_size(connections_per_turn)
        socket_timeout = (timeout_s or BREAKERS.timeout_s(breaker)) * _SOCKET_TIMEOUT_FACTOR
        client = Redis.from_url(
            url,
            max_connections=size,
            socket_timeout=socket_timeout,
            socket_connect_timeout=socket_timeout,
            retry=Retry(NoBackoff(), 1, supported_errors=(RedisConnectionError,)),
        )
        return cls(client, breaker=breaker, size=size)

    async def run(self, command: Callable[[Redis], Awaitable[T]]) -> T:
        """`command(client)` through the breaker once a connection is free; `Overloaded` when
        none frees up within `REDIS_POOL_WAIT_S`."""
        wait_s = REDIS_POOL_WAIT_S.get()
        try:
            async with asyncio.timeout(wait_s):
                await self._slots.acquire()
        except TimeoutError:
            raise Overloaded(
                f"all {self.size} {self.breaker} connections busy for {wait_s:g}s",
                retry_after_s=API_RETRY_AFTER_S.get(),
            ) from None
        try:
            return await guarded(self.breaker, lambda: command(self.client))
        finally:
            self._slots.release()

    async def close(self) -> None:
        await self.client.aclose()
