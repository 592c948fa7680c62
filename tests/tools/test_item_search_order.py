"""The order item_search shows is the recall in force, then the asked product first: the
fusion and ordering chosen on the extended judgments (docs/evaluation.md) are what a turn
gets, measured through the tool on the real index, not by reading the parameters back."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from app.config.params.item_search import (
    ITEM_SEARCH_NAMED_FIRST_WINDOW,
    ITEM_SEARCH_POOL,
    ITEM_SEARCH_RELEVANCE_WEIGHT,
)
from app.config.params.recall import (
    FUSION_METHOD,
    FUSION_WEIGHT_BM25,
    FUSION_WEIGHT_DENSE,
    RECALL_DEPTH,
)
from app.config.registry import REGISTRY
from app.config.settings import Settings
from app.recall.filters import SearchFilters
from app.recall.fusion import fuse
from app.runtime import Runtime
from app.tools.base import ToolContext, invoke_tool
from app.tools.search._product import names_product, read_product
from app.tools.search.item_search import ItemSearchResult

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module")]

ICECAT = SearchFilters.build(platforms=["icecat"])


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def runtime(built_index: Settings) -> AsyncIterator[Runtime]:
    async with Runtime(built_index.model_copy(update={"redis_url": None})) as opened:
        yield opened


async def shown(runtime: Runtime, query: str, top_k: int) -> list[str]:
    args = {"query": query, "platform": "icecat", "top_k": top_k}
    outcome = await invoke_tool(runtime.tool("item_search"), args, ToolContext("s", query))
    assert isinstance(outcome.output, ItemSearchResult), outcome.output
    return [h.item_id for h in outcome.output.hits]


async def fused_ids(runtime: Runtime, query: str) -> list[str]:
    """The fusion the registry declares, over the runtime's own two sources' hits."""
    pool = ITEM_SEARCH_POOL.get()
    depth = max(pool, RECALL_DEPTH.get())
    runs = {
        source.source: await source.recall(query, ICECAT, top_k=depth)
        for source in (runtime.dense, runtime.bm25)
    }
    weights = {"dense": FUSION_WEIGHT_DENSE.get(), "bm25": FUSION_WEIGHT_BM25.get()}
    hits = fuse(FUSION_METHOD.get(), runs, weights=weights, limit=pool)  # type: ignore[arg-type]
    return [h.item_id for h in hits]


async def recall_ids(runtime: Runtime, query: str) -> list[str]:
    """The recall in force as the tool gets it: the fusion's head, then the sheet store's
    tail (docs/evaluation.md)."""
    response = await runtime.pipeline.run(query, ICECAT, top_k=ITEM_SEARCH_POOL.get())
    return [h.item_id for h in response.hits]


async def test_a_search_without_an_asked_product_shows_the_fused_order(runtime: Runtime) -> None:
    query = "wireless"
    assert read_product(query) is None
    ids = await shown(runtime, query, 20)
    fused = [i for i in await fused_ids(runtime, query) if i in set(ids)]
    assert len(ids) >= 10
    assert ids == fused


async def test_the_asked_product_goes_first_within_the_window(runtime: Runtime) -> None:
    query = "laptop"
    product = read_product(query)
    assert product is not None
    items = runtime.index.items
    pool = ITEM_SEARCH_POOL.get()
    with REGISTRY.overridden(ITEM_SEARCH_NAMED_FIRST_WINDOW=pool):
        ids = await shown(runtime, query, pool)
    named = {i for i in ids if names_product(items[i], product, query)}
    assert named
    assert len(named) < len(ids)
    recalled = [i for i in await recall_ids(runtime, query) if i in set(ids)]
    assert ids == [i for i in recalled if i in named] + [i for i in recalled if i not in named]


async def test_by_default_the_asked_product_leads(runtime: Runtime) -> None:
    query = "laptop"
    product = read_product(query)
    assert product is not None
    assert ITEM_SEARCH_NAMED_FIRST_WINDOW.get() > 0
    ids = await shown(runtime, query, 10)
    fused = await fused_ids(runtime, query)
    assert not names_product(runtime.index.items[fused[0]], product, query)
    assert names_product(runtime.index.items[ids[0]], product, query)


async def test_without_a_relevance_model_the_order_is_the_fused_one_and_says_so(
    built_index: Settings, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A var folder with the index but no models: item_search keeps today's order whatever
    weight the relevance model is given, and its result tells why."""
    var = tmp_path_factory.mktemp("no-models")
    (var / "index").symlink_to(built_index.index_dir.resolve())
    bare = built_index.model_copy(update={"redis_url": None, "var_dir": var})
    async with Runtime(bare) as opened:
        args = {"query": "wireless", "platform": "icecat", "top_k": 20}
        with REGISTRY.overridden(**{ITEM_SEARCH_RELEVANCE_WEIGHT.name: 0.8}):
            outcome = await invoke_tool(opened.tool("item_search"), args, ToolContext("s", "q"))
        assert isinstance(outcome.output, ItemSearchResult), outcome.output
        assert outcome.output.ranking is not None
        assert outcome.output.ranking.startswith("fused order: no relevance model")
        ids = [h.item_id for h in outcome.output.hits]
        assert len(ids) >= 10
        assert ids == [i for i in await fused_ids(opened, "wireless") if i in set(ids)]
