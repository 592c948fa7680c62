"""The BM25 memo: a repeated recall is answered from memory, other arguments are not, errors
are not memoised, and switching the search cache off bypasses it."""

from __future__ import annotations

import pytest

from app.catalog.item import Item
from app.config.registry import REGISTRY
from app.recall.bm25 import Bm25Index, query_variant
from app.recall.bm25_retriever import Bm25Retriever
from app.recall.filters import SearchFilters
from app.recall.memo_retriever import MemoRetriever
from app.recall.retriever import Hit, Retriever

ITEMS = [
    Item(item_id=f"icecat:{i}", platform="icecat", title=title, source="test", price_usd=price)
    for i, (title, price) in enumerate(
        [("USB hub 4 port", 19.0), ("USB-C hub with HDMI", 49.0), ("HDMI cable 2 m", 9.0)]
    )
]


class Counting:
    """A real BM25 source that counts the recalls it serves and can be made to fail."""

    source = "bm25"

    def __init__(self) -> None:
        self.inner = Bm25Retriever(Bm25Index.build(ITEMS))
        self.calls = 0
        self.error: Exception | None = None

    async def recall(self, query: str, filters: SearchFilters, *, top_k: int) -> list[Hit]:
        self.calls += 1
        if self.error is not None:
            raise self.error
        return await self.inner.recall(query, filters, top_k=top_k)


async def test_repeats_come_from_memory() -> None:
    source = Counting()
    memo = MemoRetriever(source, index_version="v1")
    assert isinstance(memo, Retriever)
    assert memo.source == "bm25"
    first = await memo.recall("usb hub", SearchFilters(), top_k=5)
    again = await memo.recall("  USB   hub ", SearchFilters(), top_k=5)
    assert first == again
    assert [h.item_id for h in first][:2] == ["icecat:0", "icecat:1"]
    assert (source.calls, memo.hits, memo.misses) == (1, 1, 1)
    cheap = await memo.recall("usb hub", SearchFilters.build(price_max=20), top_k=5)
    assert [h.item_id for h in cheap] == ["icecat:0"]
    await memo.recall("usb hub", SearchFilters(), top_k=1)
    assert source.calls == 3


async def test_errors_are_not_memoised_and_the_switch_bypasses_it() -> None:
    source = Counting()
    memo = MemoRetriever(source)
    source.error = OSError("disk")
    for _ in range(2):
        with pytest.raises(OSError, match="disk"):
            await memo.recall("hdmi", SearchFilters(), top_k=3)
    source.error = None
    assert await memo.recall("hdmi", SearchFilters(), top_k=3)
    assert source.calls == 3
    with REGISTRY.overridden(SEARCH_CACHE_ENABLED=False):
        await memo.recall("hdmi", SearchFilters(), top_k=3)
    assert source.calls == 4
    memo.clear()
    await memo.recall("hdmi", SearchFilters(), top_k=3)
    assert source.calls == 5


async def test_a_change_of_the_bm25_standard_weight_is_not_answered_from_memory() -> None:
    source = Counting()
    memo = MemoRetriever(source, index_version="v1", variant=query_variant)
    await memo.recall("usb c hub", SearchFilters(), top_k=3)
    await memo.recall("usb c hub", SearchFilters(), top_k=3)
    assert source.calls == 1
    with REGISTRY.overridden(BM25_STANDARD_WEIGHT=1):
        await memo.recall("usb c hub", SearchFilters(), top_k=3)
    assert source.calls == 2
    await memo.recall("usb c hub", SearchFilters(), top_k=3)
    assert source.calls == 2
