"""The live-change journal of the imported catalog: every live upsert or delete writes the
offer row and a numbered journal entry (with the new vector) in one SQLite transaction, so
an acknowledged change is durable and a killed writer leaves nothing half-done. Serving
processes replay entries past the sequence number their index already holds."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from app.catalog.schema import Offer
from app.errors import ConfigError

__all__ = ["CHANGES_SCHEMA", "Change", "ChangeFeed", "LiveSession", "offer_digest"]

CHANGES_SCHEMA = """
CREATE TABLE IF NOT EXISTS changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, shop TEXT NOT NULL, id TEXT NOT NULL,
    doc TEXT, vector BLOB, actor TEXT NOT NULL DEFAULT '', at REAL NOT NULL DEFAULT 0
);
"""
_BUSY_TIMEOUT_S = 30.0


def offer_digest(offer: Offer) -> tuple[str, str]:
    """The stored document of an offer and its digest (what the store compares)."""
    doc = offer.model_dump_json(exclude_defaults=True)
    return doc, hashlib.blake2b(doc.encode(), digest_size=16).hexdigest()


@dataclass(frozen=True)
class Change:
    """One journal entry: the offer as it now is (None when deleted) and its vector."""

    seq: int
    shop: str
    id: str
    offer: Offer | None
    vector: np.ndarray | None
    actor: str = ""
    at: float = 0.0

    @property
    def item_id(self) -> str:
        return f"{self.shop}:{self.id}"


class LiveSession:
    """Writes of one live change, inside the store's IMMEDIATE transaction."""

    def __init__(self, db: sqlite3.Connection, actor: str) -> None:
        self._db = db
        self._actor = actor
        self.last_seq = 0

    def generation(self) -> int:
        """The newest journal entry, this change's own included."""
        row = self._db.execute("SELECT MAX(seq) FROM changes").fetchone()
        return int(row[0] or 0)

    def digest(self, shop: str, offer_id: str) -> str | None:
        """The stored digest of an offer, None when the store has none."""
        row = self._db.execute(
            "SELECT digest FROM offers WHERE shop = ? AND id = ?", (shop, offer_id)
        ).fetchone()
        return None if row is None else str(row[0])

    def put(self, offer: Offer, vector: np.ndarray) -> None:
        """Store the offer and journal it with its (float32) vector."""
        doc, digest = offer_digest(offer)
        self._db.execute(
            "INSERT OR REPLACE INTO offers VALUES (?, ?, ?, ?)", (offer.shop, offer.id, digest, doc)
        )
        blob = np.asarray(vector, dtype=np.float32).tobytes()
        self._journal(offer.shop, offer.id, doc, blob)

    def delete(self, shop: str, offer_id: str) -> None:
        """Remove the offer (if stored) and journal its deletion."""
        self._db.execute("DELETE FROM offers WHERE shop = ? AND id = ?", (shop, offer_id))
        self._journal(shop, offer_id, None, None)

    def _journal(self, shop: str, offer_id: str, doc: str | None, blob: bytes | None) -> None:
        cursor = self._db.execute(
            "INSERT INTO changes (shop, id, doc, vector, actor, at) VALUES (?, ?, ?, ?, ?, ?)",
            (shop, offer_id, doc, blob, self._actor, time.time()),
        )
        self.last_seq = int(cursor.lastrowid or 0)


class ChangeFeed:
    """Reads the journal of one catalog file through one long-lived connection (WAL readers
    never block the writer); the check for news is one indexed read."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()

    def last_seq(self) -> int:
        """The newest journal entry's number (0 when none)."""
        with self._lock:
            row = self._conn().execute("SELECT MAX(seq) FROM changes").fetchone()
        return int(row[0] or 0)

    def since(self, seq: int, dimension: int) -> list[Change]:
        """Entries after `seq`, oldest first."""
        with self._lock:
            rows = self._conn().execute(
                "SELECT seq, shop, id, doc, vector, actor, at FROM changes WHERE seq > ? "
                "ORDER BY seq",
                (seq,),
            )
            fetched = rows.fetchall()
        return [_change(row, dimension) for row in fetched]

    def recent(self, limit: int) -> list[Change]:
        """The newest `limit` entries, newest first (the audit view; vectors left out)."""
        with self._lock:
            rows = self._conn().execute(
                "SELECT seq, shop, id, doc, NULL, actor, at FROM changes ORDER BY seq DESC LIMIT ?",
                (limit,),
            )
            fetched = rows.fetchall()
        return [_change(row, 0) for row in fetched]

    def close(self) -> None:
        with self._lock:
            db, self._db = self._db, None
        if db is not None:
            db.close()

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            try:
                db = sqlite3.connect(
                    self.path,
                    timeout=_BUSY_TIMEOUT_S,
                    isolation_level=None,
                    check_same_thread=False,
                )
                db.executescript(CHANGES_SCHEMA)
            except sqlite3.Error as exc:
                raise ConfigError(f"cannot read the catalog journal {self.path}: {exc}") from exc
            self._db = db
        return self._db


def _change(row: tuple[object, ...], dimension: int) -> Change:
    seq, shop, offer_id, doc, blob, actor, at = row
    offer = Offer.model_validate_json(str(doc)) if doc is not None else None
    vector = None
    if isinstance(blob, bytes) and dimension:
        vector = np.frombuffer(blob, dtype=np.float32).reshape(dimension)
    return Change(
        int(str(seq)), str(shop), str(offer_id), offer, vector, str(actor), float(str(at))
    )
