"""`LiveCatalog`: keeps one process's opened index in step with the catalog journal.

The journal (`app.catalog.offer_changes`) is the one record of live changes, shared by every
process through the catalog's SQLite file. Each process replays the entries past what it
holds into its item table, its lexical store (the bm25s overlay, or the OpenSearch index,
which every process writes: replays are idempotent) and its `LiveVectorStore`, checking for
news at most every LIVE_CHECK_INTERVAL_MS; the sequence number it holds is its catalog
generation, part of every search-cache key, so no cache level answers from an older catalog.
While OpenSearch is down the generation stays put and the same entries are replayed later.
"""

from __future__ import annotations

import logging
import threading
import time

from app.catalog.item import Item
from app.catalog.offer_changes import Change, ChangeFeed
from app.config.params.catalog import LIVE_CHECK_INTERVAL_MS
from app.errors import DependencyDown
from app.recall.bm25 import bm25_text
from app.recall.index_manifest import IndexManifest
from app.recall.lexical_store import LexicalChange, LexicalStore
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
    ) -> None:
        self.feed = feed
        self.manifest = manifest
        self.items = items
        self.bm25 = bm25
        self.store = store
        self.generation = manifest.live_seq
        """The newest journal entry this process has applied."""
        self._built: dict[str, Item | None] = {}
        self._lock = threading.Lock()
        self._checked_at = float("-inf")

    def refresh(self) -> int:
        """Apply every entry newer than the generation held; how many were applied."""
        self._checked_at = time.monotonic()
        if self.feed.last_seq() <= self.generation:
            return 0
        with self._lock:
            changes = self.feed.since(self.generation, self.manifest.dimension)
            lexical = [self._apply(change) for change in changes]
            try:
                self.bm25.apply(lexical)
            except DependencyDown as exc:
                # Replays are idempotent: the same entries are tried again at the next check.
                log.warning("live catalog: lexical store not updated (%s); will retry", exc)
                return 0
            if changes:
                self.generation = changes[-1].seq
        log.info("live catalog at generation %d (%d change(s))", self.generation, len(changes))
        return len(changes)

    async def refresh_if_due(self) -> None:
        """The per-search check: one indexed read when LIVE_CHECK_INTERVAL_MS has passed."""
        if time.monotonic() - self._checked_at >= LIVE_CHECK_INTERVAL_MS.get() / 1000:
            self.refresh()

    def close(self) -> None:
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
            self.store.delete(item_id)
            return LexicalChange.delete(item_id)
        item = Item.from_offer(change.offer)
        built = self._built[item_id]
        same_text = built is not None and bm25_text(built) == bm25_text(item)
        if item_id not in self.items:
            self._count(item.platform, 1)
        self.items[item_id] = item
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
