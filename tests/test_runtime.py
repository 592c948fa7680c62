"""The composition root on the real index and a real Redis: what it wires, the search cache
shared through Redis by two runtimes, one encode for concurrent identical searches, and
what it closes (an injected index stays open), and the catalog vocabulary it gives the
planner while open."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from redis.asyncio import Redis

from app.agent._session_stores import KEY_PREFIX
from app.config.settings import Settings
from app.errors import ConfigError
from app.recall.memo_retriever import MemoRetriever
from app.runtime import Runtime
from app.runtime_agent import warm_up
from app.tools.base import ToolContext, invoke_tool
from app.tools.plan import current_vocabulary
from app.tools.search.item_search import ItemSearchResult, ItemSearchTool

REDIS_URL = "redis://127.0.0.1:6379/13"

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module")]


@pytest.fixture(scope="module")
def redis_settings(built_index: Settings) -> Settings:
    return built_index.model_copy(update={"redis_url": REDIS_URL})


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def runtime(redis_settings: Settings) -> AsyncIterator[Runtime]:
    """A runtime built from settings alone: it opens the index and the model itself."""
    redis = Redis.from_url(REDIS_URL)
    await redis.flushdb()
    async with Runtime(redis_settings) as opened:
        yield opened
    await redis.flushdb()
    await redis.aclose()


async def search(runtime: Runtime, query: str) -> ItemSearchResult:
    outcome = await invoke_tool(
        runtime.tool("item_search"), {"query": query}, ToolContext("s", "t")
    )
    assert isinstance(outcome.output, ItemSearchResult), outcome.output
    return outcome.output


async def test_wires_the_index_sources_and_tools(runtime: Runtime) -> None:
    assert runtime.index.version == (runtime.settings.index_dir / "CURRENT").read_text().strip()
    assert runtime.pipeline.sources == ("dense", "bm25")
    assert isinstance(runtime.bm25, MemoRetriever)
    assert runtime.cache.l2.remote
    assert set(runtime.tools) == {
        "item_search",
        "price_compare",
        "item_picker",
        "planner",
        "shopping_summary",
        "chat_fallback",
        "category_insight",
        "similar_items",
    }
    assert isinstance(runtime.tool("item_search"), ItemSearchTool)
    assert current_vocabulary() is runtime.index.vocabulary, "the planner reads its kinds"
    assert runtime.index.vocabulary.kinds
    assert runtime.index.vocabulary.brands
    with pytest.raises(ConfigError, match="no tool 'nope'"):
        runtime.tool("nope")
    with pytest.raises(ConfigError, match="already open"):
        await runtime.open()


async def test_a_second_runtime_is_answered_from_redis(
    runtime: Runtime, redis_settings: Settings
) -> None:
    first = await search(runtime, "portable bluetooth speaker")
    assert first.cache == "miss"
    async with Runtime(redis_settings, index=runtime.index) as other:
        again = await search(other, "portable bluetooth speaker")
        assert other.dense.counters.encodes == 0
    assert again.cache == "l2"
    assert [h.item_id for h in again.hits] == [h.item_id for h in first.hits]


async def test_concurrent_identical_searches_encode_and_query_once(runtime: Runtime) -> None:
    before = runtime.dense.counters
    results = await asyncio.gather(*(search(runtime, "ergonomic vertical mouse") for _ in range(8)))
    after = runtime.dense.counters
    assert after.encodes - before.encodes == 1
    assert after.vector_queries - before.vector_queries == 1
    assert len({tuple(h.item_id for h in r.hits) for r in results}) == 1
    vector = await runtime.dense.query_vector("Ergonomic  vertical MOUSE")
    assert runtime.dense.counters.encodes == after.encodes, "memoised by the recall"
    assert abs(sum(x * x for x in vector) - 1.0) < 1e-4


async def test_a_warm_up_runs_the_real_offline_turn_and_saves_no_session(runtime: Runtime) -> None:
    redis = Redis.from_url(REDIS_URL)
    sessions = set(await redis.keys(f"{KEY_PREFIX}*"))
    encodes = runtime.dense.counters.encodes
    assert await warm_up(runtime) > 0
    assert runtime.dense.counters.encodes > encodes, "the turn searched the real index"
    assert set(await redis.keys(f"{KEY_PREFIX}*")) == sessions
    await redis.aclose()


async def test_close_releases_what_it_opened_but_not_an_injected_index(
    runtime: Runtime, redis_settings: Settings
) -> None:
    borrowed = Runtime(redis_settings, index=runtime.index)
    async with borrowed:
        assert (await search(borrowed, "usb hub")).hits
    assert borrowed.tools == {}
    assert current_vocabulary() is runtime.index.vocabulary, "put back on close"
    with pytest.raises(ConfigError, match="not open"):
        _ = borrowed.pipeline
    await borrowed.close()
    assert await runtime.index.store.count(runtime.index.collection) == len(runtime.index.items)
    assert (await search(runtime, "usb hub")).hits
