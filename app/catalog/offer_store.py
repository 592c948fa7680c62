"""The imported catalog: every shop's offers in one SQLite file under the var dir.

An import runs in one IMMEDIATE transaction, so a crash leaves the catalog as it was before
the import (SQLite's journal); a row that re-states a stored offer unchanged writes nothing,
which makes re-importing a file a no-op. `index build` reads the offers back in id order.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from app.catalog.offer_changes import CHANGES_SCHEMA, ChangeFeed, LiveSession
from app.catalog.schema import Offer
from app.errors import ConfigError

__all__ = ["CATALOG_FILE", "ImportSession", "OfferStore", "PutResult", "catalog_path"]

CATALOG_FILE = "catalog.sqlite"
PutResult = Literal["imported", "updated", "unchanged"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS offers (
    shop TEXT NOT NULL, id TEXT NOT NULL, digest TEXT NOT NULL, doc TEXT NOT NULL,
    PRIMARY KEY (shop, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
INSERT OR IGNORE INTO meta VALUES ('version', 0);
"""
_BUSY_TIMEOUT_S = 30.0


def catalog_path(var_dir: Path) -> Path:
    """Where the imported catalog of a var dir lives."""
    return var_dir / "catalog" / CATALOG_FILE


@dataclass(frozen=True)
class Duplicate:
    """An id this import already stated at an earlier row."""

    file: str
    row: int


class ImportSession:
    """Writes of one import: each `put` is new, changed or unchanged; a second row with an id
    this import already stated is a `Duplicate` (the first row wins)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self.changed = 0

    def put(self, offer: Offer, file: str, row: int) -> PutResult | Duplicate:
        """Store `offer` unless this import already stated its id."""
        seen = self._db.execute(
            "INSERT OR IGNORE INTO temp.seen VALUES (?, ?, ?, ?)", (offer.shop, offer.id, file, row)
        )
        if seen.rowcount == 0:
            first = self._db.execute(
                "SELECT file, row FROM temp.seen WHERE shop = ? AND id = ?", (offer.shop, offer.id)
            ).fetchone()
            return Duplicate(first[0], first[1])
        doc = offer.model_dump_json(exclude_defaults=True)
        digest = hashlib.blake2b(doc.encode(), digest_size=16).hexdigest()
        old = self._db.execute(
            "SELECT digest FROM offers WHERE shop = ? AND id = ?", (offer.shop, offer.id)
        ).fetchone()
        if old is not None and old[0] == digest:
            return "unchanged"
        self._db.execute(
            "INSERT OR REPLACE INTO offers VALUES (?, ?, ?, ?)", (offer.shop, offer.id, digest, doc)
        )
        self.changed += 1
        return "imported" if old is None else "updated"


class OfferStore:
    """The offers of every imported shop, in the SQLite file at `path`."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def of(cls, var_dir: Path) -> OfferStore:
        return cls(catalog_path(var_dir))

    def exists(self) -> bool:
        """True when an import stored at least one offer here."""
        if not self.path.is_file():
            return False
        with self._connect() as db:
            return db.execute("SELECT 1 FROM offers LIMIT 1").fetchone() is not None

    @contextmanager
    def importing(self) -> Iterator[ImportSession]:
        """One import: everything it puts commits together when the block ends, or not at all."""
        with self._connect() as db:
            db.execute("CREATE TEMP TABLE seen (shop, id, file, row, PRIMARY KEY (shop, id))")
            db.execute("BEGIN IMMEDIATE")
            session = ImportSession(db)
            try:
                yield session
            except BaseException:
                db.execute("ROLLBACK")
                raise
            if session.changed:
                db.execute("UPDATE meta SET value = value + 1 WHERE key = 'version'")
            db.execute("COMMIT")

    @contextmanager
    def live_update(self, actor: str) -> Iterator[LiveSession]:
        """One live change (see `offer_changes`): offers and journal commit together."""
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            session = LiveSession(db, actor)
            try:
                yield session
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def digests(self, keys: list[tuple[str, str]]) -> dict[tuple[str, str], str]:
        """The stored digest of each (shop, id) that has an offer."""
        found: dict[tuple[str, str], str] = {}
        with self._connect() as db:
            for shop, offer_id in keys:
                row = db.execute(
                    "SELECT digest FROM offers WHERE shop = ? AND id = ?", (shop, offer_id)
                ).fetchone()
                if row is not None:
                    found[(shop, offer_id)] = str(row[0])
        return found

    def feed(self) -> ChangeFeed:
        """A reader of the live-change journal (close it when done)."""
        with self._connect():
            pass
        return ChangeFeed(self.path)

    def offers(self, shops: tuple[str, ...] = ()) -> Iterator[Offer]:
        """Every stored offer in (shop, id) order, streamed; only `shops` when given."""
        with self._connect() as db:
            where = f" WHERE shop IN ({','.join('?' * len(shops))})" if shops else ""
            rows = db.execute(f"SELECT doc FROM offers{where} ORDER BY shop, id", shops)
            for (doc,) in rows:
                yield Offer.model_validate_json(doc)

    def shop_counts(self) -> dict[str, int]:
        """Offers per shop, by shop name."""
        with self._connect() as db:
            rows = db.execute("SELECT shop, COUNT(*) FROM offers GROUP BY shop ORDER BY shop")
            return {str(shop): int(count) for shop, count in rows.fetchall()}

    def content_digest(self) -> str:
        """A hash of every stored offer: equal catalogs, equal digests (the index version)."""
        digest = hashlib.sha256()
        with self._connect() as db:
            for shop, offer_id, doc_digest in db.execute(
                "SELECT shop, id, digest FROM offers ORDER BY shop, id"
            ):
                digest.update(f"{shop}\0{offer_id}\0{doc_digest}\n".encode())
        return digest.hexdigest()

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, timeout=_BUSY_TIMEOUT_S, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise ConfigError(f"cannot open the catalog store {self.path}: {exc}") from exc
        with closing(db):
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(_SCHEMA + CHANGES_SCHEMA)
            yield db
