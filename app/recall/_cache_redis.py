"""Remote search-cache L2: a `CacheStore` over `redis.asyncio`. The client never retries
(the "redis" breaker decides) and times out fast, so an outage costs a search little."""

from __future__ import annotations

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import WatchError


class RedisCacheStore:
    """GET / SET PX for values, SET NX PX and a WATCH-guarded compare-and-delete for locks."""

    name = "redis"
    remote = True

    def __init__(self, client: Redis) -> None:
        self._client = client

    @classmethod
    def from_url(cls, url: str, *, timeout_s: float) -> RedisCacheStore:
        """A store on `url` (`redis://host:port/db`); connects lazily, on the first command."""
        client = Redis.from_url(
            url,
            socket_timeout=timeout_s,
            socket_connect_timeout=timeout_s,
            retry=Retry(NoBackoff(), 0),
        )
        return cls(client)

    async def get(self, key: str) -> bytes | None:
        value = await self._client.get(key)
        if value is None or isinstance(value, bytes):
            return value
        return str(value).encode()

    async def set(self, key: str, value: bytes, *, ttl_ms: int) -> None:
        await self._client.set(key, value, px=max(ttl_ms, 1))

    async def try_lock(self, key: str, token: str, *, ttl_ms: int) -> bool:
        return bool(await self._client.set(key, token, nx=True, px=max(ttl_ms, 1)))

    async def unlock(self, key: str, token: str) -> bool:
        """Delete the lock only while it still holds our token (it may have expired and
        been taken by another process meanwhile)."""
        async with self._client.pipeline(transaction=True) as pipe:
            try:
                await pipe.watch(key)
                if await pipe.get(key) != token.encode():
                    await pipe.unwatch()
                    return False
                pipe.multi()
                pipe.delete(key)
                await pipe.execute()
            except WatchError:
                return False
        return True

    async def ping(self) -> bool:
        return bool(await self._client.ping())

    async def close(self) -> None:
        await self._client.aclose()
