"""Fills a missing embedding cache from the index in use when that index was built with the same
model and dense recipe, so the first build after an upgrade (or a lost cache) reuses its
vectors instead of embedding the whole catalog again."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path

import numpy as np

from app.catalog.item_table import read_items
from app.errors import PickwiseError
from app.recall.embedding_cache import EmbeddingCache
from app.recall.index_manifest import IndexPaths, dense_text, read_current
from app.recall.vector_store import VectorStore

log = logging.getLogger(__name__)
_RETRIEVE_BATCH = 1024


def seed_from_current(
    cache: EmbeddingCache,
    root: Path,
    store_for: Callable[[Path], VectorStore],
    recipe: str,
    description_chars: int,
) -> int:
    """Write the current index's vectors into `cache` when its model id and dense `recipe`
    match; returns how many were written (0 when nothing matches or reading fails)."""
    version = read_current(root)
    if version is None or not IndexPaths(root, version).is_complete():
        return 0
    paths = IndexPaths(root, version)
    manifest = paths.read_manifest()
    if manifest.model_id != cache.model_id or recipe not in manifest.recipes:
        return 0
    try:
        items = read_items(paths.items)
        vectors = asyncio.run(_vectors(store_for(paths.vectors), manifest.collection, list(items)))
    except (OSError, ValueError, PickwiseError) as exc:
        log.warning("could not read the vectors of index %s: %s", version, exc)
        return 0
    if not vectors:
        return 0
    texts = [dense_text(items[item_id], description_chars) for item_id in vectors]
    cache.save(texts, np.array(list(vectors.values()), dtype=np.float32))
    return len(texts)


async def _vectors(store: VectorStore, collection: str, ids: list[str]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    try:
        for start in range(0, len(ids), _RETRIEVE_BATCH):
            points = await store.retrieve(collection, ids[start : start + _RETRIEVE_BATCH])
            out.update((p.item_id, list(p.vector)) for p in points)
    finally:
        await store.close()
    return out
