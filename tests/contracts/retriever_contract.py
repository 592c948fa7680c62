"""The behaviour every `Retriever` (recall source) must show: at most `top_k` distinct indexed
items, best first, each passing the filters; an item's own title finds it; a filter nothing
passes and a blank query give `[]`; a smaller `top_k` is a prefix of a larger one; a bad
`top_k` is `InvalidRequest`.

Backend test classes inherit `RetrieverContract` and provide a `retriever` fixture and an
`items` fixture: the items that retriever indexes, by id (filters are checked against
`SearchFilters.matches` on their payload, the reference).
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from app.catalog.item import Item
from app.errors import InvalidRequest
from app.recall.filters import SearchFilters
from app.recall.retriever import Hit, Retriever
from app.recall.vector_store import item_payload

QUERIES = ("wireless mouse", "usb flash drive", "laptop sleeve 15 inch", "printer toner")
FOUND_WITHIN = 10


def filter_cases(items: Mapping[str, Item]) -> list[SearchFilters]:
    """Filters the sample exercises: platforms, a price range, a brand in and out (its
    commonest brand) and, when it has ratings, a rating floor (its median), so each keeps
    some items."""
    brands = [i.brand for i in items.values() if i.brand]
    common = max(set(brands), key=brands.count)
    ratings = sorted(i.rating for i in items.values() if i.rating is not None)
    cases = [
        SearchFilters.build(platforms=["amazon", "walmart"]),
        SearchFilters.build(price_min=10, price_max=80),
        SearchFilters.build(brands_in=[common]),
        SearchFilters.build(brands_out=[common], platforms="icecat"),
    ]
    if ratings:
        cases.append(SearchFilters.build(rating_min=ratings[len(ratings) // 2]))
    return cases


class RetrieverContract:
    """Inherit and provide `retriever` and `items` fixtures."""

    @pytest.fixture
    def retriever(self) -> Retriever:
        raise NotImplementedError

    @pytest.fixture
    def items(self) -> Mapping[str, Item]:
        raise NotImplementedError

    def test_is_a_retriever_with_a_name(self, retriever: Retriever) -> None:
        assert isinstance(retriever, Retriever)
        assert isinstance(retriever.source, str)
        assert retriever.source

    async def test_hits_are_distinct_indexed_items_best_first(
        self, retriever: Retriever, items: Mapping[str, Item]
    ) -> None:
        for query in QUERIES:
            hits = await retriever.recall(query, SearchFilters(), top_k=15)
            assert hits, query
            assert len(hits) <= 15
            assert all(isinstance(h, Hit) for h in hits)
            ids = [h.item_id for h in hits]
            assert len(set(ids)) == len(ids)
            assert set(ids) <= set(items)
            scores = [h.score for h in hits]
            assert scores == sorted(scores, reverse=True)

    async def test_an_item_s_title_finds_it(
        self, retriever: Retriever, items: Mapping[str, Item]
    ) -> None:
        sample = list(items.values())
        for item in (sample[3], sample[len(sample) // 2], sample[-5]):
            hits = await retriever.recall(item.title, SearchFilters(), top_k=FOUND_WITHIN)
            assert item.item_id in [h.item_id for h in hits], item.title

    async def test_every_hit_passes_the_filters(
        self, retriever: Retriever, items: Mapping[str, Item]
    ) -> None:
        for filters in filter_cases(items):
            kept = [i for i in items.values() if filters.matches(item_payload(i))]
            assert kept, f"the sample has no item for {filters.key()}"
            hits = await retriever.recall("usb cable adapter", filters, top_k=20)
            assert all(filters.matches(item_payload(items[h.item_id])) for h in hits)

    async def test_a_filter_nothing_passes_gives_no_hits(self, retriever: Retriever) -> None:
        nothing = SearchFilters.build(price_min=10_000_000)
        assert await retriever.recall("wireless mouse", nothing, top_k=10) == []

    async def test_a_blank_query_gives_no_hits(self, retriever: Retriever) -> None:
        assert await retriever.recall("   ", SearchFilters(), top_k=10) == []

    async def test_a_smaller_top_k_is_a_prefix_and_recall_is_repeatable(
        self, retriever: Retriever
    ) -> None:
        for query in QUERIES:
            wide = [h.item_id for h in await retriever.recall(query, SearchFilters(), top_k=12)]
            narrow = [h.item_id for h in await retriever.recall(query, SearchFilters(), top_k=4)]
            again = [h.item_id for h in await retriever.recall(query, SearchFilters(), top_k=12)]
            assert narrow == wide[:4], query
            assert again == wide

    async def test_top_k_below_one_is_an_invalid_request(self, retriever: Retriever) -> None:
        with pytest.raises(InvalidRequest, match="top_k"):
            await retriever.recall("wireless mouse", SearchFilters(), top_k=0)
