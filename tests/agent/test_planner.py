"""The planner tool against the scripted OpenAI server: a valid structured plan, a repair
after an invalid one, the rules after two, the rules when the LLM is down, and the rules'
budget, currency and negations laid over the LLM's plan; plus platform scope rules."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from app.catalog.item import Item
from app.catalog.spelling import Respelling, Speller
from app.config.registry import REGISTRY
from app.language.shops import ShopNames
from app.tools.base import ToolContext, invoke_tool
from app.tools.llm._openai_chat import OpenAIChatModel
from app.tools.plan.planner_rules import plan_from_text
from app.tools.plan.readings import counting_readings
from app.tools.plan.shopping_plan import Constraint, ShoppingPlan
from app.tools.planner.planner import PlannerResult, PlannerTool, platform_scope
from tests.fakes.scripted_openai import ScriptedOpenAI, fail, structured

MESSAGES = ["quiet headphones under €80, not Bose", "preferably black"]


@pytest.fixture
async def model(scripted_openai: ScriptedOpenAI) -> AsyncIterator[OpenAIChatModel]:
    chat = OpenAIChatModel(scripted_openai.base_url)
    yield chat
    await chat.close()


async def plan_with(
    tool: PlannerTool, messages: list[str], ctx: ToolContext | None = None
) -> PlannerResult:
    outcome = await invoke_tool(tool, {"messages": messages}, ctx or ToolContext("s", "t"))
    assert isinstance(outcome.output, PlannerResult), outcome.output
    return outcome.output


async def test_a_valid_llm_plan_is_used_with_the_rules_laid_over_it(
    scripted_openai: ScriptedOpenAI, model: OpenAIChatModel
) -> None:
    scripted_openai.script(
        "plan",
        structured(
            {
                "category": "over-ear headphones",
                "keywords": ["quiet", "bose", "noise cancelling"],
                "prefer": ["black"],
                "exclude": [{"term": "sony", "evidence": "made up"}],
                "budget_usd": 500,
                "currency": "GBP",
                "platforms": ["amazon", "ebay"],
            }
        ),
    )
    result = await plan_with(PlannerTool(model), MESSAGES)
    rules = plan_from_text(MESSAGES)
    plan = result.plan
    assert result.source == "llm"
    assert plan.category == "over-ear headphones"
    assert plan.keywords == ("quiet", "noise cancelling")
    assert (plan.budget_usd, plan.budget_amount, plan.currency) == (
        rules.budget_usd,
        80.0,
        "EUR",
    )
    assert plan.exclude == (Constraint(term="bose", evidence="not Bose"),)
    assert plan.prefer == ("black",)
    assert plan.platforms == ("amazon",)
    (request,) = scripted_openai.requests("plan")
    response_format = request.body["response_format"]
    assert response_format["json_schema"]["name"] == "shopping_plan"
    assert response_format["json_schema"]["schema"] == ShoppingPlan.model_json_schema()
    assert "1. quiet headphones under €80, not Bose" in request.messages[-1]["content"]


async def test_an_invalid_plan_is_repaired_once_with_the_validation_error(
    scripted_openai: ScriptedOpenAI, model: OpenAIChatModel
) -> None:
    scripted_openai.script(
        "plan",
        structured({"category": "headphones", "budget_usd": -5}),
        structured({"category": "headphones", "keywords": ["quiet"]}),
    )
    result = await plan_with(PlannerTool(model), MESSAGES)
    assert result.source == "llm_repaired"
    assert result.plan.category == "headphones"
    assert result.plan.budget_amount == 80.0
    first, second = scripted_openai.requests("plan")
    assert second.messages[:2] == first.messages
    assert second.messages[2] == {
        "role": "assistant",
        "content": json.dumps({"category": "headphones", "budget_usd": -5}),
    }
    repair = second.messages[3]["content"]
    assert "does not validate" in repair
    assert "budget_usd" in repair
    assert any("attempt 1 invalid" in n for n in result.notes)


async def test_two_invalid_plans_fall_back_to_the_rules(
    scripted_openai: ScriptedOpenAI, model: OpenAIChatModel
) -> None:
    scripted_openai.script("plan", structured("not json at all"), structured('{"bundle": [{}]}'))
    result = await plan_with(PlannerTool(model), MESSAGES)
    assert result.source == "rules"
    assert result.plan == plan_from_text(MESSAGES)
    assert len(scripted_openai.requests("plan")) == 2
    note = result.notes[-1]
    assert note.startswith("planner: llm sent JSON that did not validate after 1 repair: ")
    assert note.endswith(", rules used")


async def test_with_repairs_off_one_invalid_plan_is_enough_for_the_rules(
    scripted_openai: ScriptedOpenAI, model: OpenAIChatModel
) -> None:
    scripted_openai.script("plan", structured("{"))
    with REGISTRY.overridden(PLANNER_LLM_REPAIRS=0):
        result = await plan_with(PlannerTool(model), MESSAGES)
    assert result.source == "rules"
    assert len(scripted_openai.requests("plan")) == 1


async def test_the_llm_planner_and_its_rules_are_one_reading_however_often_repaired(
    scripted_openai: ScriptedOpenAI, model: OpenAIChatModel
) -> None:
    scripted_openai.script("plan", structured("{"), structured({"category": "headphones"}))
    with counting_readings() as readings:
        result = await plan_with(PlannerTool(model), MESSAGES)
    assert result.source == "llm_repaired"
    assert readings.count == 1


async def test_an_unavailable_llm_leaves_the_plan_to_the_rules(
    scripted_openai: ScriptedOpenAI, model: OpenAIChatModel
) -> None:
    scripted_openai.script("plan", fail(503))
    result = await plan_with(PlannerTool(model), MESSAGES)
    assert result.source == "rules"
    assert result.plan == plan_from_text(MESSAGES)
    assert result.notes == ["planner: llm answered HTTP 503, rules used"]


async def test_llm_slot_budgets_need_a_number_the_rules_found(
    scripted_openai: ScriptedOpenAI, model: OpenAIChatModel
) -> None:
    messages = ["a laptop under $800 and a mouse"]
    scripted_openai.script(
        "plan",
        structured(
            {
                "category": "laptop",
                "bundle": [
                    {"slot": "laptop", "category": "laptop", "budget_usd": 750},
                    {"slot": "mouse", "category": "wireless mouse", "budget_usd": 40},
                ],
            }
        ),
    )
    plan = (await plan_with(PlannerTool(model), messages)).plan
    rules = plan_from_text(messages)
    budgets = {s.slot: s.budget_usd for s in rules.bundle}
    assert [(s.slot, s.category, s.budget_usd) for s in plan.bundle] == [
        ("laptop", "laptop", budgets["laptop"]),
        ("mouse", "wireless mouse", budgets["mouse"]),
    ]
    assert budgets["mouse"] is None


async def test_without_an_llm_the_session_plan_seeds_the_rules() -> None:
    tool = PlannerTool()
    first = await plan_with(tool, ["a gaming keyboard, not logitech"])
    assert first.source == "rules"
    assert first.turn_is_shopping
    ctx = ToolContext("s", "t", plan=first.plan.model_copy(update={"platforms": ("walmart",)}))
    later = await plan_with(tool, ["thanks!"], ctx)
    assert later.turn_is_shopping is False
    assert later.plan.exclude_terms == ("logitech",)
    assert later.plan.platforms == ("walmart",)
    fresh = await plan_with(tool, ["hello"])
    assert fresh.plan.is_shopping is False


async def test_with_a_speller_the_rules_read_slips_and_the_latest_ones_are_reported() -> None:
    titles = ["Sony Wireless Headphones", "JBL Headphones", "Bose Headphones", "Shure Mic"]
    items = [
        Item(item_id=f"icecat:{n}", platform="icecat", title=t, source="test")
        for n, t in enumerate(titles)
    ]
    english = dict.fromkeys(["with", "mic", "black"], 1)
    tool = PlannerTool(speller=Speller.from_items(items, english=english))
    result = await plan_with(tool, ["wireless hedphones with mic", "in black"])
    assert (result.plan.category, result.plan.must_have) == ("headphones", ("mic",))
    assert result.respelled == []
    first = await plan_with(tool, ["wireless hedphones with mic"])
    assert first.respelled == [Respelling("hedphones", "headphones")]
    assert first.notes == ["read 'hedphones' as 'headphones'"]
    assert (await plan_with(PlannerTool(), ["wireless hedphones with mic"])).plan.category == (
        "mic"
    )


@pytest.mark.parametrize(
    ("messages", "scope"),
    [
        (["usb flash drive on walmart"], ("walmart",)),
        (["a laptop, only on amazon or walmart"], ("walmart", "amazon")),
        (["a tv from abt or buy.com"], ("abt", "buy")),
        (["headphones, but not on amazon"], ("icecat", "walmart", "google", "abt", "buy")),
        (["an amazon echo dot", "a google pixel case"], ()),
        (["a laptop on amazon", "actually any store is fine"], ()),
        (["a laptop on amazon", "on walmart instead"], ("walmart",)),
    ],
)
def test_platform_scope_from_the_messages(messages: list[str], scope: tuple[str, ...]) -> None:
    assert platform_scope(messages) == scope


async def test_a_platform_scope_replaces_the_platform_words_in_the_plan() -> None:
    plan = (await plan_with(PlannerTool(), ["wireless earbuds on amazon"])).plan
    assert plan.platforms == ("amazon",)
    assert "amazon" not in plan.keywords
    assert plan.query_text() == "earbuds wireless"


async def test_a_low_price_the_rules_read_is_kept_beside_the_llm_plan(
    scripted_openai: ScriptedOpenAI, model: OpenAIChatModel
) -> None:
    scripted_openai.script("plan", structured({"category": "tablet"}))
    result = await plan_with(PlannerTool(model), ["a cheap tablet for reading"])
    assert result.source == "llm"
    assert (result.plan.category, result.plan.cheap) == ("tablet", True)


def test_an_imported_catalogs_shops_are_scoped_by_their_own_names() -> None:
    shops = ShopNames.of(["myntra", "lamps-r-us", "apple"], brands=["Apple", "Roadster"])
    assert shops.scope(["a red kurta from myntra"]) == ("myntra",)
    assert shops.scope(["a desk lamp on lamps r us"]) == ("lamps-r-us",)
    assert shops.scope(["a myntra kurta, not on lamps-r-us"]) == ("myntra",)
    # a shop that is also a brand the catalog sells scopes only after on/from/at/only
    assert shops.scope(["an apple charger"]) == ()
    assert shops.scope(["a charger from apple"]) == ("apple",)
    assert shops.scope(["from myntra", "any shop is fine"]) == ()


async def test_the_planner_reads_the_catalogs_shop_names() -> None:
    tool = PlannerTool(shops=ShopNames.of(["myntra", "usshop"]))
    result = await invoke_tool(tool, {"messages": ["black kurta on myntra"]}, ToolContext("s", "t"))
    assert isinstance(result.output, PlannerResult)
    assert result.output.plan.platforms == ("myntra",)
    assert "myntra" not in result.output.plan.keywords
