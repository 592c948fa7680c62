"""category_insight over the real catalog's cards: real category phrases resolve, plural and
typo forms find the right card, nonsense stays unresolved, arguments are checked, and a
killed OpenSearch server reaches the model as a `dependency_down` tool error."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
from osmem_server import OsmemServer

from app.config.params.category_kb import KB_CONFIDENCE_THRESHOLD, KB_TOP_K
from app.config.registry import REGISTRY
from app.config.settings import Settings
from app.recall._kb_opensearch import OpenSearchKnowledgeBase
from app.recall.breakers import BREAKERS
from app.recall.category_kb import InProcessKnowledgeBase
from app.tools.base import ToolContext, ToolError, invoke_tool, tool_json_schema
from app.tools.browse.category_insight import CategoryInsightResult, CategoryInsightTool
from tests.contracts.knowledge_base_contract import real_kb_inputs

pytestmark = pytest.mark.slow

RESOLVES = {
    "toner cartridge": {"toner cartridge"},
    "Toner Cartridges": {"toner cartridge"},
    "gaming keyboard": {"keyboard"},
    "keyboards": {"keyboard"},
    "laptop": {"notebook", "laptops", "laptop computers"},
    "notebook": {"notebook"},
    "usb cable": {"USB cable"},
    "wireless mouse": {"mouse"},
    "external hard drive": {"external hard drive"},
}
NONSENSE = ("asdkjh qwe", "xqzv blorf", "what is love", "weather tomorrow")


@pytest.fixture
async def tool(built_index: Settings) -> AsyncIterator[CategoryInsightTool]:
    index, cards = real_kb_inputs(built_index)
    kb = InProcessKnowledgeBase(cards, index.embedder)
    yield CategoryInsightTool(kb)
    await kb.close()


@pytest.fixture(autouse=True)
def _closed_breakers() -> Iterator[None]:
    BREAKERS.reset()
    yield
    BREAKERS.reset()


def ctx() -> ToolContext:
    return ToolContext("session", "turn")


async def insight(tool: CategoryInsightTool, **args: object) -> CategoryInsightResult:
    outcome = await invoke_tool(tool, dict(args), ctx())
    assert isinstance(outcome.output, CategoryInsightResult), outcome.output
    return outcome.output


@pytest.mark.parametrize(("query", "expected"), sorted(RESOLVES.items()))
async def test_real_categories_resolve(
    tool: CategoryInsightTool, query: str, expected: set[str]
) -> None:
    result = await insight(tool, query=query)
    assert result.category in expected
    assert result.confidence >= KB_CONFIDENCE_THRESHOLD.get()
    assert result.cards[0].category == result.category
    assert 0.0 <= result.margin <= 1.0


async def test_a_typo_still_finds_the_card_but_is_not_sure(tool: CategoryInsightTool) -> None:
    result = await insight(tool, query="keybaord")
    assert result.cards[0].category == "keyboard"
    assert result.confidence < (await insight(tool, query="keyboard")).confidence


@pytest.mark.parametrize("query", NONSENSE)
async def test_nonsense_names_no_category(tool: CategoryInsightTool, query: str) -> None:
    result = await insight(tool, query=query)
    assert result.category is None
    assert result.confidence < KB_CONFIDENCE_THRESHOLD.get()
    assert result.cards, "the closest cards are still shown"
    assert "no confident category" in result.render()


async def test_the_threshold_decides_what_is_named(tool: CategoryInsightTool) -> None:
    with REGISTRY.overridden(KB_CONFIDENCE_THRESHOLD=0.0):
        loose = await insight(tool, query="xqzv blorf")
    assert loose.category == loose.cards[0].category
    with REGISTRY.overridden(KB_CONFIDENCE_THRESHOLD=1.0):
        strict = await insight(tool, query="gaming keyboard")
    assert strict.category is None


async def test_cards_are_compact_and_match_the_catalog(
    tool: CategoryInsightTool, built_index: Settings
) -> None:
    result = await insight(tool, query="toner cartridge", top_k=5)
    assert len(result.cards) == 5
    toner = result.cards[0]
    index, _ = real_kb_inputs(built_index)
    prices = [
        i.price_usd
        for i in index.items.values()
        if i.category == "toner cartridge" and i.price_usd is not None
    ]
    assert toner.price_usd is not None
    assert (toner.price_usd[0], toner.price_usd[2]) == (min(prices), max(prices))
    assert toner.platforms == ["icecat"]
    assert toner.labels == ["toner cartridge"]
    text = result.render()
    assert text.startswith("category: toner cartridge (confidence ")
    assert f"${min(prices):,.2f}" in text
    assert len(text.splitlines()) == 6


async def test_default_top_k_comes_from_the_parameter(tool: CategoryInsightTool) -> None:
    assert len((await insight(tool, query="printer")).cards) == KB_TOP_K.get()
    with REGISTRY.overridden(KB_TOP_K=1):
        single = await insight(tool, query="printer")
    assert len(single.cards) == 1
    assert single.margin < 1.0, "the margin still compares the best card with the second"


@pytest.mark.parametrize(
    "args",
    [
        {},
        {"query": "   "},
        {"query": "mouse", "top_k": 0},
        {"query": "mouse", "top_k": 11},
        {"query": "mouse", "category": "x"},
    ],
)
async def test_bad_arguments_come_back_as_tool_errors(
    tool: CategoryInsightTool, args: dict[str, object]
) -> None:
    outcome = await invoke_tool(tool, args, ctx())
    assert isinstance(outcome.output, ToolError)
    assert outcome.output.code == "invalid_arguments"
    assert outcome.output.retry


def test_the_tool_describes_itself(tool: CategoryInsightTool) -> None:
    schema = tool_json_schema(tool)
    assert schema["function"]["name"] == "category_insight"
    assert schema["function"]["parameters"]["required"] == ["query"]
    assert tool.concurrency_safe
    assert not tool.terminal


async def test_a_killed_opensearch_becomes_dependency_down(built_index: Settings) -> None:
    index, cards = real_kb_inputs(built_index)
    server = OsmemServer.start(japanese=False)
    kb = OpenSearchKnowledgeBase.connect(server.url, cards, index.embedder)
    tool = CategoryInsightTool(kb)
    try:
        assert (await insight(tool, query="usb cable")).category == "USB cable"
        server.process.kill()
        server.process.wait()
        for _ in range(4):
            outcome = await invoke_tool(tool, {"query": "usb cable"}, ctx())
            assert isinstance(outcome.output, ToolError)
            assert outcome.output.code == "dependency_down"
            assert outcome.output.details == {"dependency": "opensearch"}
            assert not outcome.output.retry
        assert BREAKERS.state("opensearch").state == "open"
        assert isinstance(outcome.output, ToolError)
        assert "circuit open" in outcome.output.message
    finally:
        await kb.close()
        server.close()
