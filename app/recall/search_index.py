"""The read side of a built index: item table, lexical store, vector store and the matching
embedder."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from app.catalog.facets import CatalogFacets, build_facets, load_facets
from app.catalog.imported import DIGEST_FILE
from app.catalog.item import Item
from app.catalog.item_table import read_items
from app.catalog.offer_store import OfferStore
from app.catalog.profile import CatalogProfile, read_profile
from app.catalog.profile_kinds import CatalogVocabulary
from app.catalog.spelling import Speller
from app.config.settings import Settings
from app.errors import ConfigError
from app.recall.bm25 import bm25_sheet_text
from app.recall.embedder import Embedder, build_embedder
from app.recall.index_manifest import IndexManifest, current_paths
from app.recall.lexical_store import LexicalStore, open_lexical_store, sheet_index_name
from app.recall.live_index import LiveCatalog
from app.recall.live_push import LivePush, remote_targets
from app.recall.live_store import LiveVectorStore
from app.recall.vector_store import VectorStore, open_vector_store

__all__ = ["SearchIndex", "imported"]


@dataclass
class SearchIndex:
    """One opened index version; shared by every request of a process."""

    manifest: IndexManifest
    items: Mapping[str, Item]
    bm25: LexicalStore
    """Lexical recall: bm25s in-process, or OpenSearch when `OPENSEARCH_URL` is set."""
    store: VectorStore
    embedder: Embedder
    folder: Path | None = None
    """The index version's folder (its profile and facets live there)."""
    live: LiveCatalog | None = None
    """Follows the catalog journal when the index was built from an imported catalog."""
    bm25_sheet: LexicalStore | None = None
    """The sheet store (listings and their spec sheets' words), for catalogs with spec
    sheets; never live-changed: an imported catalog, the only kind that is, has no sheets."""
    _facets: tuple[str, CatalogFacets] | None = field(default=None, repr=False)

    @property
    def version(self) -> str:
        return self.manifest.version

    @property
    def cache_version(self) -> str:
        """The version plus the catalog generation: what every search cache keys on."""
        if self.live is None or self.live.generation == self.manifest.live_seq:
            return self.manifest.version
        return f"{self.manifest.version}+{self.live.generation}"

    async def refresh_live(self) -> None:
        """Take live catalog changes other processes made (a cheap, throttled check)."""
        if self.live is not None:
            await self.live.refresh_if_due()

    @property
    def collection(self) -> str:
        return self.manifest.collection

    @classmethod
    def open(cls, settings: Settings, *, embedder: Embedder | None = None) -> SearchIndex:
        """Open the `CURRENT` index; the embedder must be the one it was built with."""
        paths = current_paths(settings.index_dir)
        manifest = paths.read_manifest()
        embedder = embedder or build_embedder(settings)
        if embedder.model_id != manifest.model_id:
            raise ConfigError(
                f"index {manifest.version} was built with {manifest.model_id!r} but the "
                f"configured embedder is {embedder.model_id!r}; run `pickwise index build`"
            )
        key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
        store = open_vector_store(
            qdrant_url=settings.qdrant_url, edge_root=paths.vectors, api_key=key
        )
        items = read_items(paths.items)
        lexical_index = settings.lexical_index(manifest.version)
        bm25 = open_lexical_store(
            opensearch_url=settings.opensearch_url, folder=paths.bm25, index=lexical_index
        )
        sheet = None
        if manifest.sheet_store:
            sheet = open_lexical_store(
                opensearch_url=settings.opensearch_url,
                folder=paths.bm25_sheet,
                index=sheet_index_name(lexical_index),
                text=bm25_sheet_text,
            )
        live_store = LiveVectorStore(store)
        catalog = OfferStore.of(settings.var_dir)
        live = None
        if imported(manifest) and catalog.path.is_file():
            feed = catalog.feed()
            targets = remote_targets(
                store, bm25, collection=manifest.collection, index=lexical_index
            )
            push = None
            if targets:
                push = LivePush(
                    feed, targets, dimension=manifest.dimension, since=manifest.live_seq
                )
            live = LiveCatalog(feed, manifest, items, bm25, live_store, push)
            live.catch_up()
        return cls(manifest, items, bm25, live_store, embedder, paths.folder, live, sheet)

    @cached_property
    def speller(self) -> Speller:
        """Reads shoppers' slips as this catalog's words; built once, on first use, then
        taught each item a live upsert adds."""
        speller = Speller.from_items(self.items.values())
        if self.live is not None:
            self.live.listen(speller.learn)
        return speller

    @cached_property
    def profile(self) -> CatalogProfile | None:
        """This version's catalog profile, read once (None for an index built without one)."""
        return read_profile(self.folder) if self.folder is not None else None

    @cached_property
    def vocabulary(self) -> CatalogVocabulary:
        """The product kinds and brands of this version's catalog profile (none without one),
        merged with the lexicon's at start-up."""
        return self.profile.vocabulary() if self.profile is not None else CatalogVocabulary()

    @property
    def facets(self) -> CatalogFacets:
        """The catalog's facets: stored with this version, else computed once on first use;
        computed again (once per catalog generation) after live changes."""
        generation = self.cache_version
        held = self._facets
        if held is not None and held[0] == generation:
            return held[1]
        if self.folder is None:
            found = build_facets(list(self.items.values()))
        elif generation != self.manifest.version:  # the build's profile names title kinds
            found = build_facets(list(self.items.values()), self.profile)
        else:
            found = load_facets(self.folder, self.items.values)
        self._facets = (generation, found)
        return found

    def item(self, item_id: str) -> Item | None:
        """The catalog item with this id, if indexed."""
        return self.items.get(item_id)

    async def close(self) -> None:
        """Release the vector store, the lexical store and the journal reader."""
        if self.live is not None:
            self.live.close()
        self.bm25.close()
        if self.bm25_sheet is not None:
            self.bm25_sheet.close()
        await self.store.close()


def imported(manifest: IndexManifest) -> bool:
    """Whether the index was built from an imported catalog (the only kind that changes live)."""
    return [Path(f).name for f in manifest.source_files] == [DIGEST_FILE]
