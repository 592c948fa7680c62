"""The embedding cache: vectors keyed by model and text survive a rebuild, so a recipe change
that leaves the dense texts alone embeds nothing, and what it serves equals a fresh build."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from app.catalog.loader import Catalog, load_catalog
from app.config.registry import REGISTRY
from app.config.settings import Settings
from app.recall._flag_embedder import FlagEmbedder
from app.recall.embedder import Progress
from app.recall.embedding_cache import CACHE_FOLDER, EmbeddingCache
from app.recall.filters import SearchFilters
from app.recall.index_build import build_index
from app.recall.index_manifest import IndexPaths, write_current
from app.recall.index_prune import prune_index_versions
from app.recall.search_index import SearchIndex


class CountingEmbedder:
    """The real MiniLM embedder, counting the document texts it is asked to embed."""

    def __init__(self, inner: FlagEmbedder) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.dimension = inner.dimension
        self.remote = inner.remote
        self.documents = 0

    def encode_documents(
        self, texts: Sequence[str], *, progress: Progress | None = None
    ) -> np.ndarray:
        self.documents += len(texts)
        return self.inner.encode_documents(texts, progress=progress)

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self.inner.encode_queries(texts)


@pytest.fixture(scope="module")
def flag() -> FlagEmbedder:
    return FlagEmbedder("all-MiniLM-L6-v2", pooling="mean", max_length=128, batch_size=32)


@pytest.fixture(scope="module")
def small_catalog(settings: Settings) -> Catalog:
    items = load_catalog(settings.data_dir).items
    return Catalog(items=items[::400], matches=(), skipped={}, source_files=())


@pytest.fixture
def scratch(settings: Settings, tmp_path: Path) -> Settings:
    return settings.model_copy(update={"var_dir": tmp_path / "var"})


def test_lookup_returns_saved_rows_and_names_the_rest(tmp_path: Path) -> None:
    cache = EmbeddingCache(tmp_path, "model-a", 3)
    vectors = np.array([[1, 0, 0], [0, 1, 0]], dtype=np.float32)
    cache.save(["usb c cable", "cat6 patch cord"], vectors)
    found = cache.lookup(["cat6 patch cord", "wifi 6 router", "usb c cable"])
    assert found.missing == [1]
    assert found.hits == 2
    np.testing.assert_array_equal(found.vectors[[0, 2]], vectors[[1, 0]])
    np.testing.assert_array_equal(found.vectors[1], np.zeros(3))


@pytest.mark.parametrize(("model_id", "dimension"), [("model-b", 3), ("model-a", 4)])
def test_another_model_or_dimension_finds_nothing(
    tmp_path: Path, model_id: str, dimension: int
) -> None:
    EmbeddingCache(tmp_path, "model-a", 3).save(["usb c cable"], np.ones((1, 3), np.float32))
    assert EmbeddingCache(tmp_path, model_id, dimension).lookup(["usb c cable"]).missing == [0]


def test_an_unreadable_file_is_a_miss_not_an_error(tmp_path: Path) -> None:
    cache = EmbeddingCache(tmp_path, "model-a", 3)
    cache.path.parent.mkdir(parents=True)
    cache.path.write_bytes(b"not an npz file")
    assert cache.lookup(["usb c cable"]).missing == [0]
    cache.save(["usb c cable"], np.ones((1, 3), np.float32))
    assert cache.lookup(["usb c cable"]).missing == []


def test_save_refuses_mismatched_rows(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="2 texts but 1 vectors"):
        EmbeddingCache(tmp_path, "m", 3).save(["a", "b"], np.ones((1, 3), np.float32))


def test_a_lexical_recipe_change_embeds_nothing_and_serves_the_same_vectors(
    scratch: Settings, small_catalog: Catalog, flag: FlagEmbedder
) -> None:
    counting = CountingEmbedder(flag)
    first = build_index(scratch, show_progress=False, catalog=small_catalog, embedder=counting)
    n = len(small_catalog.items)
    assert counting.documents == n
    assert first.manifest.reused_vectors == 0

    cache_file = EmbeddingCache(scratch.index_dir, flag.model_id, flag.dimension).path
    written = cache_file.stat().st_mtime_ns
    with REGISTRY.overridden(BM25_K1=1.4):
        second = build_index(scratch, show_progress=False, catalog=small_catalog, embedder=counting)
    assert second.manifest.version != first.manifest.version
    assert counting.documents == n
    assert cache_file.stat().st_mtime_ns == written
    assert second.manifest.reused_vectors == n
    assert f"{n} vectors from the embedding cache" in second.message

    with REGISTRY.overridden(INDEX_DESCRIPTION_CHARS=40):
        third = build_index(scratch, show_progress=False, catalog=small_catalog, embedder=counting)
    assert third.manifest.reused_vectors < n
    assert counting.documents == 2 * n - third.manifest.reused_vectors

    query = small_catalog.items[7].title
    ranked = [_dense_ids(scratch, v.manifest.version, query, flag) for v in (first, second)]
    assert ranked[0] == ranked[1]
    assert ranked[0][0] == small_catalog.items[7].item_id


def test_a_build_without_the_cache_embeds_everything(
    scratch: Settings, small_catalog: Catalog, flag: FlagEmbedder
) -> None:
    counting = CountingEmbedder(flag)
    build_index(scratch, show_progress=False, catalog=small_catalog, embedder=counting)
    again = build_index(
        scratch,
        force=True,
        reuse_embeddings=False,
        show_progress=False,
        catalog=small_catalog,
        embedder=counting,
    )
    assert again.manifest.reused_vectors == 0
    assert counting.documents == 2 * len(small_catalog.items)


def test_a_lost_cache_is_seeded_from_the_index_in_use(
    scratch: Settings, small_catalog: Catalog, flag: FlagEmbedder
) -> None:
    counting = CountingEmbedder(flag)
    first = build_index(scratch, show_progress=False, catalog=small_catalog, embedder=counting)
    shutil.rmtree(scratch.index_dir / CACHE_FOLDER)
    with REGISTRY.overridden(BM25_K1=1.4):
        second = build_index(scratch, show_progress=False, catalog=small_catalog, embedder=counting)
    assert counting.documents == len(small_catalog.items)
    assert second.manifest.reused_vectors == len(small_catalog.items)
    query = small_catalog.items[3].title
    ranked = [_dense_ids(scratch, v.manifest.version, query, flag) for v in (first, second)]
    assert ranked[0] == ranked[1]


@pytest.mark.parametrize("spoiler", ["a corrupt item table", "another model"])
def test_an_index_that_cannot_seed_leaves_every_text_to_embed(
    scratch: Settings, small_catalog: Catalog, flag: FlagEmbedder, spoiler: str
) -> None:
    first = build_index(scratch, show_progress=False, catalog=small_catalog, embedder=flag)
    shutil.rmtree(scratch.index_dir / CACHE_FOLDER)
    counting = CountingEmbedder(flag)
    if spoiler == "a corrupt item table":
        IndexPaths(scratch.index_dir, first.manifest.version).items.write_bytes(b"not parquet")
    else:
        other = FlagEmbedder("all-MiniLM-L6-v2", pooling="mean", max_length=64, batch_size=32)
        counting = CountingEmbedder(other)
    with REGISTRY.overridden(BM25_K1=1.4):
        second = build_index(scratch, show_progress=False, catalog=small_catalog, embedder=counting)
    assert second.manifest.reused_vectors == 0
    assert counting.documents == len(small_catalog.items)


def test_prune_leaves_the_cache_alone(
    scratch: Settings, small_catalog: Catalog, flag: FlagEmbedder
) -> None:
    build_index(scratch, show_progress=False, catalog=small_catalog, embedder=flag)
    with REGISTRY.overridden(BM25_K1=1.4):
        build_index(scratch, show_progress=False, catalog=small_catalog, embedder=flag)
    report = prune_index_versions(scratch.index_dir, keep=0)
    assert len(report.removed) == 1
    assert CACHE_FOLDER not in report.removed
    assert any((scratch.index_dir / CACHE_FOLDER).iterdir())


def _dense_ids(settings: Settings, version: str, query: str, flag: FlagEmbedder) -> list[str]:
    write_current(settings.index_dir, version)
    index = SearchIndex.open(settings, embedder=flag)
    try:
        vector = flag.encode_queries([query])[0].tolist()
        hits = asyncio.run(
            index.store.search(index.collection, vector, SearchFilters(), limit=10, exact=True)
        )
        return [h.item_id for h in hits]
    finally:
        asyncio.run(index.close())
