"""`pickwise index build`: embed the catalog, write vectors, BM25 and the item table (vectors
and BM25 to whichever backends are configured: edge or Qdrant, bm25s or OpenSearch).

A build writes into a temporary folder and renames it into place when complete, then
moves `CURRENT`; a crash never leaves a half-built index in use. With nothing changed,
a second run finds the finished version and does nothing; a change that leaves the dense
texts alone (a BM25 recipe, say) takes its vectors from the embedding cache.
"""

from __future__ import annotations

import asyncio
import dataclasses
import fcntl
import logging
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
from tqdm import tqdm

from app.catalog.facets import build_facets
from app.catalog.imported import load_index_catalog
from app.catalog.item import item_fields_fingerprint
from app.catalog.item_table import write_items
from app.catalog.loader import Catalog
from app.catalog.offer_store import OfferStore
from app.catalog.profile import PROFILE_RECIPE, build_profile
from app.catalog.spec_categories import SpecRecipe
from app.catalog.spec_features import features_fingerprint
from app.config.params.index import INDEX_DESCRIPTION_CHARS, INDEX_UPSERT_BATCH
from app.config.settings import Settings
from app.recall._cache_seed import seed_from_current
from app.recall.bm25 import bm25_recipe, bm25_sheet_text
from app.recall.embedder import Embedder, build_embedder
from app.recall.embedding_cache import CacheLookup, EmbeddingCache
from app.recall.index_manifest import (
    STAGING_PREFIX,
    IndexManifest,
    IndexPaths,
    collection_name,
    compute_version,
    dense_recipe,
    dense_text,
    read_current,
    write_current,
)
from app.recall.lexical_store import (
    lexical_store_present,
    sheet_index_name,
    write_lexical_store,
)
from app.recall.vector_store import (
    VectorLayout,
    VectorPoint,
    VectorStore,
    item_payload,
    open_vector_store,
)

__all__ = ["BuildReport", "StoreFactory", "build_index", "index_recipes"]

log = logging.getLogger(__name__)
BUILD_LOCK = ".build.lock"
"""Held by the process building a version of this index folder."""
StoreFactory = Callable[[Path], VectorStore]


@dataclass(frozen=True)
class BuildReport:
    """What a build did: `built` is False when the index was already up to date."""

    built: bool
    manifest: IndexManifest
    message: str


def index_recipes(description_chars: int) -> list[str]:
    """What an index version hashes beside the files and model: the dense recipe first (the
    vectors' own version), then the BM25 and catalog recipes."""
    return [
        dense_recipe(description_chars),
        bm25_recipe(),
        SpecRecipe.current().fingerprint(),
        features_fingerprint(),
        item_fields_fingerprint(),
        PROFILE_RECIPE,
    ]


def build_index(
    settings: Settings,
    *,
    force: bool = False,
    show_progress: bool = True,
    embedder: Embedder | None = None,
    catalog: Catalog | None = None,
    reuse_embeddings: bool = True,
) -> BuildReport:
    """Build the index for the current catalog (the imported one when the var dir holds one,
    else the demo's) and model unless that version exists; texts
    embedded by an earlier build with the same model come from the embedding cache unless
    `reuse_embeddings` is False."""
    live_seq = _journal_seq(settings)
    catalog = catalog or load_index_catalog(settings)
    embedder = embedder or build_embedder(settings)
    desc_chars = INDEX_DESCRIPTION_CHARS.get()
    recipes = index_recipes(desc_chars)
    version = compute_version(catalog.source_files, embedder.model_id, recipes)
    root = settings.index_dir
    root.mkdir(parents=True, exist_ok=True)
    paths = IndexPaths(root, version)

    def store_for(folder: Path) -> VectorStore:
        key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
        return open_vector_store(qdrant_url=settings.qdrant_url, edge_root=folder, api_key=key)

    def up_to_date() -> BuildReport | None:
        if force or not paths.is_complete():
            return None
        manifest = paths.read_manifest()
        index = settings.lexical_index(version)
        lexical = lexical_store_present(
            opensearch_url=settings.opensearch_url, folder=paths.bm25, index=index
        ) and (
            not manifest.sheet_store
            or lexical_store_present(
                opensearch_url=settings.opensearch_url,
                folder=paths.bm25_sheet,
                index=sheet_index_name(index),
            )
        )
        if not lexical or not asyncio.run(_vectors_present(store_for(paths.vectors), manifest)):
            return None
        if read_current(root) != version:
            write_current(root, version)
        return BuildReport(
            False,
            manifest,
            f"index {version} is up to date ({manifest.items} items); nothing to do",
        )

    if (done := up_to_date()) is not None:
        return done
    with _build_lock(root):
        if (done := up_to_date()) is not None:  # another process built it while we waited
            return done
        return _build_version(
            settings,
            desc_chars,
            catalog,
            embedder,
            paths,
            store_for,
            live_seq,
            reuse_embeddings,
            show_progress,
        )


@contextmanager
def _build_lock(root: Path) -> Iterator[None]:
    """One build at a time per index folder: a second builder (another process, a test
    fixture) waits, then finds the version built instead of clearing its staging folder."""
    with (root / BUILD_LOCK).open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _build_version(
    settings: Settings,
    desc_chars: int,
    catalog: Catalog,
    embedder: Embedder,
    paths: IndexPaths,
    store_for: Callable[[Path], VectorStore],
    live_seq: int,
    reuse_embeddings: bool,
    show_progress: bool,
) -> BuildReport:
    """Embed, write and publish one index version (the caller holds the build lock), with
    the description length its version was computed from."""
    root, version = paths.root, paths.version
    recipes = index_recipes(desc_chars)
    started = time.perf_counter()
    tmp = root / f"{STAGING_PREFIX}{version}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    staged = IndexPaths(root, tmp.name)

    texts = [dense_text(item, desc_chars) for item in catalog.items]
    cache = EmbeddingCache(root, embedder.model_id, embedder.dimension)
    if reuse_embeddings and not cache.path.is_file():
        seeded = seed_from_current(cache, root, store_for, recipes[0], desc_chars)
        if seeded:
            log.info("embedding cache seeded with %d vectors of the index in use", seeded)
    vectors, reused = _embed(embedder, texts, cache if reuse_embeddings else None, show_progress)
    embed_s = time.perf_counter() - started
    if reused < len(texts):
        cache.save(texts, vectors)

    collection = collection_name(version)
    store = store_for(staged.vectors)
    asyncio.run(_write_vectors(store, collection, catalog, vectors, show_progress))
    lexical_backend = write_lexical_store(
        catalog.items,
        opensearch_url=settings.opensearch_url,
        folder=staged.bm25,
        index=settings.lexical_index(version),
    )
    sheet_store = any(i.spec_text for i in catalog.items)
    if sheet_store:
        write_lexical_store(
            catalog.items,
            opensearch_url=settings.opensearch_url,
            folder=staged.bm25_sheet,
            index=sheet_index_name(settings.lexical_index(version)),
            text=bm25_sheet_text,
        )
    write_items(staged.items, catalog.items)
    profile = build_profile(catalog.items)
    profile.save(staged.folder)
    build_facets(catalog.items, profile).save(staged.folder)

    build_s = time.perf_counter() - started
    manifest = IndexManifest(
        version=version,
        collection=collection,
        vector_backend=store.name,
        lexical_backend=lexical_backend,
        sheet_store=sheet_store,
        model_id=embedder.model_id,
        dimension=embedder.dimension,
        recipes=recipes,
        items=len(catalog.items),
        platforms=catalog.platform_counts(),
        skipped=dict(catalog.skipped),
        source_files=[str(p) for p in catalog.source_files],
        built_at=datetime.now(UTC).isoformat(timespec="seconds"),
        build_s=round(build_s, 2),
        embed_s=round(embed_s, 2),
        reused_vectors=reused,
        vectors_version=compute_version(catalog.source_files, embedder.model_id, recipes[:1]),
        items_per_s=round(len(catalog.items) / build_s, 1),
        live_seq=live_seq,
        vector_layout=dataclasses.asdict(VectorLayout.current()),
    )
    staged.manifest.write_text(manifest.model_dump_json(indent=2))
    shutil.rmtree(paths.folder, ignore_errors=True)
    tmp.rename(paths.folder)
    write_current(root, version)
    log.info("built index %s: %d items in %.1f s", version, manifest.items, build_s)
    reuse = f"; {reused} vectors from the embedding cache" if reused else ""
    return BuildReport(
        True,
        manifest,
        f"built index {version}: {manifest.items} items in {build_s:.1f} s "
        f"({manifest.items_per_s:.0f} items/s{reuse})",
    )


def _journal_seq(settings: Settings) -> int:
    """The newest live change of the imported catalog, read before the catalog is (a change
    in between is replayed over the new index, which is harmless: replays are idempotent)."""
    store = OfferStore.of(settings.var_dir)
    if not store.path.is_file():
        return 0
    feed = store.feed()
    try:
        return feed.last_seq()
    finally:
        feed.close()


def _embed(
    embedder: Embedder, texts: list[str], cache: EmbeddingCache | None, show_progress: bool
) -> tuple[np.ndarray, int]:
    """Vectors for `texts`, embedding only those the cache lacks; and how many it had."""
    found = cache.lookup(texts) if cache else CacheLookup.empty(len(texts), embedder.dimension)
    todo = [texts[i] for i in found.missing]
    with tqdm(
        total=len(todo), unit="item", desc="embedding", disable=not show_progress, mininterval=1.0
    ) as bar:

        def advance(n: int) -> None:
            bar.update(n)

        if todo:
            found.vectors[found.missing] = embedder.encode_documents(todo, progress=advance)
    return found.vectors, found.hits


async def _vectors_present(store: VectorStore, manifest: IndexManifest) -> bool:
    try:
        if not await store.collection_exists(manifest.collection):
            return False
        return await store.count(manifest.collection) == manifest.items
    finally:
        await store.close()


async def _write_vectors(
    store: VectorStore,
    collection: str,
    catalog: Catalog,
    vectors: np.ndarray,
    show_progress: bool,
) -> None:
    try:
        await store.ensure_collection(collection, int(vectors.shape[1]))
        batch = INDEX_UPSERT_BATCH.get()
        items = catalog.items
        with tqdm(
            total=len(items),
            unit="item",
            desc="writing vectors",
            disable=not show_progress,
            mininterval=1.0,
        ) as bar:
            for start in range(0, len(items), batch):
                chunk = items[start : start + batch]
                await store.upsert(
                    collection,
                    [
                        VectorPoint(item.item_id, vectors[start + i].tolist(), item_payload(item))
                        for i, item in enumerate(chunk)
                    ],
                )
                bar.update(len(chunk))
    finally:
        await store.close()
