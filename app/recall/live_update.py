"""Live changes of an imported catalog without a rebuild: `catalog upsert`, `catalog delete`
and the admin API. Offers are compared with the stored ones first; only new or changed ones
are embedded (texts the last build embedded come from the embedding cache), and the offer
rows and their journal entries commit in one SQLite transaction, so a change is either
acknowledged and durable or did not happen. Serving processes pick it up from the journal
(`LiveCatalog`)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from app.catalog.item import Item
from app.catalog.offer_changes import offer_digest
from app.catalog.offer_store import OfferStore
from app.catalog.schema import Offer
from app.config.params.catalog import IMPORT_ERRORS_LISTED, LIVE_MAX_ITEMS
from app.config.params.index import INDEX_DESCRIPTION_CHARS
from app.config.settings import Settings
from app.errors import ConfigError, InvalidRequest
from app.recall.embedder import Embedder, build_embedder, normalise_rows
from app.recall.embedding_cache import EmbeddingCache
from app.recall.index_manifest import IndexManifest, current_paths, dense_recipe, dense_text
from app.recall.search_index import imported

__all__ = ["LiveReport", "LiveWriter"]

log = logging.getLogger(__name__)


@dataclass
class LiveReport:
    """What one live change did; `errors` lists rejected rows (file, row, reason)."""

    upserted: int = 0
    unchanged: int = 0
    deleted: int = 0
    rejected: int = 0
    embedded: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)
    generation: int = 0
    seconds: float = 0.0
    backlog: dict[str, int] | None = None
    """Entries each remote backend has yet to receive (None when none is configured)."""

    def reject(self, reason: str, *, file: str = "", row: int = 0, item_id: str = "") -> None:
        """Count a rejected row and list it (up to IMPORT_ERRORS_LISTED)."""
        self.rejected += 1
        if len(self.errors) < IMPORT_ERRORS_LISTED.get():
            where = {"file": file, "row": row} if file else {"row": row}
            self.errors.append(
                {**where, **({"item_id": item_id} if item_id else {}), "reason": reason}
            )

    def as_json(self) -> dict[str, Any]:
        return {
            "upserted": self.upserted,
            "unchanged": self.unchanged,
            "deleted": self.deleted,
            "rejected": self.rejected,
            "errors": self.errors,
            "embedded": self.embedded,
            "generation": self.generation,
            "seconds": round(self.seconds, 3),
            **({} if self.backlog is None else {"push_backlog": self.backlog}),
        }


class LiveWriter:
    """Applies live upserts and deletes to the imported catalog behind the index in use."""

    def __init__(
        self,
        store: OfferStore,
        manifest: IndexManifest,
        index_root: Path,
        embedder: Embedder | Callable[[], Embedder],
    ) -> None:
        if not imported(manifest):
            raise ConfigError(
                f"index {manifest.version} was built from the demo sources; live updates "
                "change an imported catalog (`pickwise catalog import`, then `index build`)"
            )
        chars = INDEX_DESCRIPTION_CHARS.get()
        if manifest.recipes[:1] != [dense_recipe(chars)]:
            raise ConfigError(
                f"index {manifest.version} embeds another dense text recipe than the one "
                "configured now; run `pickwise index build` before live updates"
            )
        self.store = store
        self.manifest = manifest
        self._cache = EmbeddingCache(index_root, manifest.model_id, manifest.dimension)
        self._embedder = embedder
        self._chars = chars

    @classmethod
    def open(cls, settings: Settings, embedder: Embedder | None = None) -> LiveWriter:
        """The writer for the index in use; the embedder is loaded only if something changed."""
        paths = current_paths(settings.index_dir)
        return cls(
            OfferStore.of(settings.var_dir),
            paths.read_manifest(),
            settings.index_dir,
            embedder or (lambda: build_embedder(settings)),
        )

    def upsert(
        self,
        rows: Iterable[tuple[Offer, str, int]],
        *,
        actor: str,
        report: LiveReport | None = None,
    ) -> LiveReport:
        """Store and journal every new or changed offer of `rows` (offer, file, row); an
        offer stored exactly so is `unchanged`, a repeated id in one change `rejected`."""
        started = time.perf_counter()
        report = report or LiveReport()
        fresh: dict[tuple[str, str], Offer] = {}
        for offer, file, row in rows:
            key = (offer.shop, offer.id)
            if key in fresh:
                report.reject(f"duplicate id {offer.id!r} in this change", file=file, row=row)
                continue
            fresh[key] = offer
            if len(fresh) > LIVE_MAX_ITEMS.get():
                raise InvalidRequest(
                    f"more than {LIVE_MAX_ITEMS.get()} offers in one live change; import the "
                    "file and build the index instead"
                )
        stored = self.store.digests(list(fresh))
        changed = [o for k, o in fresh.items() if stored.get(k) != offer_digest(o)[1]]
        report.unchanged += len(fresh) - len(changed)
        vectors = self._vectors(changed, report)
        with self.store.live_update(actor) as session:
            for offer, vector in zip(changed, vectors, strict=True):
                session.put(offer, vector)
            report.upserted += len(changed)
            report.generation = session.generation()
        report.seconds = time.perf_counter() - started
        log.info(
            "live upsert by %s: %d changed, %d unchanged, %d rejected (generation %d)",
            actor,
            report.upserted,
            report.unchanged,
            report.rejected,
            report.generation,
        )
        return report

    def delete(self, keys: Sequence[tuple[str, str]], *, actor: str) -> LiveReport:
        """Remove the offers (shop, id) from the catalog; an unknown one is `rejected`."""
        started = time.perf_counter()
        report = LiveReport()
        if len(keys) > LIVE_MAX_ITEMS.get():
            raise InvalidRequest(f"more than {LIVE_MAX_ITEMS.get()} ids in one live delete")
        with self.store.live_update(actor) as session:
            for row, (shop, offer_id) in enumerate(dict.fromkeys(keys), start=1):
                if session.digest(shop, offer_id) is None:
                    report.reject("no such item", row=row, item_id=f"{shop}:{offer_id}")
                    continue
                session.delete(shop, offer_id)
                report.deleted += 1
            report.generation = session.generation()
        report.seconds = time.perf_counter() - started
        log.info(
            "live delete by %s: %d deleted, %d unknown", actor, report.deleted, report.rejected
        )
        return report

    def _vectors(self, offers: list[Offer], report: LiveReport) -> np.ndarray:
        """Unit vectors of the offers' dense texts: cached ones reused, the rest embedded."""
        if not offers:
            return np.zeros((0, self.manifest.dimension), dtype=np.float32)
        texts = [dense_text(Item.from_offer(o), self._chars) for o in offers]
        found = self._cache.lookup(texts)
        if found.missing:
            embedder = self._embedder if isinstance(self._embedder, Embedder) else self._embedder()
            if embedder.model_id != self.manifest.model_id:
                raise ConfigError(
                    f"index {self.manifest.version} was built with {self.manifest.model_id!r} "
                    f"but the configured embedder is {embedder.model_id!r}"
                )
            todo = [texts[i] for i in found.missing]
            found.vectors[found.missing] = embedder.encode_documents(todo)
            report.embedded += len(todo)
        return normalise_rows(found.vectors)
