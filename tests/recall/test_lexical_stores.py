"""Both lexical stores against the contract (bm25s in-process, OpenSearch on osmem-server),
the factory that picks one, the same rankings from both (congruence), and the OpenSearch
store's failure modes: a missing index, a killed server opening the "opensearch" breaker."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from osmem_server import OsmemClone, OsmemServer

from app.catalog.item import Item
from app.config.registry import REGISTRY
from app.errors import DependencyDown, IndexMissing
from app.recall._opensearch_lexical import OpenSearchLexicalStore
from app.recall.bm25 import Bm25Index, bm25_sheet_text
from app.recall.breakers import BREAKERS
from app.recall.filters import SearchFilters
from app.recall.lexical_store import (
    LexicalChange,
    LexicalStore,
    lexical_store_present,
    open_lexical_store,
    write_lexical_store,
)
from tests.contracts.lexical_store_contract import (
    QUERIES,
    LexicalStoreContract,
    StoreMaker,
    catalog,
    top,
)
from tests.contracts.vector_store_contract import FILTER_CASES, random_filters

INDEX = "pickwise-items-test"


@pytest.fixture(autouse=True)
def _closed_breakers() -> Iterator[None]:
    BREAKERS.reset()
    yield
    BREAKERS.reset()


class TestBm25Store(LexicalStoreContract):
    @pytest.fixture
    def make_store(self, tmp_path: Path) -> StoreMaker:
        def make(items: Sequence[Item]) -> LexicalStore:
            write_lexical_store(items, opensearch_url=None, folder=tmp_path / "bm25", index=INDEX)
            return open_lexical_store(opensearch_url=None, folder=tmp_path / "bm25", index=INDEX)

        return make


class TestOpenSearchStore(LexicalStoreContract):
    exact_scores = False  # osmem-server's own BM25; a real OpenSearch scores as Lucene does

    @pytest.fixture
    def make_store(self, osmem_clone: OsmemClone) -> Iterator[StoreMaker]:
        opened: list[LexicalStore] = []

        def make(items: Sequence[Item]) -> LexicalStore:
            url = osmem_clone.url
            write_lexical_store(items, opensearch_url=url, folder=Path("unused"), index=INDEX)
            opened.append(
                open_lexical_store(opensearch_url=url, folder=Path("unused"), index=INDEX)
            )
            return opened[-1]

        yield make
        for store in opened:
            store.close()


def test_the_factory_picks_the_backend_by_url(tmp_path: Path, osmem_clone: OsmemClone) -> None:
    folder = tmp_path / "bm25"
    assert not lexical_store_present(opensearch_url=None, folder=folder, index=INDEX)
    assert (
        write_lexical_store(catalog(), opensearch_url=None, folder=folder, index=INDEX) == "bm25s"
    )
    assert lexical_store_present(opensearch_url=None, folder=folder, index=INDEX)
    assert isinstance(
        open_lexical_store(opensearch_url=None, folder=folder, index=INDEX), Bm25Index
    )
    url = osmem_clone.url
    assert not lexical_store_present(opensearch_url=url, folder=folder, index=INDEX)
    assert (
        write_lexical_store(catalog(), opensearch_url=url, folder=folder, index=INDEX)
        == "opensearch"
    )
    assert lexical_store_present(opensearch_url=url, folder=folder, index=INDEX)
    remote = open_lexical_store(opensearch_url=url, folder=folder, index=INDEX)
    assert isinstance(remote, OpenSearchLexicalStore)
    assert remote.remote
    remote.close()


TOP_K_OVERLAP_MIN = 0.8
"""Mean share of bm25s's top 10 that osmem-server's top 10 holds (0.856 measured): osmem
weighs term frequency and length its own way; against a real OpenSearch the tops agree."""


def test_both_backends_find_the_same_sets_and_tops(tmp_path: Path, osmem_clone: OsmemClone) -> None:
    """Same items, queries and filters on both: exactly the same matching ids at full depth
    (before and after the same live changes), and mostly the same ten best."""
    local = Bm25Index.build(catalog())
    write_lexical_store(catalog(), opensearch_url=osmem_clone.url, folder=tmp_path, index=INDEX)
    remote = open_lexical_store(opensearch_url=osmem_clone.url, folder=tmp_path, index=INDEX)
    rng = random.Random(17)
    cases = [(q, f) for q in QUERIES for f in (*FILTER_CASES.values(), random_filters(rng))]
    overlaps = []
    for query, filters in cases:
        everything = {h.item_id for h in local.search(query, filters, top_k=len(catalog()))}
        assert everything == {
            h.item_id for h in remote.search(query, filters, top_k=len(catalog()))
        }
        left = [h.item_id for h in top(local.search(query, filters, top_k=10), 10)]
        right = [h.item_id for h in top(remote.search(query, filters, top_k=10), 10)]
        assert len(left) == len(right)
        if left:
            overlaps.append(len(set(left) & set(right)) / len(left))
    assert len(overlaps) > 100
    assert sum(overlaps) / len(overlaps) >= TOP_K_OVERLAP_MIN
    changes = [
        LexicalChange.delete(catalog()[0].item_id),
        LexicalChange.put(catalog()[1].model_copy(update={"title": "Wireless cable"})),
        LexicalChange.put(catalog()[2].model_copy(update={"price_usd": 1.0}), same_text=True),
    ]
    for store in (local, remote):
        store.apply(changes)
    for query, filters in cases[::7]:
        left_set = {h.item_id for h in local.search(query, filters, top_k=len(catalog()))}
        assert left_set == {h.item_id for h in remote.search(query, filters, top_k=len(catalog()))}
    remote.close()


def test_a_missing_index_is_index_missing(osmem_clone: OsmemClone) -> None:
    store = OpenSearchLexicalStore.connect(osmem_clone.url, "pickwise-items-never-built")
    with pytest.raises(IndexMissing):
        store.search("wireless headphones", SearchFilters(), top_k=5)
    assert BREAKERS.state("opensearch").failures == 0
    store.close()


@pytest.fixture
def own_server() -> Iterator[OsmemServer]:
    """A server of this test's own (the shared one must not be killed)."""
    server = OsmemServer.start(japanese=False)
    yield server
    server.close()


def test_a_killed_server_opens_the_breaker(own_server: OsmemServer) -> None:
    write_lexical_store(
        catalog()[:40], opensearch_url=own_server.url, folder=Path("x"), index=INDEX
    )
    store = OpenSearchLexicalStore.connect(own_server.url, INDEX)
    try:
        assert store.search("wireless", SearchFilters(), top_k=3)
        own_server.process.kill()
        own_server.process.wait()
        with REGISTRY.overridden(BREAKER_OPENSEARCH_FAIL_MAX=2):
            for _ in range(2):
                with pytest.raises(DependencyDown) as info:
                    store.search("wireless", SearchFilters(), top_k=3)
                assert info.value.name == "opensearch"
            assert BREAKERS.state("opensearch").state == "open"
            with pytest.raises(DependencyDown, match="circuit open"):
                store.apply([LexicalChange.delete(catalog()[0].item_id)])
    finally:
        store.close()


@pytest.mark.parametrize("backend", ["bm25s", "opensearch"])
def test_a_sheet_store_finds_items_by_their_spec_sheet_words(
    backend: str, tmp_path: Path, osmem_clone: OsmemClone
) -> None:
    """Built and live-changed with `bm25_sheet_text`, a store finds an item by a word only
    its spec sheet says; the listing store, built from the same items, does not."""
    url = osmem_clone.url if backend == "opensearch" else None
    items = list(catalog())
    items[3] = items[3].model_copy(update={"spec_text": ("Zinc-Carbon", "AAA / R03")})
    sheet_index, listing_index = f"{INDEX}-sheet", f"{INDEX}-listing"
    write_lexical_store(
        items, opensearch_url=url, folder=tmp_path / "s", index=sheet_index, text=bm25_sheet_text
    )
    write_lexical_store(items, opensearch_url=url, folder=tmp_path / "l", index=listing_index)
    sheet = open_lexical_store(
        opensearch_url=url, folder=tmp_path / "s", index=sheet_index, text=bm25_sheet_text
    )
    listing = open_lexical_store(opensearch_url=url, folder=tmp_path / "l", index=listing_index)
    nothing = SearchFilters()
    assert [h.item_id for h in sheet.search("zinc carbon", nothing, top_k=5)] == [items[3].item_id]
    assert listing.search("zinc carbon", nothing, top_k=5) == []
    changed = items[4].model_copy(update={"spec_text": ("Silver-Oxide",)})
    sheet.apply([LexicalChange.put(changed)])
    assert [h.item_id for h in sheet.search("silver oxide", nothing, top_k=5)] == [changed.item_id]
    sheet.close()
    listing.close()
