"""A repeat of item_search is answered from the memo of finished searches: the same result and
candidates without touching recall; anything the search depends on (its arguments, the plan,
a parameter) is part of the key, and an incomplete search is never kept."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import pytest_asyncio

from app.config.registry import REGISTRY
from app.config.settings import Settings
from app.recall._qdrant_server_store import QdrantServerStore
from app.recall.bm25_retriever import Bm25Retriever
from app.recall.breakers import BREAKERS
from app.recall.dense_retriever import DenseRetriever
from app.recall.pipeline import RecallConfig, RecallPipeline
from app.recall.search_cache import SearchCache
from app.runtime import Runtime
from app.tools.base import ToolContext, invoke_tool
from app.tools.plan.shopping_plan import ShoppingPlan
from app.tools.search.item_search import ItemSearchResult, ItemSearchTool

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module")]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def runtime(built_index: Settings) -> AsyncIterator[Runtime]:
    async with Runtime(built_index.model_copy(update={"redis_url": None})) as opened:
        yield opened


@pytest.fixture(autouse=True)
def _closed_breakers() -> Iterator[None]:
    BREAKERS.reset()
    yield
    BREAKERS.reset()


def tool_of(runtime: Runtime) -> ItemSearchTool:
    tool = runtime.tool("item_search")
    assert isinstance(tool, ItemSearchTool)
    return tool


async def search(
    tool: ItemSearchTool, ctx: ToolContext | None = None, **args: Any
) -> ItemSearchResult:
    outcome = await invoke_tool(tool, args, ctx or ToolContext("s", "t"))
    assert isinstance(outcome.output, ItemSearchResult), outcome.output
    return outcome.output


async def test_a_repeat_is_the_same_answer_without_recall(runtime: Runtime) -> None:
    tool = tool_of(runtime)
    first_ctx, again_ctx = ToolContext("s1", "t"), ToolContext("s2", "t")
    first = await search(tool, first_ctx, query="mechanical gaming keyboard")
    kept = len(tool.memo)
    counters = runtime.dense.counters
    again = await search(tool, again_ctx, query="mechanical gaming keyboard")
    assert runtime.dense.counters == counters, "the memo answered without the dense recall"
    assert len(tool.memo) == kept
    assert (first.cache, again.cache) == ("miss", "l1")
    assert again.hits == first.hits
    assert again.model_dump(exclude={"cache", "timings_ms"}) == first.model_dump(
        exclude={"cache", "timings_ms"}
    )
    assert "result_memo" in again.timings_ms
    assert again_ctx.candidates.slot("main") == first_ctx.candidates.slot("main")
    assert len(again_ctx.candidates.slot("main")) >= len(again.hits)


async def test_what_the_search_depends_on_is_in_the_key(runtime: Runtime) -> None:
    tool = tool_of(runtime)
    await search(tool, query="wireless ergonomic mouse")
    kept = len(tool.memo)
    await search(tool, query="wireless ergonomic mouse", top_k=3)
    assert len(tool.memo) == kept + 1
    budget = ToolContext("s", "t", plan=ShoppingPlan(budget_usd=30.0))
    cheap = await search(tool, budget, query="wireless ergonomic mouse")
    assert len(tool.memo) == kept + 2
    assert all(h.price_usd is not None and h.price_usd <= 30 for h in cheap.hits)
    with REGISTRY.overridden(RELEVANCE_FLOOR=0.6):
        await search(tool, query="wireless ergonomic mouse")
    assert len(tool.memo) == kept + 3


async def test_the_memo_keeps_nothing_when_switched_off(runtime: Runtime) -> None:
    tool = tool_of(runtime)
    kept = len(tool.memo)
    with REGISTRY.overridden(SEARCH_RESULT_MEMO_ENTRIES=0):
        await search(tool, query="graphics tablet with pen")
        await search(tool, query="graphics tablet with pen")
    assert len(tool.memo) == kept
    with REGISTRY.overridden(SEARCH_CACHE_ENABLED=False):
        result = await search(tool, query="graphics tablet with pen")
    assert len(tool.memo) == kept
    assert result.cache == "miss"


async def test_a_search_missing_a_source_is_not_kept(runtime: Runtime) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    index = runtime.index
    store = QdrantServerStore.connect(f"http://127.0.0.1:{port}")
    dense = DenseRetriever(index.embedder, store, index.collection, index.version, SearchCache())
    loose = RecallPipeline([dense, Bm25Retriever(index.bm25)], RecallConfig(policy="loose"))
    try:
        tool = ItemSearchTool(index, loose)
        result = await search(tool, query="hdmi cable")
        assert set(result.failed_sources) == {"dense"}
        assert len(tool.memo) == 0
    finally:
        await store.close()
