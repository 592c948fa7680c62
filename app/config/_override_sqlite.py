"""The override store in a local SQLite file, for deployments without Redis: values, version
and audit log change in one IMMEDIATE transaction; workers on the same machine notice a
change by polling the version."""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from app.config.overrides import (
    AuditEntry,
    Mutation,
    StoredOverrides,
    decode_value,
    encode_value,
    stamp,
)
from app.config.params.admin import PARAMS_POLL_INTERVAL_MS
from app.errors import ConfigError

log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS overrides (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS audit (id INTEGER PRIMARY KEY AUTOINCREMENT, entry TEXT NOT NULL);
"""
_BUSY_TIMEOUT_S = 10.0
_OPEN_RETRY_S = 0.05


class SqliteOverrideStore:
    """Overrides in the SQLite file at `path`; one short connection per call, so any thread
    (and any process on this machine) may use it."""

    name = "sqlite"

    def __init__(self, path: Path, *, busy_timeout_s: float = _BUSY_TIMEOUT_S) -> None:
        self.path = path
        self.busy_timeout_s = busy_timeout_s
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._prepare()
        except (OSError, sqlite3.Error) as exc:
            raise ConfigError(f"cannot open the parameter store {path}: {exc}") from exc

    def _prepare(self) -> None:
        """Switch the file to WAL and create the tables. SQLite answers "locked" at once,
        without waiting, when another connection is writing, so the switch is retried."""
        deadline = time.monotonic() + self.busy_timeout_s
        while True:
            try:
                with self._connect() as db:
                    db.execute("PRAGMA journal_mode=WAL")
                    db.executescript(_SCHEMA)
                return
            except sqlite3.OperationalError as exc:
                if not _is_busy(exc) or time.monotonic() >= deadline:
                    raise
                time.sleep(_OPEN_RETRY_S)

    def load(self) -> StoredOverrides:
        with self._connect() as db:
            db.execute("BEGIN")
            rows = db.execute("SELECT name, value FROM overrides").fetchall()
            version = _version(db)
            db.execute("COMMIT")
        return StoredOverrides({name: decode_value(raw) for name, raw in rows}, version)

    def version(self) -> int:
        with self._connect() as db:
            return _version(db)

    def transact(
        self, mutate: Mutation, *, audit_max: int
    ) -> tuple[StoredOverrides, list[AuditEntry]]:
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                rows = db.execute("SELECT name, value FROM overrides").fetchall()
                current = {name: decode_value(raw) for name, raw in rows}
                version = _version(db)
                values, entries = mutate(current)
                if not entries:
                    db.execute("ROLLBACK")
                    return StoredOverrides(current, version), []
                entries = stamp(entries, version + 1)
                _write(db, values, entries, audit_max)
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        return StoredOverrides(values, version + 1), entries

    def audit(self, limit: int) -> list[AuditEntry]:
        with self._connect() as db:
            rows = db.execute(
                "SELECT entry FROM audit ORDER BY id DESC LIMIT ?", (max(0, limit),)
            ).fetchall()
        return [AuditEntry.decode(row[0]) for row in rows]

    def listen(self, on_change: Callable[[], object], stop: threading.Event) -> None:
        """No change channel: check once per poll interval."""
        while not stop.wait(PARAMS_POLL_INTERVAL_MS.get() / 1000):
            on_change()

    def close(self) -> None:
        """Nothing is held open between calls."""

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        with closing(
            sqlite3.connect(self.path, timeout=self.busy_timeout_s, isolation_level=None)
        ) as db:
            yield db


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    return exc.sqlite_errorcode & 0xFF == sqlite3.SQLITE_BUSY


def _version(db: sqlite3.Connection) -> int:
    row = db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
    return int(row[0]) if row else 0


def _write(
    db: sqlite3.Connection, values: dict[str, object], entries: list[AuditEntry], keep: int
) -> None:
    db.execute("DELETE FROM overrides")
    db.executemany(
        "INSERT INTO overrides (name, value) VALUES (?, ?)",
        [(name, encode_value(value)) for name, value in values.items()],
    )
    db.execute(
        "INSERT INTO meta (key, value) VALUES ('version', 1) "
        "ON CONFLICT(key) DO UPDATE SET value = value + 1"
    )
    db.executemany("INSERT INTO audit (entry) VALUES (?)", [(e.encode(),) for e in entries])
    db.execute("DELETE FROM audit WHERE id <= (SELECT MAX(id) FROM audit) - ?", (max(1, keep),))
