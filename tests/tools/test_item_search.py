"""item_search on the real full-catalog index behind a real Redis: payload filters, the order
and counts of the post-filters, the relaxed search, dedup, slot candidates and rendering,
cache levels, a vector store that is down, and invalid arguments."""

from __future__ import annotations

import re
import socket
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import pytest_asyncio
from redis.asyncio import Redis

from app.config.params.item_search import (
    ITEM_SEARCH_NEAR_PRICE_FLOOR,
    ITEM_SEARCH_POOL,
    ITEM_SEARCH_RENDER_CAP,
)
from app.config.params.picker import PICK_RERANK_K
from app.config.registry import REGISTRY
from app.config.settings import Settings
from app.recall._qdrant_server_store import QdrantServerStore
from app.recall.bm25_retriever import Bm25Retriever
from app.recall.breakers import BREAKERS
from app.recall.dense_retriever import DenseRetriever
from app.recall.filters import brand_key
from app.recall.pipeline import RecallConfig, RecallPipeline
from app.recall.retriever import Retriever
from app.recall.search_cache import SearchCache
from app.recall.search_index import SearchIndex
from app.runtime import Runtime
from app.tools.base import ToolContext, ToolError, invoke_tool, tool_json_schema
from app.tools.plan.shopping_plan import Constraint, ShoppingPlan
from app.tools.search._postfilters import signature
from app.tools.search.item_search import ItemSearchResult, ItemSearchTool

REDIS_URL = "redis://127.0.0.1:6379/12"
MINI = re.compile(r"(?<![0-9a-z])mini(?![0-9a-z])", re.IGNORECASE)

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module")]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def runtime(built_index: Settings) -> AsyncIterator[Runtime]:
    """One runtime for the module: the real index and model, the search cache on Redis."""
    redis = Redis.from_url(REDIS_URL)
    await redis.flushdb()
    settings = built_index.model_copy(update={"redis_url": REDIS_URL})
    async with Runtime(settings) as opened:
        yield opened
    await redis.flushdb()
    await redis.aclose()


@pytest.fixture(autouse=True)
def _closed_breakers() -> Iterator[None]:
    BREAKERS.reset()
    yield
    BREAKERS.reset()


def context(*excludes: str, **plan: Any) -> ToolContext:
    exclude = tuple(Constraint(term=t) for t in excludes)
    return ToolContext("session", "turn", plan=ShoppingPlan(exclude=exclude, **plan))


async def search(runtime: Runtime, ctx: ToolContext | None = None, **args: Any) -> ItemSearchResult:
    outcome = await invoke_tool(runtime.tool("item_search"), args, ctx or context())
    assert isinstance(outcome.output, ItemSearchResult), outcome.output
    return outcome.output


async def test_is_a_tool_with_a_schema(runtime: Runtime) -> None:
    tool = runtime.tool("item_search")
    assert (tool.name, tool.concurrency_safe, tool.terminal) == ("item_search", True, False)
    schema = tool_json_schema(tool)["function"]
    assert schema["name"] == "item_search"
    assert schema["parameters"]["additionalProperties"] is False
    assert schema["parameters"]["required"] == ["query"]


async def test_every_hit_respects_platform_and_price(runtime: Runtime) -> None:
    result = await search(
        runtime, query="wireless mouse", platform=["amazon", "walmart"], price_usd_max=25
    )
    assert len(result.hits) == result.top_k
    for hit in result.hits:
        assert hit.platform in {"amazon", "walmart"}
        assert hit.price_usd is not None
        assert hit.price_usd <= 25
    assert result.applied.platforms == ["walmart", "amazon"]
    assert result.applied.budget_source == "args"


async def test_plan_budget_and_platforms_are_the_defaults(runtime: Runtime) -> None:
    ctx = context(budget_usd=30.0, platforms=("icecat",))
    result = await search(runtime, ctx, query="hdmi cable")
    assert result.hits
    assert all(h.platform == "icecat" and (h.price_usd or 0) <= 30 for h in result.hits)
    assert result.applied.budget_source == "plan"
    everywhere = await search(runtime, ctx, query="hdmi cable", platform="all")
    assert {h.platform for h in everywhere.hits} - {"icecat"}


async def test_requested_brand_is_a_payload_filter(runtime: Runtime) -> None:
    result = await search(runtime, query="hdmi cable", brand="sony")
    assert len(result.hits) == result.top_k
    assert {brand_key(h.brand) for h in result.hits} == {"sony"}


async def test_a_hit_two_filters_would_remove_is_counted_by_the_first(runtime: Runtime) -> None:
    # Sony cables sold on buy/abt have no brand field: the brand exclude catches them by the
    # maker their title starts with, and the session exclude "sony" would catch them too.
    only_session = await search(runtime, context("sony"), query="sony hdmi cable")
    both = await search(runtime, context("sony"), query="sony hdmi cable", brand_exclude=["Sony"])
    assert only_session.removed["session_exclude"] > 0
    assert both.removed["brand_exclude"] > 0
    # the Sony hits the brand exclude catches are counted by it, not by the session exclude,
    # which keeps only what the brand exclude cannot see (a cable "for Sony" of another maker)
    assert both.removed["session_exclude"] < only_session.removed["session_exclude"]
    for result in (only_session, both):
        assert not any("sony" in (h.title + (h.brand or "")).lower() for h in result.hits)
    with REGISTRY.overridden(RELEVANCE_FLOOR=1.0, RELEVANCE_FLOOR_LEXICAL=1.0):
        floored = await search(
            runtime, context("sony"), query="sony hdmi cable", brand_exclude=["Sony"]
        )
    assert floored.hits == []
    assert floored.removed["relevance_floor"] == ITEM_SEARCH_POOL.get()
    assert floored.removed["brand_exclude"] == floored.removed["session_exclude"] == 0


async def test_session_exclude_comes_before_the_model_number(runtime: Runtime) -> None:
    target = await search(runtime, query="sony hdmi cable", model_number="VMC-15MHD")
    assert target.hits, "the catalog sells the Sony VMC-15MHD cable"
    assert all("vmc15mhd" in h.title.lower().replace("-", "") for h in target.hits)
    assert target.removed["model_number"] > 0
    excluded = await search(
        runtime, context("mini"), query="sony hdmi cable", model_number="VMC-15MHD"
    )
    assert excluded.hits == []
    assert all(MINI.search(h.title) for h in target.hits)
    # the targets mention "mini": the session exclude removes them before the model check,
    # and every other "mini" item it removes is one fewer for the model-number stage
    other_minis = excluded.removed["session_exclude"] - len(target.hits)
    assert other_minis >= 0
    assert excluded.removed["model_number"] == target.removed["model_number"] - other_minis


async def test_exclude_terms_match_whole_words_only(runtime: Runtime) -> None:
    result = await search(runtime, context("mini"), query="hdmi cable", top_k=30)
    assert result.removed["session_exclude"] > 0
    for hit in result.hits:
        assert not any(MINI.search(text or "") for text in (hit.title, hit.brand, hit.category))


async def test_min_rating_is_relaxed_but_budget_and_brand_hold(runtime: Runtime) -> None:
    result = await search(
        runtime, query="wireless mouse", min_rating=4, price_usd_max=20, brand="Logitech"
    )
    assert result.relaxed
    assert result.relaxed_constraints == ["min_rating"]
    assert result.applied.min_rating is None
    assert result.hits
    for hit in result.hits:
        assert brand_key(hit.brand) == "logitech"
        assert hit.price_usd is not None
        assert hit.price_usd <= 20
    assert "Relaxed" in result.render()


async def test_an_approximate_price_puts_the_hits_near_it_first_then_any_price(
    runtime: Runtime,
) -> None:
    share = ITEM_SEARCH_NEAR_PRICE_FLOOR.get()
    around = {"budget_usd": 1650.0, "budget_amount": 1500.0, "budget_target_usd": 1500.0}
    query = ShoppingPlan(category="laptop").query_text()  # as the planner asks ("laptop notebook")
    near = await search(runtime, context(category="laptop", **around), query=query)
    assert near.hits
    assert all(1500 * share <= (h.price_usd or 0) <= 1650 for h in near.hits)
    assert near.applied.price_usd_min is None  # a preference, not a constraint to report
    under = await search(runtime, context(category="laptop", budget_usd=1650.0), query=query)
    assert any((h.price_usd or 0) < 1500 * share for h in under.hits)
    mouse = {"budget_usd": 550.0, "budget_amount": 500.0, "budget_target_usd": 500.0}
    thin = await search(runtime, context(category="mouse", **mouse), query="mouse")
    assert thin.hits  # mice from $350 up are few or none: the search at any price follows
    assert any((h.price_usd or 0) < 500 * share for h in thin.hits)
    assert any("approximate" in note for note in thin.notes)


async def test_duplicates_by_id_and_by_signature_are_dropped(runtime: Runtime) -> None:
    result = await search(runtime, query="laptop", top_k=50)
    assert result.removed["duplicates"] >= 1
    ids = [h.item_id for h in result.hits]
    assert len(ids) == len(set(ids))
    items = runtime.index.items
    signatures = [signature(items[i]) for i in ids]
    assert len(signatures) == len(set(signatures))
    # two Icecat listings of the same Kensington sleeve share title and brand
    assert len({"icecat:1590859", "icecat:1590860"} & set(ids)) == 1


async def test_candidates_are_registered_per_slot_and_only_a_few_rendered(
    runtime: Runtime,
) -> None:
    ctx = context()
    mice = await search(runtime, ctx, query="wireless mouse", top_k=20)
    pads = await search(runtime, ctx, query="mouse pad", top_k=5, slot="pad")
    mouse_ids = [c.item_id for c in ctx.candidates.slot("main")]
    assert len(mice.hits) == 20
    assert mouse_ids[:20] == [h.item_id for h in mice.hits]
    pad_ids = [c.item_id for c in ctx.candidates.slot("pad")]
    assert len(pads.hits) == 5
    assert pad_ids[:5] == [h.item_id for h in pads.hits]
    # every kept hit of the pool is a candidate: deeper than the hits shown and than the
    # gate's quota, so item_picker can pass over accessories that crowd the top
    pool = ITEM_SEARCH_POOL.get()
    for ids in (mouse_ids, pad_ids):
        assert PICK_RERANK_K.get() < len(ids) == len(set(ids)) <= pool
    assert [c.rank for c in ctx.candidates.slot("pad")] == list(range(1, len(pad_ids) + 1))
    assert all(c.query == "mouse pad" for c in ctx.candidates.slot("pad"))
    text = mice.render()
    cap = ITEM_SEARCH_RENDER_CAP.get()
    shown = [line for line in text.splitlines() if line.startswith("[")]
    assert len(shown) == cap < len(mice.hits)
    first = mice.hits[0]
    assert shown[0].startswith(f"[{first.item_id}] {first.title[:40]}")
    assert first.platform in shown[0]
    assert f"+{len(mice.hits) - cap} more" in text
    with REGISTRY.overridden(ITEM_SEARCH_RENDER_CAP=3):
        assert len([ln for ln in mice.render().splitlines() if ln.startswith("[")]) == 3


async def test_cache_level_is_miss_then_l1(runtime: Runtime) -> None:
    first = await search(runtime, query="usb microphone for podcasts")
    second = await search(runtime, query="usb microphone for podcasts")
    assert (first.cache, second.cache) == ("miss", "l1")
    assert [h.item_id for h in first.hits] == [h.item_id for h in second.hits]
    assert first.per_source_counts == second.per_source_counts


async def test_top_k_is_capped_at_call_time(runtime: Runtime) -> None:
    with REGISTRY.overridden(MAX_TOP_K=7):
        result = await search(runtime, query="usb hub", top_k=30)
    assert (result.top_k, result.requested_top_k) == (7, 30)
    assert len(result.hits) == 7
    assert any("capped" in note for note in result.notes)


async def test_a_ceiling_below_the_plans_floor_says_the_floor_was_set_aside(
    runtime: Runtime,
) -> None:
    ctx = context(budget_min_usd=500.0)
    result = await search(runtime, ctx, query="laptop", price_usd_max=300)
    assert result.applied.price_usd_min is None
    assert "the $500.00 price floor is above the $300.00 ceiling" in " ".join(result.notes)
    assert all(h.price_usd is None or h.price_usd <= 300 for h in result.hits)
    kept = await search(runtime, ctx, query="laptop", price_usd_max=900)
    assert kept.applied.price_usd_min == 500
    assert not [note for note in kept.notes if "price floor" in note]


async def test_gibberish_finds_nothing(runtime: Runtime) -> None:
    for query in ("asdkjh qwe", "blorft snazzle", "zzzzzz"):
        result = await search(runtime, query=query)
        assert result.hits == [], query
        assert result.removed["relevance_floor"] > 0
        assert "no relevant items" in result.render()


@pytest.mark.parametrize(
    ("query", "absent"),
    [("earrings", "earrings"), ("laptop bag", None), ("dog food", "dog food"), ("a piano", None)],
)
async def test_a_product_no_item_of_the_catalog_names_is_said_to_be_absent(
    runtime: Runtime, query: str, absent: str | None
) -> None:
    """The demo sells earbuds, not earrings: the search says the catalog lists none, and
    tells the model to say so; a product it sells is never reported absent."""
    result = await search(runtime, query=query)
    assert result.hits
    assert result.absent == absent
    said = f'The catalog lists nothing called "{query}"' in result.render()
    assert said is (absent is not None)


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ({"query": "   "}, "query"),
        ({"query": "mouse", "colour": "red"}, "colour"),
        ({"query": "mouse", "min_rating": 6}, "min_rating"),
        ({"query": "mouse", "price_usd_max": -5}, "price_usd_max"),
        ({"query": "mouse", "top_k": 0}, "top_k"),
        ({"query": "mouse", "brand": "Sony", "brand_exclude": ["sony"]}, ""),
    ],
)
async def test_invalid_arguments_are_a_structured_error(
    runtime: Runtime, args: dict[str, Any], field: str
) -> None:
    ctx = context()
    outcome = await invoke_tool(runtime.tool("item_search"), args, ctx)
    assert isinstance(outcome.output, ToolError)
    assert outcome.output.code == "invalid_arguments"
    assert outcome.output.retry
    assert field in outcome.output.message
    assert ctx.candidates.slots() == []


async def test_unknown_plan_platform_is_an_invalid_request(runtime: Runtime) -> None:
    outcome = await invoke_tool(
        runtime.tool("item_search"), {"query": "mouse"}, context(platforms=("ebay",))
    )
    assert isinstance(outcome.output, ToolError)
    assert outcome.output.code == "invalid_request"
    assert "ebay" in outcome.output.message


@pytest.fixture
def dead_qdrant_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


async def test_vector_store_down_is_dependency_down(runtime: Runtime, dead_qdrant_url: str) -> None:
    index: SearchIndex = runtime.index
    store = QdrantServerStore.connect(dead_qdrant_url)
    dense = DenseRetriever(index.embedder, store, index.collection, index.version, SearchCache())
    sources: list[Retriever] = [dense, Bm25Retriever(index.bm25)]
    try:
        strict = ItemSearchTool(index, RecallPipeline(sources, RecallConfig(policy="strict")))
        outcome = await invoke_tool(strict, {"query": "hdmi cable"}, context())
        assert isinstance(outcome.output, ToolError)
        assert outcome.output.code == "dependency_down"
        assert outcome.output.details == {"dependency": "qdrant"}
        assert not outcome.output.retry

        loose = ItemSearchTool(index, RecallPipeline(sources, RecallConfig(policy="loose")))
        outcome = await invoke_tool(loose, {"query": "hdmi cable"}, context())
        result = outcome.output
        assert isinstance(result, ItemSearchResult)
        assert set(result.failed_sources) == {"dense"}
        assert result.per_source_counts == {"dense": 0, "bm25": 100}
        assert result.cache is None
        assert result.hits
        assert all("dense" not in h.sources for h in result.hits)
        assert any(h.sources == ["bm25"] for h in result.hits)
        assert "unavailable" in result.render()
    finally:
        await store.close()


async def test_hits_naming_the_asked_model_code_come_before_near_models(
    runtime: Runtime,
) -> None:
    result = await search(runtime, query="rtx 2060", top_k=8)
    items = runtime.index.items
    named = [
        "2060" in f"{items[h.item_id].title} {items[h.item_id].description}" for h in result.hits
    ]
    assert any(named), [h.title for h in result.hits]
    assert named == sorted(named, reverse=True), [h.title for h in result.hits]
    assert any("name rtx 2060" in note for note in result.notes)
