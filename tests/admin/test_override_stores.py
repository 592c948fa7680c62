"""The override store contract on real Redis (db 15) and on a SQLite file, and how each
fails when it cannot be reached."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from app.config._override_redis import RedisOverrideStore
from app.config._override_sqlite import SqliteOverrideStore
from app.config.overrides import OverrideStore, open_override_store
from app.config.settings import Settings
from app.errors import ConfigError, DependencyDown
from tests.admin.override_store_contract import OverrideStoreContract, StoreFactory, setting

REDIS_URL = "redis://127.0.0.1:6379/15"


class TestRedisOverrideStore(OverrideStoreContract):
    @pytest.fixture
    def make_store(self) -> Iterator[StoreFactory]:
        client = redis.Redis.from_url(REDIS_URL)
        client.flushdb()
        stores: list[OverrideStore] = []

        def make() -> OverrideStore:
            stores.append(RedisOverrideStore.from_url(REDIS_URL))
            return stores[-1]

        yield make
        for store in stores:
            store.close()
        client.flushdb()
        client.close()

    def test_an_unreachable_redis_is_a_dependency_down(self) -> None:
        store = RedisOverrideStore.from_url("redis://127.0.0.1:1/0")
        with pytest.raises(DependencyDown) as version_error:
            store.version()
        with pytest.raises(DependencyDown):
            store.transact(setting("a", A=1), audit_max=10)
        assert version_error.value.name == "redis"


class TestSqliteOverrideStore(OverrideStoreContract):
    @pytest.fixture
    def make_store(self, tmp_path: Path) -> StoreFactory:
        return lambda: SqliteOverrideStore(tmp_path / "var" / "params.sqlite3")

    def test_an_unusable_path_is_a_config_error(self, tmp_path: Path) -> None:
        (tmp_path / "file").write_text("not a folder")
        with pytest.raises(ConfigError, match="parameter store"):
            SqliteOverrideStore(tmp_path / "file" / "params.sqlite3")

    @staticmethod
    def _writing(path: Path) -> sqlite3.Connection:
        """A connection to a fresh rollback-journal file that holds its write lock."""
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        db.execute("CREATE TABLE other (x)")
        db.execute("BEGIN IMMEDIATE")
        return db

    def test_it_opens_once_another_writer_lets_go(self, tmp_path: Path) -> None:
        path = tmp_path / "params.sqlite3"
        writer = self._writing(path)
        release = threading.Timer(0.3, lambda: writer.execute("COMMIT"))
        release.start()
        store = SqliteOverrideStore(path)
        release.join()
        writer.close()
        store.transact(setting("a", A=1), audit_max=10)
        assert dict(SqliteOverrideStore(path).load().values) == {"A": 1}

    def test_a_writer_that_never_lets_go_is_a_config_error(self, tmp_path: Path) -> None:
        path = tmp_path / "params.sqlite3"
        writer = self._writing(path)
        with pytest.raises(ConfigError, match="locked"):
            SqliteOverrideStore(path, busy_timeout_s=0.2)
        writer.close()


def test_the_store_is_redis_with_a_url_else_sqlite_under_var(tmp_path: Path) -> None:
    local = open_override_store(Settings(var_dir=tmp_path, redis_url=None))
    shared = open_override_store(Settings(var_dir=tmp_path, redis_url=REDIS_URL))
    assert isinstance(local, SqliteOverrideStore)
    assert local.path == tmp_path / "params.sqlite3"
    assert isinstance(shared, RedisOverrideStore)
    shared.close()
