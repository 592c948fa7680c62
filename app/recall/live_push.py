"""Pushes acknowledged live catalog changes to remote backends (a Qdrant server, OpenSearch),
once each and in journal order: a `pushed` table in the catalog's SQLite file holds, per
target, the last entry it received, so a restart resumes where the last push stopped. While a
target is down its entries stay in the journal and are pushed when it is back."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from app.catalog.item import Item
from app.catalog.offer_changes import Change, ChangeFeed
from app.catalog.offer_store import OfferStore
from app.config.params.catalog import LIVE_MAX_ITEMS, LIVE_PUSH_TIMEOUT_S
from app.config.settings import Settings
from app.errors import PickwiseError
from app.recall.index_manifest import IndexManifest, current_paths
from app.recall.lexical_store import LexicalChange, LexicalStore, open_lexical_store
from app.recall.vector_store import VectorPoint, VectorStore, item_payload, open_vector_store

__all__ = [
    "LexicalTarget",
    "LivePush",
    "PushTarget",
    "VectorTarget",
    "push_configured",
    "remote_targets",
]

log = logging.getLogger(__name__)

PUSHED_SCHEMA = """
CREATE TABLE IF NOT EXISTS pushed (
    target TEXT PRIMARY KEY, seq INTEGER NOT NULL,
    owner TEXT NOT NULL DEFAULT '', until REAL NOT NULL DEFAULT 0
);
"""
_BUSY_TIMEOUT_S = 30.0


class PushTarget(Protocol):
    """One remote backend that live changes are pushed to."""

    @property
    def name(self) -> str:
        """Unique per backend and index version (the `pushed` table's key)."""
        ...

    async def send(self, changes: Sequence[Change]) -> None:
        """Write `changes` (oldest first); raise when the backend did not take them."""
        ...


@dataclass
class VectorTarget:
    """A vector store's collection: upserts and deletes of the changes' last states."""

    store: VectorStore
    collection: str

    @property
    def name(self) -> str:
        return f"vector:{self.store.name}:{self.collection}"

    async def send(self, changes: Sequence[Change]) -> None:
        """Each item's last state in this batch: the latest wins, so order is kept."""
        last = {c.item_id: c for c in changes}
        points = [
            VectorPoint(c.item_id, c.vector.tolist(), item_payload(Item.from_offer(c.offer)))
            for c in last.values()
            if c.offer is not None and c.vector is not None
        ]
        gone = [i for i, c in last.items() if c.offer is None or c.vector is None]
        if points:
            await self.store.upsert(self.collection, points)
        if gone:
            await self.store.delete(self.collection, gone)


@dataclass
class LexicalTarget:
    """A lexical store's index: one `apply` of the changes, in order."""

    store: LexicalStore
    index: str

    @property
    def name(self) -> str:
        return f"lexical:{self.store.name}:{self.index}"

    async def send(self, changes: Sequence[Change]) -> None:
        lexical = [
            LexicalChange.put(Item.from_offer(c.offer))
            if c.offer is not None
            else LexicalChange.delete(c.item_id)
            for c in changes
        ]
        await asyncio.to_thread(self.store.apply, lexical)


class LivePush:
    """Pushes journal entries past each target's mark; one process pushes a target at a time
    (a lease in the `pushed` row), so entries never arrive out of order."""

    def __init__(
        self, feed: ChangeFeed, targets: Sequence[PushTarget], *, dimension: int, since: int
    ) -> None:
        self.feed = feed
        self.targets = list(targets)
        self._dimension = dimension
        self._since = since
        self._owner = uuid.uuid4().hex
        self._done = since
        self._failed_at = float("-inf")
        self._lock = asyncio.Lock()
        self._db: sqlite3.Connection | None = None

    def due(self) -> bool:
        """Whether entries may wait (cheap: one indexed read) and no failure is recent."""
        if not self.targets:
            return False
        if time.monotonic() - self._failed_at < LIVE_PUSH_TIMEOUT_S.get():
            return False
        return self.feed.last_seq() > self._done

    async def push(self) -> int:
        """Push every waiting entry to every target; how many entries were sent. A target
        that fails or times out keeps its mark (logged; tried again later)."""
        sent = 0
        async with self._lock:
            newest = self.feed.last_seq()
            behind = False
            for target in self.targets:
                try:
                    sent += await self._push_one(target)
                except (PickwiseError, TimeoutError, OSError) as exc:
                    self._failed_at = time.monotonic()
                    behind = True
                    log.warning(
                        "live push to %s failed (%s); kept in the journal", target.name, exc
                    )
                if self.mark(target) < newest:
                    behind = True
            if not behind:
                self._done = newest
        return sent

    def mark(self, target: PushTarget) -> int:
        """The last journal entry `target` received."""
        row = self._conn().execute("SELECT seq FROM pushed WHERE target = ?", (target.name,))
        found = row.fetchone()
        return max(self._since, int(found[0])) if found else self._since

    def backlog(self) -> dict[str, int]:
        """Entries each target has yet to receive."""
        newest = self.feed.last_seq()
        return {t.name: max(0, newest - self.mark(t)) for t in self.targets}

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    async def _push_one(self, target: PushTarget) -> int:
        if not self._claim(target):
            return 0  # another process is pushing this target now
        sent = 0
        try:
            while True:
                mark = self.mark(target)
                changes = self.feed.since(mark, self._dimension)[: LIVE_MAX_ITEMS.get()]
                if not changes:
                    return sent
                await asyncio.wait_for(target.send(changes), LIVE_PUSH_TIMEOUT_S.get())
                self._advance(target, changes[-1].seq)
                sent += len(changes)
        finally:
            self._release(target)

    def _claim(self, target: PushTarget) -> bool:
        """Take the target's lease unless another process holds a live one."""
        now = time.time()
        db = self._conn()
        db.execute(
            "INSERT OR IGNORE INTO pushed (target, seq) VALUES (?, ?)", (target.name, self._since)
        )
        claimed = db.execute(
            "UPDATE pushed SET owner = ?, until = ? WHERE target = ? AND (until < ? OR owner = ?)",
            (self._owner, now + 2 * LIVE_PUSH_TIMEOUT_S.get(), target.name, now, self._owner),
        )
        return claimed.rowcount == 1

    def _advance(self, target: PushTarget, seq: int) -> None:
        """Record what the target took and renew the lease for the next batch."""
        until = time.time() + 2 * LIVE_PUSH_TIMEOUT_S.get()
        self._conn().execute(
            "UPDATE pushed SET seq = MAX(seq, ?), until = ? WHERE target = ? AND owner = ?",
            (seq, until, target.name, self._owner),
        )

    def _release(self, target: PushTarget) -> None:
        self._conn().execute(
            "UPDATE pushed SET until = 0 WHERE target = ? AND owner = ?",
            (target.name, self._owner),
        )

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            path: Path = self.feed.path
            db = sqlite3.connect(
                path, timeout=_BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
            )
            db.executescript(PUSHED_SCHEMA)
            self._db = db
        return self._db


def remote_targets(
    store: VectorStore, bm25: LexicalStore, *, collection: str, index: str
) -> list[PushTarget]:
    """The push targets among an index's stores: the remote ones (in-process stores are
    overlaid in every process instead)."""
    targets: list[PushTarget] = []
    if store.remote:
        targets.append(VectorTarget(store, collection))
    if bm25.remote:
        targets.append(LexicalTarget(bm25, index))
    return targets


async def push_configured(settings: Settings, manifest: IndexManifest) -> dict[str, int]:
    """Push waiting entries to the configured remote backends (what `catalog upsert` and
    `catalog delete` do after the change is acknowledged); the backlog left per target."""
    if not (settings.qdrant_url or settings.opensearch_url):
        return {}
    key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
    paths = current_paths(settings.index_dir)
    store = open_vector_store(qdrant_url=settings.qdrant_url, edge_root=paths.vectors, api_key=key)
    index = settings.lexical_index(manifest.version)
    bm25 = open_lexical_store(
        opensearch_url=settings.opensearch_url, folder=paths.bm25, index=index
    )
    targets = remote_targets(store, bm25, collection=manifest.collection, index=index)
    push = LivePush(
        OfferStore.of(settings.var_dir).feed(),
        targets,
        dimension=manifest.dimension,
        since=manifest.live_seq,
    )
    try:
        await push.push()
        return push.backlog()
    finally:
        push.close()
        push.feed.close()
        bm25.close()
        await store.close()
