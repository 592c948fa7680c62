"""The two `SessionStore`s: Redis (JSON under a prefix, `SET … EX ttl`, every call through
its own "redis_sessions" breaker and bounded pool) and in-process (JSON in an LRU with
expiry, for runs without Redis)."""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TypeVar

from pydantic import ValidationError
from redis.asyncio import Redis

from app.agent.session import Session, check_session_id
from app.config.params.agent import SESSION_MEMORY_MAX, SESSION_TTL_S
from app.errors import DependencyDown, Overloaded
from app.recall.redis_link import RedisLink

KEY_PREFIX = "pickwise:session:"
BREAKER = "redis_sessions"
T = TypeVar("T")

log = logging.getLogger(__name__)


def _decode(session_id: str, raw: str | bytes) -> Session | None:
    """A stored session, or None (logged) when the stored JSON no longer validates."""
    try:
        return Session.model_validate_json(raw)
    except ValidationError as exc:
        log.warning("dropping unreadable session %s: %s", session_id, exc.errors()[:1])
        return None


class RedisSessionStore:
    """Sessions as JSON strings in Redis; a stale connection is retried once, then the
    breaker decides; a full pool is `Overloaded` (429), not a Redis failure."""

    name = "redis"
    remote = True

    def __init__(self, link: RedisLink) -> None:
        self._link = link

    @classmethod
    def from_url(cls, url: str) -> RedisSessionStore:
        return cls(RedisLink.from_url(url, breaker=BREAKER))

    async def get(self, session_id: str) -> Session | None:
        key = _key(session_id)
        raw = await self._call(lambda c: c.get(key))
        return None if raw is None else _decode(session_id, raw)

    async def save(self, session: Session) -> None:
        """Store the session; a save this process was too busy to finish is reported as not
        saved (`DependencyDown`, uncounted by the breaker) so the turn still completes."""
        key, data, ttl = _key(session.session_id), session.model_dump_json(), SESSION_TTL_S.get()
        try:
            await self._call(lambda c: c.set(key, data, ex=ttl))
        except Overloaded as exc:
            raise DependencyDown(BREAKER, f"not saved: {exc}") from exc

    async def delete(self, session_id: str) -> bool:
        key = _key(session_id)
        return bool(await self._call(lambda c: c.delete(key)))

    async def ttl(self, session_id: str) -> float | None:
        key = _key(session_id)
        left_ms = await self._call(lambda c: c.pttl(key))
        if left_ms == -2:
            return None
        return float("inf") if left_ms < 0 else left_ms / 1000.0

    async def close(self) -> None:
        await self._link.close()

    async def _call(self, command: Callable[[Redis], Awaitable[T]]) -> T:
        return await self._link.run(command)


class MemorySessionStore:
    """Sessions of this process only, as JSON (so callers never share live objects)."""

    name = "memory"
    remote = False

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._entries: OrderedDict[str, tuple[float, str]] = OrderedDict()

    async def get(self, session_id: str) -> Session | None:
        entry = self._live(session_id)
        return None if entry is None else _decode(session_id, entry[1])

    async def save(self, session: Session) -> None:
        session_id = check_session_id(session.session_id)
        expires = self._clock() + SESSION_TTL_S.get()
        self._entries[session_id] = (expires, session.model_dump_json())
        self._entries.move_to_end(session_id)
        while len(self._entries) > SESSION_MEMORY_MAX.get():
            self._entries.popitem(last=False)

    async def delete(self, session_id: str) -> bool:
        if self._live(session_id) is None:
            return False
        del self._entries[session_id]
        return True

    async def ttl(self, session_id: str) -> float | None:
        entry = self._live(session_id)
        return None if entry is None else entry[0] - self._clock()

    async def close(self) -> None:
        self._entries.clear()

    def _live(self, session_id: str) -> tuple[float, str] | None:
        entry = self._entries.get(session_id)
        if entry is not None and entry[0] <= self._clock():
            del self._entries[session_id]
            return None
        return entry


def _key(session_id: str) -> str:
    return KEY_PREFIX + check_session_id(session_id)
