"""The contract every `OverrideStore` keeps, inherited by one test class per backend: each
provides `make_store`, a factory of fresh stores over one shared, empty backing store (two
calls are two workers)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from app.config.overrides import AuditEntry, OverrideStore

StoreFactory = Callable[[], OverrideStore]


def setting(actor: str, **values: Any) -> Callable[[Mapping[str, Any]], Any]:
    """A mutation that sets `values` and records one entry per key."""

    def mutate(current: Mapping[str, Any]) -> tuple[dict[str, Any], list[AuditEntry]]:
        entries = [AuditEntry(actor, k, "set", current.get(k), v) for k, v in values.items()]
        return {**current, **values}, entries

    return mutate


def wait_until(check: Callable[[], bool], *, within_s: float = 10.0) -> bool:
    """Poll `check` until it holds or the deadline passes (a deadline, not a timing claim)."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return check()


class OverrideStoreContract:
    """Behaviour shared by the Redis and SQLite override stores."""

    @pytest.fixture
    def make_store(self) -> StoreFactory:
        raise NotImplementedError

    def test_a_new_store_is_empty_at_version_0(self, make_store: StoreFactory) -> None:
        store = make_store()
        state = store.load()
        assert dict(state.values) == {}
        assert state.version == 0
        assert store.version() == 0
        assert store.audit(10) == []

    def test_a_change_writes_values_version_and_stamped_audit(
        self, make_store: StoreFactory
    ) -> None:
        store, other = make_store(), make_store()
        before = time.time()
        state, entries = store.transact(setting("alice", A=1, B="x"), audit_max=100)
        assert state.version == 1
        assert dict(state.values) == {"A": 1, "B": "x"}
        loaded = other.load()
        assert (dict(loaded.values), loaded.version) == ({"A": 1, "B": "x"}, 1)
        assert other.version() == 1
        audit = other.audit(10)
        assert {(e.key, e.actor, e.action, e.new, e.version) for e in audit} == {
            ("A", "alice", "set", 1, 1),
            ("B", "alice", "set", "x", 1),
        }
        assert all(e.at >= before - 1 for e in audit)
        assert sorted(audit, key=lambda e: e.key) == sorted(entries, key=lambda e: e.key)

    def test_values_keep_their_types(self, make_store: StoreFactory) -> None:
        store = make_store()
        values = {"I": 3, "F": 0.25, "W": 2.0, "T": True, "S": 'grüße, "quoted"'}
        store.transact(setting("a", **values), audit_max=100)
        loaded = dict(make_store().load().values)
        assert loaded == values
        assert {k: type(v) for k, v in loaded.items()} == {k: type(v) for k, v in values.items()}

    def test_a_change_without_entries_writes_nothing(self, make_store: StoreFactory) -> None:
        store = make_store()
        store.transact(setting("a", A=1), audit_max=100)

        def nothing(current: Mapping[str, Any]) -> tuple[dict[str, Any], list[AuditEntry]]:
            return {"IGNORED": 1}, []

        state, entries = store.transact(nothing, audit_max=100)
        assert entries == []
        assert (dict(state.values), state.version) == ({"A": 1}, 1)
        assert dict(store.load().values) == {"A": 1}
        assert len(store.audit(10)) == 1

    def test_a_change_replaces_the_whole_layer(self, make_store: StoreFactory) -> None:
        store = make_store()
        store.transact(setting("a", A=1, B=2), audit_max=100)

        def drop_a(current: Mapping[str, Any]) -> tuple[dict[str, Any], list[AuditEntry]]:
            rest = {k: v for k, v in current.items() if k != "A"}
            return rest, [AuditEntry("a", "A", "reset", current["A"], None)]

        state, _ = store.transact(drop_a, audit_max=100)
        assert (dict(make_store().load().values), state.version) == ({"B": 2}, 2)

    def test_audit_is_newest_first_limited_and_capped(self, make_store: StoreFactory) -> None:
        store = make_store()
        for n in range(5):
            store.transact(setting("a", A=n), audit_max=3)
        audit = store.audit(10)
        assert [e.new for e in audit] == [4, 3, 2]
        assert [e.version for e in audit] == [5, 4, 3]
        assert [e.new for e in store.audit(2)] == [4, 3]

    def test_concurrent_writers_lose_no_update(self, make_store: StoreFactory) -> None:
        def count(current: Mapping[str, Any]) -> tuple[dict[str, Any], list[AuditEntry]]:
            n = int(current.get("N", 0)) + 1
            return {**current, "N": n}, [AuditEntry("w", "N", "set", n - 1, n)]

        def worker() -> None:
            store = make_store()
            for _ in range(15):
                store.transact(count, audit_max=1000)

        threads = [threading.Thread(target=worker) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        state = make_store().load()
        assert (dict(state.values), state.version) == ({"N": 45}, 45)
        assert sorted(e.new for e in make_store().audit(100)) == list(range(1, 46))

    def test_a_listener_hears_of_another_workers_change(self, make_store: StoreFactory) -> None:
        listener, writer = make_store(), make_store()
        seen: list[int] = []
        stop = threading.Event()
        thread = threading.Thread(
            target=listener.listen, args=(lambda: seen.append(listener.version()), stop)
        )
        thread.start()
        try:
            writer.transact(setting("a", A=1), audit_max=100)
            assert wait_until(lambda: 1 in seen)
        finally:
            stop.set()
            thread.join(timeout=10)
        assert not thread.is_alive()
