"""The session stores against the contract, plus each one's own behaviour: Redis keeps JSON
under a prefix with a real TTL and reports an unreachable server as `DependencyDown`; the
in-process store evicts the least recently saved sessions past its cap; the SQLite file
keeps sessions across store instances (processes), purges expired and surplus rows, and
reports an unusable file as `DependencyDown`."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from redis.asyncio import Redis

from app.agent._session_sqlite import SqliteSessionStore
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


class TestSqliteSessionStore(SessionStoreContract):
    @pytest.fixture
    async def store(self, tmp_path: Path) -> AsyncIterator[SessionStore]:
        store = SqliteSessionStore(tmp_path / "sessions.sqlite3")
        yield store
        await store.close()

    async def test_a_new_store_on_the_same_file_sees_the_sessions(
        self, store: SessionStore, tmp_path: Path
    ) -> None:
        await store.save(full_session("kept"))
        await store.close()
        again = SqliteSessionStore(tmp_path / "sessions.sqlite3")
        try:
            loaded = await again.get("kept")
            assert loaded is not None
            assert loaded == full_session("kept").model_copy(
                update={"created_at": loaded.created_at, "updated_at": loaded.updated_at}
            )
            ttl = await again.ttl("kept")
            assert ttl is not None
            assert ttl > 0
        finally:
            await again.close()

    async def test_unreadable_json_reads_as_no_session(
        self, store: SessionStore, tmp_path: Path
    ) -> None:
        await store.save(full_session("broken"))
        with sqlite3.connect(tmp_path / "sessions.sqlite3") as db:
            db.execute("UPDATE sessions SET data = '{\"turns\": \"x\"' WHERE id = 'broken'")
        assert await store.get("broken") is None

    async def test_expired_and_surplus_rows_are_purged(self, tmp_path: Path) -> None:
        now = [1000.0]
        store = SqliteSessionStore(tmp_path / "s.sqlite3", clock=lambda: now[0])
        try:
            with REGISTRY.overridden(SESSION_TTL_S=10, SESSION_SQLITE_MAX=2):
                for name in ("old", "a", "b"):
                    await store.save(full_session(name))
                    now[0] += 1
                now[0] += 10
                for n in range(64):
                    await store.save(full_session(f"new-{n}"))
                    now[0] += 0.01
            with sqlite3.connect(tmp_path / "s.sqlite3") as db:
                rows = sorted(r[0] for r in db.execute("SELECT id FROM sessions"))
        finally:
            await store.close()
        # the 65th save purged: expired rows, then all but the 2 newest; 2 saves came after
        assert rows == ["new-60", "new-61", "new-62", "new-63"]

    async def test_an_unusable_file_is_a_dependency_down(self, tmp_path: Path) -> None:
        (tmp_path / "not-a-db").write_bytes(b"this is not a SQLite file" * 100)
        store = SqliteSessionStore(tmp_path / "not-a-db")
        try:
            with pytest.raises(DependencyDown) as caught:
                await store.get("s-1")
            assert caught.value.name == "sqlite_sessions"
            assert "not a SQLite" not in str(caught.value)
            with pytest.raises(DependencyDown):
                await store.save(full_session())
        finally:
            await store.close()


def test_the_factory_picks_redis_with_a_url_else_the_file_else_memory(tmp_path: Path) -> None:
    assert isinstance(open_session_store(None), MemorySessionStore)
    assert isinstance(open_session_store(None, tmp_path / "s.sqlite3"), SqliteSessionStore)
    assert isinstance(open_session_store(REDIS_URL, tmp_path / "s.sqlite3"), RedisSessionStore)
    assert not (tmp_path / "s.sqlite3").exists(), "the file is created on first use only"


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
