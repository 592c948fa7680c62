"""The behaviour every `KnowledgeBase` backend must show over the real catalog's cards.
Backend classes inherit `KnowledgeBaseContract` and provide an async `kb` fixture;
`real_kb_inputs()` opens the real index once per process for every module that needs it."""

from __future__ import annotations

import functools

import pytest

from app.config.params.category_kb import KB_WEIGHT_BM25, KB_WEIGHT_DENSE
from app.config.settings import Settings
from app.errors import InvalidRequest
from app.recall.category_kb import CardIndex, KnowledgeBase, load_card_index
from app.recall.search_index import SearchIndex

NAMED_CATEGORIES = ("toner cartridge", "keyboard", "USB cable", "projector lamp", "motherboard")
ALIAS_QUERIES = {"keyboards": "keyboard", "mice": "mouse", "usb flash drives": "USB flash drive"}


@functools.cache
def real_kb_inputs(settings: Settings) -> tuple[SearchIndex, CardIndex]:
    """The real index (built by the `built_index` fixture) and its category cards."""
    index = SearchIndex.open(settings)
    return index, load_card_index(settings, index)


def card_named(cards: CardIndex, category: str) -> str:
    """The id of the card whose display name is `category`."""
    return next(c.card_id for c in cards.cards if c.category == category)


class KnowledgeBaseContract:
    """Inherit and provide an async `kb` fixture yielding a `KnowledgeBase` over the real
    cards (`real_kb_inputs`)."""

    async def test_satisfies_the_protocol(self, kb: KnowledgeBase) -> None:
        assert isinstance(kb, KnowledgeBase)
        assert isinstance(kb.name, str)
        assert isinstance(kb.remote, bool)
        assert kb.version
        assert len(kb.cards) > 100

    async def test_results_are_best_first_unique_and_bounded(self, kb: KnowledgeBase) -> None:
        for query, top_k in (("usb cable", 5), ("printer", 12), ("wireless headphones", 1)):
            results = await kb.search(query, top_k=top_k)
            assert 0 < len(results) <= top_k
            scores = [r.score for r in results]
            assert scores == sorted(scores, reverse=True)
            assert all(0.0 <= s <= 1.0 for s in scores)
            assert len({r.card.card_id for r in results}) == len(results)
            for r in results:
                assert -1.0 <= r.dense <= 1.0
                assert 0.0 <= r.lexical_share <= 1.0
                if r.lexical is None:
                    assert r.lexical_share == 0.0

    @pytest.mark.parametrize("category", NAMED_CATEGORIES)
    async def test_a_category_name_finds_its_card_first(
        self, kb: KnowledgeBase, category: str
    ) -> None:
        results = await kb.search(category, top_k=3)
        assert results[0].card.category == category
        assert results[0].lexical is not None, "BM25 must match a category's own name"

    @pytest.mark.parametrize(("query", "category"), sorted(ALIAS_QUERIES.items()))
    async def test_an_alias_finds_the_merged_card(
        self, kb: KnowledgeBase, query: str, category: str
    ) -> None:
        results = await kb.search(query, top_k=3)
        assert results[0].card.category == category
        assert query in results[0].card.aliases

    async def test_stop_words_only_still_answer_from_the_dense_side(
        self, kb: KnowledgeBase
    ) -> None:
        results = await kb.search("the of and", top_k=4)
        assert len(results) == 4
        assert all(r.lexical is None and r.lexical_share == 0.0 for r in results)
        dense, bm25 = KB_WEIGHT_DENSE.get(), KB_WEIGHT_BM25.get()
        assert results[0].score == pytest.approx(dense / (dense + bm25))

    async def test_blank_query_finds_nothing(self, kb: KnowledgeBase) -> None:
        assert await kb.search("   ", top_k=3) == []
        assert await kb.search("", top_k=3) == []

    async def test_top_k_must_be_positive(self, kb: KnowledgeBase) -> None:
        with pytest.raises(InvalidRequest):
            await kb.search("keyboard", top_k=0)

    async def test_top_k_beyond_the_cards_returns_what_there_is(self, kb: KnowledgeBase) -> None:
        results = await kb.search("cable", top_k=len(kb.cards) + 50)
        assert len(results) == len(kb.cards)

    async def test_same_query_same_answer(self, kb: KnowledgeBase) -> None:
        first = await kb.search("external hard drive", top_k=5)
        second = await kb.search("  external   hard drive ", top_k=5)
        assert [(r.card.card_id, r.score) for r in first] == [
            (r.card.card_id, r.score) for r in second
        ]
