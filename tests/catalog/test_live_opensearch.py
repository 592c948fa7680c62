"""With OPENSEARCH_URL set, the index build and live changes write lexical documents to
OpenSearch (osmem-server here): the build indexes the imported catalog there instead of a
bm25s folder, and a new item, a price change and a delete replayed from the journal reach the
server's index (pushed once, from the journal), where any other process's store reads them;
while the server cannot be reached the changes wait in the journal and reach it when it can."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from osmem_server import OsmemServer

from app.catalog.importer import import_files
from app.catalog.offer_store import OfferStore
from app.config.settings import Settings
from app.recall._opensearch_lexical import OpenSearchLexicalStore
from app.recall.breakers import BREAKERS
from app.recall.filters import SearchFilters
from app.recall.index_build import build_index
from app.recall.index_manifest import current_paths
from app.recall.live_push import LexicalTarget, LivePush, push_configured
from app.recall.live_update import LiveWriter
from app.recall.search_index import SearchIndex
from tests.catalog.live_catalog import SHOP, stored

pytestmark = pytest.mark.slow

LAMP = f"{SHOP}:brass-reading-lamp"
JACKET = f"{SHOP}:olive-green-jacket"
DRAWERS = f"{SHOP}:antique-drawers"


@pytest.fixture(scope="module")
def on_opensearch(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> Iterator[Settings]:
    """The Shopify sample imported into a fresh var dir and indexed with OpenSearch set."""
    server = OsmemServer.start(japanese=False)
    var = tmp_path_factory.mktemp("opensearch-var")
    files = sorted((data_dir / "shopify-sample").glob("*.csv"))
    assert import_files(files, OfferStore.of(var), shop=SHOP, currency="EUR").imported > 50
    settings = Settings(var_dir=var, data_dir=data_dir, opensearch_url=server.url)
    build_index(settings, show_progress=False)
    yield settings
    server.close()


def server_store(settings: Settings) -> OpenSearchLexicalStore:
    """The version's OpenSearch index as another process would open it."""
    assert settings.opensearch_url is not None
    version = current_paths(settings.index_dir).version
    return OpenSearchLexicalStore.connect(settings.opensearch_url, settings.lexical_index(version))


def ids(
    store: OpenSearchLexicalStore, query: str, filters: SearchFilters | None = None
) -> list[str]:
    hits = store.search(query, filters or SearchFilters(), top_k=5)
    return [h.item_id for h in sorted(hits, key=lambda h: -h.score)]


def test_the_build_indexes_the_catalog_on_opensearch(on_opensearch: Settings) -> None:
    paths = current_paths(on_opensearch.index_dir)
    manifest = paths.read_manifest()
    assert manifest.lexical_backend == "opensearch"
    assert not paths.bm25.exists()
    store = server_store(on_opensearch)
    assert store.count() == manifest.items
    assert ids(store, "olive green jacket")[0] == JACKET
    store.close()
    again = build_index(on_opensearch, show_progress=False)
    assert not again.built, "the OpenSearch index is there: nothing to rebuild"


async def test_live_changes_reach_the_opensearch_index(on_opensearch: Settings) -> None:
    index = SearchIndex.open(on_opensearch)
    try:
        assert isinstance(index.bm25, OpenSearchLexicalStore)
        assert index.live is not None
        writer = LiveWriter.open(on_opensearch, index.embedder)
        lamp = stored(on_opensearch, "antique-drawers").model_copy(
            update={"id": "brass-reading-lamp", "title": "Brass Reading Lamp", "price": 70.0}
        )
        repriced = stored(on_opensearch, "olive-green-jacket").model_copy(update={"price": 912.0})
        writer.upsert([(lamp, "", 1), (repriced, "", 2)], actor="test")
        writer.delete([(SHOP, "antique-drawers")], actor="test")
        assert await index.live.refresh() == 3
        assert index.live.push is not None
        assert set(index.live.push.backlog().values()) == {0}
        new_price = index.items[JACKET].price_usd
        assert new_price is not None

        other = server_store(on_opensearch)
        assert ids(other, "brass reading lamp")[0] == LAMP
        assert DRAWERS not in ids(other, "antique drawers")
        dear = SearchFilters.build(price_min=new_price - 1, price_max=new_price + 1)
        assert ids(other, "olive green jacket", dear) == [JACKET]
        cheap = SearchFilters.build(price_max=new_price - 1)
        assert JACKET not in ids(other, "olive green jacket", cheap)
        other.close()
        lexical = index.bm25.search("brass reading lamp", SearchFilters(), top_k=3)
        assert max(lexical, key=lambda h: h.score).item_id == LAMP
    finally:
        await index.close()


async def test_changes_wait_in_the_journal_while_opensearch_is_unreachable(
    on_opensearch: Settings,
) -> None:
    manifest = current_paths(on_opensearch.index_dir).read_manifest()
    name = on_opensearch.lexical_index(manifest.version)
    catalog = OfferStore.of(on_opensearch.var_dir)
    writer = LiveWriter.open(on_opensearch)
    cheaper = stored(on_opensearch, "olive-green-jacket").model_copy(update={"price": 3.0})
    writer.upsert([(cheaper, "", 1)], actor="test")
    unreachable = OpenSearchLexicalStore.connect("http://127.0.0.1:9", name)
    down = LivePush(
        catalog.feed(),
        [LexicalTarget(unreachable, name)],
        dimension=manifest.dimension,
        since=manifest.live_seq,
    )
    try:
        assert await down.push() == 0
        assert list(down.backlog().values()) == [1]
    finally:
        BREAKERS.reset()
        down.close()
        unreachable.close()
    other = server_store(on_opensearch)
    back = LivePush(
        catalog.feed(),
        [LexicalTarget(other, name)],
        dimension=manifest.dimension,
        since=manifest.live_seq,
    )
    try:
        assert await back.push() == 1
        assert list(back.backlog().values()) == [0]
        price = SearchFilters.build(price_max=5.0)
        assert ids(other, "olive green jacket", price) == [JACKET]
    finally:
        back.close()
        other.close()


async def test_the_cli_push_sends_a_change_with_no_server_process_running(
    on_opensearch: Settings,
) -> None:
    """What `catalog upsert|delete` runs after the commit: the configured remote backends get
    the change (and the report's backlog is empty)."""
    manifest = current_paths(on_opensearch.index_dir).read_manifest()
    writer = LiveWriter.open(on_opensearch)
    dearer = stored(on_opensearch, "olive-green-jacket").model_copy(update={"price": 640.0})
    writer.upsert([(dearer, "", 1)], actor="test")
    backlog = await push_configured(on_opensearch, manifest)
    assert backlog
    assert set(backlog.values()) == {0}
    other = server_store(on_opensearch)
    try:
        price = SearchFilters.build(price_min=600.0)
        assert ids(other, "olive green jacket", price) == [JACKET]
    finally:
        other.close()
