"""Both category KB backends against the contract, the factory that picks one, the same top
card from both (congruence), and the OpenSearch backend's own failure modes: a lost index is
refilled, a killed server opens the "opensearch" breaker."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
from opensearchpy import OpenSearch
from osmem_server import OsmemClone, OsmemServer

from app.config.registry import REGISTRY
from app.config.settings import Settings
from app.errors import DependencyDown
from app.recall._kb_opensearch import OpenSearchKnowledgeBase
from app.recall.breakers import BREAKERS
from app.recall.category_kb import InProcessKnowledgeBase, KnowledgeBase, open_knowledge_base
from tests.contracts.knowledge_base_contract import KnowledgeBaseContract, real_kb_inputs

pytestmark = pytest.mark.slow

CONGRUENCE_QUERIES = (
    "toner cartridge",
    "keyboards",
    "usb cable",
    "external hard drive",
    "projector lamp",
    "wireless mouse",
    "laptop",
    "notebook",
    "hdmi cable",
    "graphics card",
    "surge protector",
    "ink cartridge",
)


@pytest.fixture(autouse=True)
def _closed_breakers() -> Iterator[None]:
    BREAKERS.reset()
    yield
    BREAKERS.reset()


class TestInProcessKnowledgeBase(KnowledgeBaseContract):
    @pytest.fixture
    async def kb(self, built_index: Settings) -> AsyncIterator[KnowledgeBase]:
        index, cards = real_kb_inputs(built_index)
        kb = InProcessKnowledgeBase(cards, index.embedder)
        yield kb
        await kb.close()


class TestOpenSearchKnowledgeBase(KnowledgeBaseContract):
    @pytest.fixture
    async def kb(
        self, built_index: Settings, osmem_clone: OsmemClone
    ) -> AsyncIterator[KnowledgeBase]:
        index, cards = real_kb_inputs(built_index)
        kb = OpenSearchKnowledgeBase.connect(osmem_clone.url, cards, index.embedder)
        yield kb
        await kb.close()

    async def test_first_search_indexes_every_card(
        self, kb: OpenSearchKnowledgeBase, osmem_clone: OsmemClone
    ) -> None:
        await kb.search("keyboard", top_k=1)
        client = OpenSearch(hosts=[osmem_clone.url])
        try:
            counted = client.count(index=kb.index_name)
        finally:
            client.close()
        assert counted["count"] == len(kb.cards)

    async def test_a_lost_index_is_filled_again(
        self, kb: OpenSearchKnowledgeBase, osmem_clone: OsmemClone
    ) -> None:
        before = await kb.search("surge protector", top_k=3)
        client = OpenSearch(hosts=[osmem_clone.url])
        try:
            client.indices.delete(index=kb.index_name)
            after = await kb.search("surge protector", top_k=3)
            assert client.count(index=kb.index_name)["count"] == len(kb.cards)
        finally:
            client.close()
        assert [r.card.card_id for r in after] == [r.card.card_id for r in before]
        assert BREAKERS.state("opensearch").failures == 0

    async def test_a_second_process_reuses_the_filled_index(
        self, kb: OpenSearchKnowledgeBase, osmem_clone: OsmemClone, built_index: Settings
    ) -> None:
        first = await kb.search("label maker", top_k=3)
        index, cards = real_kb_inputs(built_index)
        other = OpenSearchKnowledgeBase.connect(osmem_clone.url, cards, index.embedder)
        try:
            second = await other.search("label maker", top_k=3)
        finally:
            await other.close()
        assert [(r.card.card_id, r.score) for r in second] == [
            (r.card.card_id, r.score) for r in first
        ]


async def test_the_factory_picks_the_backend_from_settings(
    built_index: Settings, osmem_clone: OsmemClone
) -> None:
    index, _ = real_kb_inputs(built_index)
    local = await open_knowledge_base(built_index, index)
    remote = await open_knowledge_base(
        built_index.model_copy(update={"opensearch_url": osmem_clone.url}), index
    )
    try:
        assert isinstance(local, InProcessKnowledgeBase)
        assert not local.remote
        assert isinstance(remote, OpenSearchKnowledgeBase)
        assert remote.remote
        assert local.version == remote.version
        assert (await remote.search("webcam", top_k=1))[0].card.category == "webcam"
    finally:
        await local.close()
        await remote.close()


async def test_both_backends_put_the_same_card_first(
    built_index: Settings, osmem_clone: OsmemClone
) -> None:
    index, cards = real_kb_inputs(built_index)
    local = InProcessKnowledgeBase(cards, index.embedder)
    remote = OpenSearchKnowledgeBase.connect(osmem_clone.url, cards, index.embedder)
    try:
        for query in CONGRUENCE_QUERIES:
            mine = await local.search(query, top_k=5)
            theirs = await remote.search(query, top_k=5)
            assert mine[0].card.card_id == theirs[0].card.card_id, query
            assert mine[0].dense == theirs[0].dense, query
            assert {r.card.card_id for r in mine[:3]} & {r.card.card_id for r in theirs[:3]}
    finally:
        await remote.close()


@pytest.fixture
def own_server() -> Iterator[OsmemServer]:
    """A server of this test's own (the shared one must not be killed)."""
    server = OsmemServer.start(japanese=False)
    yield server
    server.close()


async def test_a_killed_server_opens_the_breaker(
    built_index: Settings, own_server: OsmemServer
) -> None:
    index, cards = real_kb_inputs(built_index)
    kb = OpenSearchKnowledgeBase.connect(own_server.url, cards, index.embedder)
    try:
        assert (await kb.search("toner cartridge", top_k=2))[0].card.category == "toner cartridge"
        own_server.process.kill()
        own_server.process.wait()
        with REGISTRY.overridden(BREAKER_OPENSEARCH_FAIL_MAX=2):
            for _ in range(2):
                with pytest.raises(DependencyDown) as info:
                    await kb.search("toner cartridge", top_k=2)
                assert info.value.name == "opensearch"
            assert BREAKERS.state("opensearch").state == "open"
            with pytest.raises(DependencyDown, match="circuit open"):
                await kb.search("keyboard", top_k=2)
    finally:
        await kb.close()
