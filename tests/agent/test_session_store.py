"""Both session stores against the contract, plus each one's own behaviour: Redis keeps JSON
under a prefix with a real TTL and reports an unreachable server as `DependencyDown`; the
in-process store evicts the least recently saved sessions past its cap."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator

import pytest
from redis.asyncio import Redis

from app.agent._session_stores import KEY_PREFIX, MemorySessionStore, RedisSessionStore
from app.agent.session import Session, SessionStore, open_session_store
from app.config.registry import REGISTRY
from app.errors import DependencyDown
from app.recall.breakers import BREAKERS
from tests.agent.session_store_contract import SessionStoreContract, full_session

REDIS_URL = "redis://127.0.0.1:6379/9"


@pytest.fixture(autouse=True)
def _closed_breakers() -> Iterator[None]:
    BREAKERS.reset()
    yield
    BREAKERS.reset()


@pytest.fixture
async def redis() -> AsyncIterator[Redis]:
    client = Redis.from_url(REDIS_URL)
    await client.flushdb()
    yield client
    await client.flushdb()
    await client.aclose()


class TestRedisSessionStore(SessionStoreContract):
    @pytest.fixture
    async def store(self, redis: Redis) -> AsyncIterator[SessionStore]:
        store = RedisSessionStore.from_url(REDIS_URL)
        yield store
        await store.close()

    async def test_sessions_are_json_under_a_prefix_with_an_expiry(
        self, store: SessionStore, redis: Redis
    ) -> None:
        with REGISTRY.overridden(SESSION_TTL_S=300):
            await store.save(full_session("k"))
        raw = await redis.get(KEY_PREFIX + "k")
        assert raw is not None
        assert json.loads(raw)["plan"]["category"] == "gaming keyboard"
        assert 0 < await redis.ttl(KEY_PREFIX + "k") <= 300

    async def test_unreadable_json_reads_as_no_session(
        self, store: SessionStore, redis: Redis
    ) -> None:
        await redis.set(KEY_PREFIX + "broken", b'{"session_id": 1, "turns": "x"')
        assert await store.get("broken") is None


async def test_an_unreachable_redis_is_a_dependency_down() -> None:
    store = RedisSessionStore.from_url("redis://127.0.0.1:1/0")
    try:
        with pytest.raises(DependencyDown) as caught:
            await store.get("s-1")
        assert caught.value.name == "redis_sessions"
        with pytest.raises(DependencyDown):
            await store.save(full_session())
    finally:
        await store.close()


class TestMemorySessionStore(SessionStoreContract):
    @pytest.fixture
    async def store(self) -> AsyncIterator[SessionStore]:
        store = MemorySessionStore()
        yield store
        await store.close()

    async def test_the_least_recently_saved_go_first_past_the_cap(
        self, store: SessionStore
    ) -> None:
        with REGISTRY.overridden(SESSION_MEMORY_MAX=2):
            for name in ("a", "b", "a", "c"):
                await store.save(full_session(name))
        assert await store.get("b") is None
        assert await store.get("a") is not None
        assert await store.get("c") is not None


def test_the_factory_picks_redis_only_with_a_url() -> None:
    assert isinstance(open_session_store(None), MemorySessionStore)
    assert isinstance(open_session_store(REDIS_URL), RedisSessionStore)


def test_the_conversation_is_bounded_and_starts_with_a_user_message() -> None:
    session = Session(session_id="c")
    with REGISTRY.overridden(SESSION_MAX_MESSAGES=5, SESSION_PLANNER_MESSAGES=2):
        for n in range(4):
            session.begin_turn(f"message {n}")
            session.end_turn(f"message {n}", f"answer {n}")
        assert session.user_messages == ["message 2", "message 3"]
    assert [line.content for line in session.conversation] == [
        "message 2",
        "answer 2",
        "message 3",
        "answer 3",
    ]
    assert session.turns == 4
