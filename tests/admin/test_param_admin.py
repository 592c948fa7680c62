"""Parameter administration on a private registry: batches validated first and applied all
or nothing, secrets kept and masked, resets, audit records, and two "workers" (registries
with their own store and sync) following each other's changes through real Redis."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis

from app.config._override_redis import RedisOverrideStore
from app.config._override_sqlite import SqliteOverrideStore
from app.config.overrides import SQLITE_FILE, OverrideStore
from app.config.overrides_admin import MASKED, ParamAdmin, first_invalid
from app.config.overrides_sync import OverrideSync, apply_stored_overrides
from app.config.registry import ParamRegistry
from app.config.settings import Settings
from app.errors import ParamValidationError
from tests.admin.override_store_contract import wait_until

REDIS_URL = "redis://127.0.0.1:6379/15"
SECRET = "sk-marker-3f9a1c77"


def make_registry(environ: dict[str, str] | None = None) -> ParamRegistry:
    registry = ParamRegistry(env_file=None)
    registry.declare("FLOOR", float, 0.5, group="g", minimum=0.0, maximum=1.0, description="f")
    registry.declare("CAP", int, 50, group="g", minimum=1, maximum=500, description="c")
    registry.declare("MODE", str, "rrf", group="g", choices=("rrf", "weighted"), description="m")
    registry.declare("FLAG", bool, True, group="g", description="b")
    registry.declare("KEY", str, "", group="g", secret=True, description="k")
    registry.load_env(environ or {})
    return registry


@pytest.fixture
def store(tmp_path: Path) -> OverrideStore:
    return SqliteOverrideStore(tmp_path / "params.sqlite3")


@pytest.fixture
def registry() -> ParamRegistry:
    return make_registry()


@pytest.fixture
def admin(store: OverrideStore, registry: ParamRegistry) -> ParamAdmin:
    return ParamAdmin(store, registry)


def test_an_update_applies_here_at_once_and_is_audited(
    admin: ParamAdmin, registry: ParamRegistry
) -> None:
    change = admin.update({"FLOOR": "0.7", "CAP": 10}, actor="alice")
    assert change.version == registry.version == 1
    assert (registry.value("FLOOR"), registry.value("CAP")) == (0.7, 10)
    assert registry.source("FLOOR") == "override"
    assert registry.source("MODE") == "default"
    audit = {(e.key, e.actor, e.action, e.old, e.new, e.version) for e in admin.audit()}
    assert audit == {("FLOOR", "alice", "set", 0.5, 0.7, 1), ("CAP", "alice", "set", 50, 10, 1)}


def test_an_invalid_batch_changes_nothing(admin: ParamAdmin, registry: ParamRegistry) -> None:
    admin.update({"CAP": 20}, actor="alice")
    bad = {"FLOOR": 0.9, "CAP": 501, "MODE": "weighted"}
    rejected = first_invalid(bad, registry)
    assert rejected is not None
    assert rejected.key == "CAP"
    assert "maximum" in rejected.message
    with pytest.raises(ParamValidationError, match="CAP"):
        admin.update(bad, actor="alice")
    with pytest.raises(ParamValidationError, match="unknown parameter 'NOPE'"):
        admin.update({"FLOOR": 0.9, "NOPE": 1}, actor="alice")
    assert admin.store.version() == registry.version == 1
    assert (registry.value("FLOOR"), registry.value("CAP"), registry.value("MODE")) == (
        0.5,
        20,
        "rrf",
    )
    assert len(admin.audit()) == 1


def test_setting_the_same_value_again_changes_nothing(admin: ParamAdmin) -> None:
    admin.update({"CAP": 20}, actor="a")
    change = admin.update({"CAP": "20"}, actor="a")
    assert (change.version, change.entries) == (1, [])


def test_a_blank_or_masked_secret_is_left_unchanged_and_secrets_are_masked(
    admin: ParamAdmin, registry: ParamRegistry, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    admin.update({"KEY": SECRET}, actor="alice")
    assert registry.value("KEY") == SECRET
    admin.update({"KEY": "", "CAP": 7}, actor="alice")
    admin.update({"KEY": MASKED}, actor="alice")
    assert registry.value("KEY") == SECRET
    shown = {p["name"]: p for p in admin.params()}
    assert shown["KEY"]["value"] == MASKED
    assert shown["KEY"]["source"] == "override"
    assert shown["KEY"]["secret"] is True
    key_entries = [e for e in admin.audit() if e.key == "KEY"]
    assert [(e.old, e.new) for e in key_entries] == [("", MASKED)]
    rejected = first_invalid({"KEY": [SECRET]}, registry)
    assert rejected is not None
    assert SECRET not in rejected.message
    admin.reset(["KEY"], actor="alice")
    everything = repr(admin.params()) + repr(admin.audit()) + caplog.text
    assert SECRET not in everything


def test_reset_one_key_then_all(admin: ParamAdmin, registry: ParamRegistry) -> None:
    admin.update({"FLOOR": 0.6, "CAP": 5, "FLAG": False}, actor="alice")
    change = admin.reset(["CAP", "MODE"], actor="bob")
    assert [(e.key, e.action, e.old, e.new, e.actor) for e in change.entries] == [
        ("CAP", "reset", 5, 50, "bob")
    ]
    assert registry.value("CAP") == 50
    assert registry.source("CAP") == "default"
    assert registry.value("FLOOR") == 0.6
    change = admin.reset(None, actor="bob")
    assert sorted(e.key for e in change.entries) == ["FLAG", "FLOOR"]
    assert registry.overrides() == {}
    assert (registry.value("FLOOR"), registry.value("FLAG")) == (0.5, True)
    with pytest.raises(ParamValidationError, match="unknown parameter"):
        admin.reset(["NOPE"], actor="bob")
    assert admin.reset(None, actor="bob").entries == []


def test_the_environment_is_the_base_an_override_replaces_and_a_reset_restores(
    store: OverrideStore,
) -> None:
    registry = make_registry({"FLOOR": "0.4"})
    admin = ParamAdmin(store, registry)
    assert registry.source("FLOOR") == "env"
    (entry,) = admin.update({"FLOOR": 0.8}, actor="a").entries
    assert (entry.old, entry.new) == (0.4, 0.8)
    (entry,) = admin.reset(["FLOOR"], actor="a").entries
    assert (entry.old, entry.new) == (0.8, 0.4)
    assert (registry.value("FLOOR"), registry.source("FLOOR")) == (0.4, "env")


def test_stored_values_this_release_cannot_use_are_skipped(
    store: OverrideStore, registry: ParamRegistry
) -> None:
    other_release = make_registry()
    other_release.declare("NEW_ONE", int, 1, group="g", description="n")
    ParamAdmin(store, other_release).update({"NEW_ONE": 2, "CAP": 9}, actor="a")
    sync = OverrideSync(store, registry)
    assert sync.refresh()
    assert registry.overrides() == {"CAP": 9}
    assert registry.version == 1


def test_an_unreachable_store_keeps_the_layer_in_force(registry: ParamRegistry) -> None:
    sync = OverrideSync(RedisOverrideStore.from_url("redis://127.0.0.1:1/0"), registry)
    registry.apply_overrides({"CAP": 3}, version=4)
    assert sync.refresh() is False
    assert sync.failures == 1
    assert (registry.value("CAP"), registry.version) == (3, 4)


@pytest.fixture
def redis_store() -> Iterator[Callable[[], OverrideStore]]:
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


def test_another_worker_follows_a_change_through_its_listener(
    redis_store: Callable[[], OverrideStore],
) -> None:
    here, there = make_registry(), make_registry()
    follower = OverrideSync(redis_store(), there)
    follower.start()
    try:
        ParamAdmin(redis_store(), here).update({"FLOOR": 0.9}, actor="a")
        assert wait_until(lambda: there.value("FLOOR") == 0.9)
        assert there.version == 1
        ParamAdmin(redis_store(), here).reset(None, actor="a")
        assert wait_until(lambda: there.value("FLOOR") == 0.5)
    finally:
        follower.stop()


async def test_without_a_listener_the_request_check_catches_up(
    redis_store: Callable[[], OverrideStore],
) -> None:
    here, there = make_registry(), make_registry()
    follower = OverrideSync(redis_store(), there)
    ParamAdmin(redis_store(), here).update({"MODE": "weighted"}, actor="a")
    assert follower.due()
    await follower.refresh_if_due()
    assert there.value("MODE") == "weighted"
    assert follower.reloads == 1


def test_overrides_applied_before_any_read_load_the_environment_first() -> None:
    registry = ParamRegistry(env_file=None)
    registry.declare("CAP", int, 50, group="g", minimum=1, maximum=500, description="c")
    registry.apply_overrides({"CAP": 7}, version=1)
    assert (registry.value("CAP"), registry.source("CAP")) == (7, "override")


def test_a_cli_process_applies_the_stored_overrides_once(tmp_path: Path) -> None:
    settings = Settings(var_dir=tmp_path, redis_url=None)
    fresh = make_registry()
    assert not apply_stored_overrides(settings, fresh)
    assert not (tmp_path / SQLITE_FILE).exists()
    writer = make_registry()
    ParamAdmin(SqliteOverrideStore(tmp_path / SQLITE_FILE), writer).update({"CAP": 7}, actor="ops")
    assert apply_stored_overrides(settings, fresh)
    assert (fresh.value("CAP"), fresh.source("CAP")) == (7, "override")
    assert not apply_stored_overrides(settings, fresh)
