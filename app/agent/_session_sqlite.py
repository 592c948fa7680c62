"""The embedded `SessionStore`: sessions as JSON rows of a SQLite file under var/ (WAL), so a
deployment without Redis keeps them across processes and restarts. Expiry is a wall-clock
column (shared by processes); expired rows are purged now and then, and past
`SESSION_SQLITE_MAX` the least recently saved go first."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pydantic import ValidationError

from app.agent.session import Session, check_session_id
from app.config.params.agent import SESSION_SQLITE_MAX, SESSION_TTL_S
from app.errors import DependencyDown

__all__ = ["NAME", "SqliteSessionStore"]

NAME = "sqlite_sessions"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY, expires REAL NOT NULL, saved REAL NOT NULL, data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_expires ON sessions (expires);
CREATE INDEX IF NOT EXISTS sessions_saved ON sessions (saved);
"""
_BUSY_TIMEOUT_S = 5.0
_PURGE_EVERY = 64
T = TypeVar("T")

log = logging.getLogger(__name__)


class SqliteSessionStore:
    """Sessions in the SQLite file at `path`, created on first use; one connection, used by
    one thread at a time, off the event loop. A failing file is `DependencyDown`."""

    name = "sqlite"
    remote = False

    def __init__(self, path: Path, clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self._clock = clock
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._saves = 0

    async def get(self, session_id: str) -> Session | None:
        check_session_id(session_id)
        row = await self._run(
            lambda db: db.execute(
                "SELECT data FROM sessions WHERE id = ? AND expires > ?",
                (session_id, self._clock()),
            ).fetchone()
        )
        if row is None:
            return None
        try:
            return Session.model_validate_json(row[0])
        except ValidationError as exc:
            log.warning("dropping unreadable session %s: %s", session_id, exc.errors()[:1])
            return None

    async def save(self, session: Session) -> None:
        session_id = check_session_id(session.session_id)
        data, now = session.model_dump_json(), self._clock()
        expires = now + SESSION_TTL_S.get()
        self._saves += 1
        purge = self._saves % _PURGE_EVERY == 1

        def write(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO sessions (id, expires, saved, data) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET expires = excluded.expires, "
                "saved = excluded.saved, data = excluded.data",
                (session_id, expires, now, data),
            )
            if purge:
                _purge(db, now, SESSION_SQLITE_MAX.get())

        await self._run(write)

    async def delete(self, session_id: str) -> bool:
        check_session_id(session_id)
        sql = "DELETE FROM sessions WHERE id = ? AND expires > ?"
        deleted = await self._run(lambda db: db.execute(sql, (session_id, self._clock())).rowcount)
        return bool(deleted)

    async def ttl(self, session_id: str) -> float | None:
        check_session_id(session_id)
        row = await self._run(
            lambda db: db.execute(
                "SELECT expires FROM sessions WHERE id = ?", (session_id,)
            ).fetchone()
        )
        left = None if row is None else float(row[0]) - self._clock()
        return left if left is not None and left > 0 else None

    async def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    async def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        return await asyncio.to_thread(self._locked, work)

    def _locked(self, work: Callable[[sqlite3.Connection], T]) -> T:
        with self._lock:
            try:
                db = self._db or self._open()
                with db:
                    return work(db)
            except (sqlite3.Error, OSError) as exc:
                log.warning("session store %s failed: %s", self.path, exc)
                raise DependencyDown(NAME, "the session file cannot be used") from exc

    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=_BUSY_TIMEOUT_S, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            with db:
                db.executescript(_SCHEMA)
        except BaseException:
            db.close()
            raise
        self._db = db
        return db


def _purge(db: sqlite3.Connection, now: float, keep: int) -> None:
    """Drop expired sessions, then the least recently saved past `keep`."""
    db.execute("DELETE FROM sessions WHERE expires <= ?", (now,))
    db.execute(
        "DELETE FROM sessions WHERE id IN "
        "(SELECT id FROM sessions ORDER BY saved DESC LIMIT -1 OFFSET ?)",
        (keep,),
    )
