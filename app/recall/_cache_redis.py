"""Remote search-cache L2: a `CacheStore` over `redis.asyncio`, every command through its own
"redis_cache" breaker and bounded pool (`RedisLink`), so an outage or a full pool costs a
search little and never touches the session store's breaker."""

from __future__ import annotations

from redis.asyncio import Redis
from redis.exceptions import WatchError

from app.recall.redis_link import RedisLink

BREAKER = "redis_cache"
CONNECTIONS_PER_TURN = 2
"""A turn's searches may reach L2 side by side (one per slot of a bundle)."""


class RedisCacheStore:
    """GET / SET PX for values, SET NX PX and a WATCH-guarded compare-and-delete for locks."""

    name = "redis"
    remote = True

    def __init__(self, link: RedisLink) -> None:
        self._link = link

    @classmethod
    def from_url(cls, url: str, *, timeout_s: float | None = None) -> RedisCacheStore:
        """A store on `url` (`redis://host:port/db`); connects lazily, on the first command."""
        link = RedisLink.from_url(
            url, breaker=BREAKER, connections_per_turn=CONNECTIONS_PER_TURN, timeout_s=timeout_s
        )
        return cls(link)

    @property
    def breaker(self) -> str:
        return self._link.breaker

    async def get(self, key: str) -> bytes | None:
        value = await self._link.run(lambda c: c.get(key))
        if value is None or isinstance(value, bytes):
            return value
        return str(value).encode()

    async def set(self, key: str, value: bytes, *, ttl_ms: int) -> None:
        await self._link.run(lambda c: c.set(key, value, px=max(ttl_ms, 1)))

    async def try_lock(self, key: str, token: str, *, ttl_ms: int) -> bool:
        return bool(await self._link.run(lambda c: c.set(key, token, nx=True, px=max(ttl_ms, 1))))

    async def unlock(self, key: str, token: str) -> bool:
        """Delete the lock only while it still holds our token (it may have expired and
        been taken by another process meanwhile)."""
        return await self._link.run(lambda c: _unlock(c, key, token))

    async def ping(self) -> bool:
        return bool(await self._link.run(lambda c: c.ping()))

    async def close(self) -> None:
        await self._link.close()


async def _unlock(client: Redis, key: str, token: str) -> bool:
    async with client.pipeline(transaction=True) as pipe:
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
