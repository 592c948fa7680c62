"""`LiveCatalog`: keeps one process's opened index in step with the catalog journal.

The journal (`app.catalog.offer_changes`) is the one record of live changes, shared by every
process through the catalog's SQLite file. Each process replays the entries past what it
holds into its item table, its in-process lexical overlay (bm25s) and its `LiveVectorStore`,
checking for news at most every LIVE_CHECK_INTERVAL_MS; the sequence number it holds is its
catalog generation, part of every search-cache key, so no cache level answers from an older
catalog. Remote backends (a Qdrant server, OpenSearch) are written once per entry by
`LivePush`, which any process may run; a target that is down is pushed to when it is back.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable

from app.catalog.item import Item
from app.catalog.offer_changes import Change, ChangeFeed
from app.config.params.catalog import LIVE_CHECK_INTERVAL_MS
from app.recall.bm25 import bm25_text
from app.recall.index_manifest import IndexManifest
from app.recall.lexical_store import LexicalChange, LexicalStore
from app.recall.live_push import LivePush
from app.recall.live_store import LiveVectorStore

__all__ = ["LiveCatalog"]

log = logging.getLogger(__name__)


class LiveCatalog:
    """Replays journal entries after `manifest.live_seq` into the index parts it is given."""

    def __init__(
        self,
        feed: ChangeFeed,
        manifest: IndexManifest,
        items: dict[str, Item],
        bm25: LexicalStore,
        store: LiveVectorStore,
        push: LivePush | None = None,
    ) -> None:
        self.feed = feed
        self.manifest = manifest
        self.items = items
        self.bm25 = bm25
        self.store = store
        self.push = push
        """Writes entries to the remote backends (None when every backend is in-process)."""
        self.generation = manifest.live_seq
        """The newest journal entry this process has applied."""
        self._built: dict[str, Item | None] = {}
        self._lock = threading.Lock()
        self._checked_at = float("-inf")
        self._pushing: asyncio.Task[int] | None = None
        self._listeners: list[Callable[[Item], None]] = []

    def listen(self, learn: Callable[[Item], None]) -> None:
        """Call `learn` with each item new to the table from now on, so lookups built from
        the item table (shelves, spec sheets, the speller) take it in without a rebuild."""
        self._listeners.append(learn)

    def catch_up(self) -> int:
        """Apply every entry newer than the generation held to this process; how many."""
        self._checked_at = time.monotonic()
        if self.feed.last_seq() <= self.generation:
            return 0
        with self._lock:
            changes = self.feed.since(self.generation, self.manifest.dimension)
            lexical = [self._apply(change) for change in changes]
            if not self.bm25.remote:
                self.bm25.apply(lexical)  # the in-process overlay; remote ones are pushed
            if changes:
                self.generation = changes[-1].seq
        log.info("live catalog at generation %d (%d change(s))", self.generation, len(changes))
        return len(changes)

    async def refresh(self) -> int:
        """Catch up, then push what the remote backends lack before returning (what a
        writer's acknowledgement waits for; skipped right after a failed push); how many
        entries were applied here."""
        applied = self.catch_up()
        if self.push is not None and self.push.due():
            await self.push.push()
        return applied

    async def refresh_if_due(self) -> None:
        """The per-search check: one indexed read when LIVE_CHECK_INTERVAL_MS has passed; a
        push the remote backends need runs in the background, never in the search's way."""
        if time.monotonic() - self._checked_at < LIVE_CHECK_INTERVAL_MS.get() / 1000:
            return
        self.catch_up()
        idle = self._pushing is None or self._pushing.done()
        if self.push is not None and idle and self.push.due():
            self._pushing = asyncio.create_task(self.push.push())

    def close(self) -> None:
        if self._pushing is not None and not self._pushing.done():
            self._pushing.cancel()
        if self.push is not None:
            self.push.close()
        self.feed.close()

    def _apply(self, change: Change) -> LexicalChange:
        """Take one entry into the item table and the vectors; its lexical change, which
        `refresh` sends to the lexical store with the others in one call."""
        item_id = change.item_id
        if item_id not in self._built:
            self._built[item_id] = self.items.get(item_id)
        if change.offer is None or change.vector is None:
            if self.items.pop(item_id, None) is not None:
                self._count(change.shop, -1)
            self.store.drop(item_id)
            return LexicalChange.delete(item_id)
        item = Item.from_offer(change.offer)
        built = self._built[item_id]
        same_text = built is not None and bm25_text(built) == bm25_text(item)
        new = item_id not in self.items
        if new:
            self._count(item.platform, 1)
        self.items[item_id] = item
        if new:
            for learn in self._listeners:
                learn(item)
        self.store.put(item, change.vector)
        return LexicalChange.put(item, same_text=same_text)

    def _count(self, shop: str, delta: int) -> None:
        """Keep the manifest's shop counts (what shop filters are checked against) current."""
        platforms = self.manifest.platforms
        left = platforms.get(shop, 0) + delta
        if left > 0:
            platforms[shop] = left
        else:
            platforms.pop(shop, None)
