"""The index build on a slice of the real catalog: versioned, atomic, idempotent, searchable."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.catalog.loader import Catalog, load_catalog
from app.config.registry import REGISTRY
from app.config.settings import Settings
from app.errors import ConfigError, IndexMissing
from app.recall._flag_embedder import FlagEmbedder
from app.recall.filters import SearchFilters
from app.recall.index_build import build_index
from app.recall.index_manifest import IndexManifest, IndexPaths, dense_text, read_current
from app.recall.reranker_training import data_fingerprint
from app.recall.search_index import SearchIndex


@pytest.fixture(scope="module")
def small_catalog(settings: Settings) -> Catalog:
    full = load_catalog(settings.data_dir)
    by_platform: dict[str, list] = {}
    for item in full.items:
        by_platform.setdefault(item.platform, []).append(item)
    items = tuple(i for group in by_platform.values() for i in group[:40])
    return Catalog(items=items, matches=(), skipped={}, source_files=full.source_files)


@pytest.fixture(scope="module")
def embedder() -> FlagEmbedder:
    return FlagEmbedder("all-MiniLM-L6-v2", pooling="mean", max_length=128, batch_size=32)


@pytest.fixture
def scratch(settings: Settings, tmp_path: Path) -> Settings:
    return settings.model_copy(update={"var_dir": tmp_path / "var"})


def test_build_then_nothing_to_do_then_force(
    scratch: Settings, small_catalog: Catalog, embedder: FlagEmbedder
) -> None:
    first = build_index(scratch, show_progress=False, catalog=small_catalog, embedder=embedder)
    assert first.built
    manifest = first.manifest
    assert manifest.items == len(small_catalog.items) == 240
    assert manifest.platforms == small_catalog.platform_counts()
    assert manifest.vector_backend == "qdrant-edge"
    assert read_current(scratch.index_dir) == manifest.version
    names = {p.name for p in scratch.index_dir.iterdir()}
    assert names == {"CURRENT", ".embeddings", ".build.lock", manifest.version}

    again = build_index(scratch, show_progress=False, catalog=small_catalog, embedder=embedder)
    assert not again.built
    assert "up to date" in again.message
    assert "nothing to do" in again.message
    assert again.manifest == manifest

    forced = build_index(
        scratch, force=True, show_progress=False, catalog=small_catalog, embedder=embedder
    )
    assert forced.built
    assert forced.manifest.version == manifest.version
    assert forced.manifest.built_at >= manifest.built_at


def test_two_builders_at_once_build_the_version_once(
    scratch: Settings, small_catalog: Catalog, embedder: FlagEmbedder
) -> None:
    def build() -> bool:
        return build_index(
            scratch, show_progress=False, catalog=small_catalog, embedder=embedder
        ).built

    async def both() -> list[bool]:
        return list(await asyncio.gather(asyncio.to_thread(build), asyncio.to_thread(build)))

    assert sorted(asyncio.run(both())) == [False, True]
    index = SearchIndex.open(scratch, embedder=embedder)
    try:
        assert len(index.items) == len(small_catalog.items)
    finally:
        asyncio.run(index.close())


def test_a_recipe_change_is_a_new_version(
    scratch: Settings, small_catalog: Catalog, embedder: FlagEmbedder
) -> None:
    base = build_index(scratch, show_progress=False, catalog=small_catalog, embedder=embedder)
    with REGISTRY.overridden(INDEX_DESCRIPTION_CHARS=50):
        changed = build_index(
            scratch, show_progress=False, catalog=small_catalog, embedder=embedder
        )
    assert changed.built
    assert changed.manifest.version != base.manifest.version
    assert read_current(scratch.index_dir) == changed.manifest.version
    assert IndexPaths(scratch.index_dir, base.manifest.version).is_complete()


def test_a_lexical_change_keeps_the_vectors_version_and_the_reranker_data(
    scratch: Settings, small_catalog: Catalog, embedder: FlagEmbedder
) -> None:
    def build() -> IndexManifest:
        report = build_index(scratch, show_progress=False, catalog=small_catalog, embedder=embedder)
        return report.manifest

    base = build()
    before = data_fingerprint(scratch)
    with REGISTRY.overridden(BM25_K1=1.4):
        lexical = build()
    assert lexical.version != base.version
    assert lexical.vectors_version == base.vectors_version
    assert data_fingerprint(scratch) == before
    with REGISTRY.overridden(INDEX_DESCRIPTION_CHARS=50):
        dense = build()
    assert dense.vectors_version != base.vectors_version
    assert data_fingerprint(scratch) != before


def test_a_half_written_build_is_never_current(
    scratch: Settings, small_catalog: Catalog, embedder: FlagEmbedder
) -> None:
    class Boom(Exception):
        pass

    def failing(*_args: object, **_kwargs: object) -> None:
        raise Boom

    catalog = Catalog(
        items=small_catalog.items[:4],
        matches=(),
        skipped={},
        source_files=small_catalog.source_files,
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("app.recall.index_build.write_items", failing)
        with pytest.raises(Boom):
            build_index(scratch, show_progress=False, catalog=catalog, embedder=embedder)
    assert read_current(scratch.index_dir) is None
    with pytest.raises(IndexMissing):
        SearchIndex.open(scratch, embedder=embedder)


def test_the_built_index_answers_filtered_searches(
    scratch: Settings, small_catalog: Catalog, embedder: FlagEmbedder
) -> None:
    build_index(scratch, show_progress=False, catalog=small_catalog, embedder=embedder)
    index = SearchIndex.open(scratch, embedder=embedder)
    try:
        some = small_catalog.items[45]
        assert index.item(some.item_id) == some
        vector = embedder.encode_queries([dense_text(some, 300)])[0].tolist()
        hits = asyncio.run(
            index.store.search(index.collection, vector, SearchFilters(), limit=3, exact=True)
        )
        assert hits[0].item_id == some.item_id
        walmart = SearchFilters.build(platforms=["walmart"], price_max=50)
        hits = asyncio.run(index.store.search(index.collection, vector, walmart, limit=20))
        assert hits
        assert all(
            h.payload["platform"] == "walmart" and h.payload["price_usd"] <= 50 for h in hits
        )
        lexical = index.bm25.search(some.title, SearchFilters(), top_k=5)
        assert some.item_id in [h.item_id for h in lexical]
    finally:
        asyncio.run(index.close())


def test_an_index_built_with_another_model_is_refused(
    scratch: Settings, small_catalog: Catalog, embedder: FlagEmbedder
) -> None:
    build_index(scratch, show_progress=False, catalog=small_catalog, embedder=embedder)
    other = FlagEmbedder("all-MiniLM-L6-v2", pooling="mean", max_length=64, batch_size=32)
    with pytest.raises(ConfigError, match="was built with"):
        SearchIndex.open(scratch, embedder=other)


def test_index_build_cli_reports_up_to_date_as_json(built_index: Settings) -> None:
    from app.cli.main import app

    result = CliRunner().invoke(app, ["index", "build", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["built"] is False
    assert payload["items"] == 32292
    assert payload["version"] == read_current(built_index.index_dir)
    assert {"collection", "model_id", "platforms", "items_per_s"} <= payload.keys()


def test_a_catalog_with_spec_sheets_gets_a_sheet_store_and_one_without_none(
    scratch: Settings, small_catalog: Catalog, embedder: FlagEmbedder
) -> None:
    """The sheet store finds an Icecat item by a word only its spec sheet says; a catalog
    with no sheets (here the shops' items alone) is built without one."""
    sheeted = next(i for i in small_catalog.items if i.spec_text)
    word = next(
        w
        for value in sheeted.spec_text
        for w in value.lower().split()
        if w.isalpha() and len(w) > 3 and w not in f"{sheeted.title} {sheeted.description}".lower()
    )
    build_index(scratch, show_progress=False, catalog=small_catalog, embedder=embedder)
    index = SearchIndex.open(scratch, embedder=embedder)
    try:
        assert index.manifest.sheet_store
        assert index.bm25_sheet is not None
        found = index.bm25_sheet.search(word, SearchFilters(), top_k=len(small_catalog.items))
        assert sheeted.item_id in [h.item_id for h in found]
        listed = index.bm25.search(word, SearchFilters(), top_k=len(small_catalog.items))
        assert sheeted.item_id not in [h.item_id for h in listed]
    finally:
        asyncio.run(index.close())
    shops = Catalog(
        items=tuple(i for i in small_catalog.items if not i.spec_text),
        matches=(),
        skipped={},
        source_files=small_catalog.source_files,
    )
    bare = build_index(  # the version follows the source files, so the same one, rebuilt
        scratch, force=True, show_progress=False, catalog=shops, embedder=embedder
    )
    assert not bare.manifest.sheet_store
    assert not IndexPaths(scratch.index_dir, bare.manifest.version).bm25_sheet.exists()
    index = SearchIndex.open(scratch, embedder=embedder)
    assert index.bm25_sheet is None
    asyncio.run(index.close())
