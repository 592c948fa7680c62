"""The shopping summary and chat fallback: the item-id check, the template (picks with their
cheaper offers, and why a slot has none), and LLM-written text from the scripted server
whose invented ids are removed, falling back to the template when it drops a pick."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from app.catalog.spelling import Respelling
from app.config.registry import REGISTRY
from app.tools.base import ToolContext, ToolError, invoke_tool
from app.tools.llm._openai_chat import OpenAIChatModel
from app.tools.picker._result import GateReport, ItemPickerResult, Pick, PickOffer, SlotPicks
from app.tools.plan.shopping_plan import BundleSlot, Constraint, ShoppingPlan
from app.tools.planner.planner import PlannerResult
from app.tools.search._result import AppliedScope, BlockedItem, ItemSearchResult, PriceOnly
from app.tools.summary._facts import check_item_ids, cited_ids
from app.tools.summary.chat_fallback import ChatFallbackResult, ChatFallbackTool
from app.tools.summary.shopping_summary import ShoppingSummaryResult, ShoppingSummaryTool
from tests.fakes.scripted_openai import ScriptedOpenAI, echo, fail, say

KEYBOARD = "amazon:50f1ddc72bef"
OFFER = "walmart:61f53f5c4021"


@pytest.mark.parametrize(
    ("text", "kept", "removed"),
    [
        ("- [amazon:aa11] Mouse, $10.", "- [amazon:aa11] Mouse, $10.", []),
        ("- [walmart:ff00] Invented mouse, $5.", "", ["walmart:ff00"]),
        (
            "- [amazon:aa11] Mouse; cheaper at [google:zz99].",
            "- [amazon:aa11] Mouse; cheaper at.",
            ["google:zz99"],
        ),
        ("Try amazon:bad1 or icecat:123.", "", ["amazon:bad1", "icecat:123"]),
        (
            "No ids here, just words: amazon is a shop.",
            "No ids here, just words: amazon is a shop.",
            [],
        ),
        (
            "Picks:\n- [amazon:aa11] A\n- [buy:b2] B\nEnjoy!",
            "Picks:\n- [amazon:aa11] A\nEnjoy!",
            ["buy:b2"],
        ),
    ],
)
def test_unknown_item_ids_are_removed(text: str, kept: str, removed: list[str]) -> None:
    shops = ("amazon", "walmart", "google", "icecat", "buy")
    assert check_item_ids(text, {"amazon:aa11"}, shops) == (kept, removed)


def test_ids_of_any_shop_the_catalog_names_are_checked() -> None:
    text = "- [myntra:1163] Shirt\n- [myntra:999] Invented\n- [lamps-r-us:a.b] Lamp"
    assert check_item_ids(text, {"myntra:1163"}, ("myntra", "lamps-r-us")) == (
        "- [myntra:1163] Shirt",
        ["myntra:999", "lamps-r-us:a.b"],
    )


def test_with_the_catalog_shops_other_colons_are_words() -> None:
    text = "- [myntra:999] Invented, at 10:30 on https://shop.example:8080/x, ratio:good"
    assert check_item_ids(text, {"myntra:1163"}, ()) == ("", ["myntra:999"])
    assert check_item_ids("ratio:good, 10:30", set(), ("myntra",)) == ("ratio:good, 10:30", [])


def test_cited_ids_are_read_with_or_without_brackets() -> None:
    assert cited_ids("[amazon:aa11] and walmart:bb22. Again [amazon:aa11]") == [
        "amazon:aa11",
        "walmart:bb22",
    ]


def pick(item_id: str = KEYBOARD, *, cheaper: bool = True) -> Pick:
    offers = (
        [PickOffer(item_id=OFFER, platform="walmart", price_usd=59.0, cheapest=True, saving_usd=10)]
        if cheaper
        else []
    )
    return Pick(
        slot="keyboard",
        rank=1,
        item_id=item_id,
        title="Razer Blackwidow Mechanical Gaming Keyboard",
        platform="amazon",
        price_usd=69.0,
        score=1.0,
        reason="has mechanical; $69.00, $11.00 under the $80.00 budget",
        offers=offers,
        saving_usd=10.0 if cheaper else None,
    )


def search(slot: str, query: str, *, price_only: PriceOnly | None = None) -> ItemSearchResult:
    return ItemSearchResult(
        query=query,
        slot=slot,
        top_k=10,
        requested_top_k=10,
        hits=[],
        applied=AppliedScope(),
        price_only=price_only,
    )


def picker_result(slot: str, request: str, picked: Pick) -> ItemPickerResult:
    """An item_picker result with one slot of eight candidates and one pick."""
    part = SlotPicks(
        slot=slot,
        request=request,
        candidates=8,
        picks=[picked],
        gate=GateReport(on=False, floor=0.3),
    )
    return ItemPickerResult(slot=slot, slots=[part])


def bundle_context() -> ToolContext:
    """A keyboard slot with a pick and a monitor slot every match of which is over budget."""
    ctx = ToolContext("s", "t")
    ctx.plan = ShoppingPlan(
        category="gaming keyboard",
        exclude=(Constraint(term="logitech", evidence="not Logitech"),),
        bundle=(
            BundleSlot(slot="keyboard", category="gaming keyboard"),
            BundleSlot(slot="monitor", category="monitor"),
        ),
    )
    blocked = PriceOnly(
        blocked=3, over_budget=3, unknown_price=0, cheapest_usd=64.0, budget_usd=50.0
    )
    ctx.slot_results["item_search"] = {
        "monitor": search("monitor", "monitor", price_only=blocked),
        "keyboard": search("keyboard", "gaming keyboard"),
    }
    ctx.last_results["item_picker"] = picker_result("keyboard", "gaming keyboard", pick())
    return ctx


async def summarise(tool: ShoppingSummaryTool, ctx: ToolContext) -> ShoppingSummaryResult:
    outcome = await invoke_tool(tool, {}, ctx)
    assert isinstance(outcome.output, ShoppingSummaryResult), outcome.output
    return outcome.output


async def test_the_template_cites_picks_offers_and_says_why_a_slot_has_none() -> None:
    result = await summarise(ShoppingSummaryTool(), bundle_context())
    assert result.source == "template"
    assert result.text.splitlines() == [
        "Here is my pick:",
        "Keyboard:",
        f"- [{KEYBOARD}] Razer Blackwidow Mechanical Gaming Keyboard (amazon): has "
        f"mechanical; $69.00, $11.00 under the $80.00 budget. Cheaper on walmart: [{OFFER}] "
        "at $59.00, saves $10.00.",
        "monitor: No pick for 'monitor': 3 matches are above your $50.00 budget; the cheapest "
        "is $64.00.",
        "Left out as you asked: logitech.",
    ]
    assert result.cited == [KEYBOARD, OFFER]
    assert result.slots_without_picks == ["monitor"]


async def test_words_read_as_other_words_are_said_first() -> None:
    ctx = bundle_context()
    ctx.last_results["planner"] = PlannerResult(
        plan=ctx.plan,
        source="rules",
        turn_is_shopping=True,
        respelled=[Respelling("keybaord", "keyboard"), Respelling("moniter", "monitor")],
    )
    result = await summarise(ShoppingSummaryTool(), ctx)
    assert result.text.splitlines()[:2] == [
        '(I read "keybaord" as "keyboard", "moniter" as "monitor".)',
        "Here is my pick:",
    ]


def priced_out_context(*, product: str | None) -> ToolContext:
    """One slot with a pick beside a budget verdict, about the asked product when given."""
    ctx = ToolContext("s", "t")
    verdict = PriceOnly(
        blocked=3,
        over_budget=3,
        unknown_price=0,
        cheapest_usd=76.95,
        budget_usd=50.0,
        product=product,
    )
    ctx.last_results["item_search"] = search("main", "power bank", price_only=verdict)
    picked = pick().model_copy(update={"slot": "main"})
    ctx.last_results["item_picker"] = picker_result("main", "power bank", picked)
    return ctx


async def test_picks_beside_a_priced_out_product_come_after_the_verdict() -> None:
    result = await summarise(ShoppingSummaryTool(), priced_out_context(product="power bank"))
    lines = result.text.splitlines()
    assert lines[:2] == [
        "I found no power bank within your budget: 3 matches for a power bank are above your "
        "$50.00 budget; the cheapest is $76.95. What comes closest under it may not be a power "
        "bank.",
        "Here is my pick:",
    ]
    assert lines[2].startswith(f"- [{KEYBOARD}]")


async def test_a_verdict_about_no_one_product_stays_out_of_a_slot_with_picks() -> None:
    result = await summarise(ShoppingSummaryTool(), priced_out_context(product=None))
    assert result.text.splitlines()[0] == "Here is my pick:"
    assert "budget;" not in result.text


async def test_picks_of_which_none_states_an_asked_spec_say_so_first() -> None:
    ctx = ToolContext("s", "t")
    ctx.last_results["item_search"] = search("main", "router wifi 6")
    result = picker_result("main", "router wifi 6", pick().model_copy(update={"slot": "main"}))
    part = result.slots[0].model_copy(update={"unstated": ["wifi6", "4k"]})
    ctx.last_results["item_picker"] = result.model_copy(update={"slots": [part]})
    lines = (await summarise(ShoppingSummaryTool(), ctx)).text.splitlines()
    assert lines[:2] == [
        "None of the items I found says wifi6 or 4k; these come closest.",
        "Here is my pick:",
    ]


async def test_a_spec_lower_ranked_items_state_is_not_said_to_be_missing() -> None:
    ctx = ToolContext("s", "t")
    ctx.last_results["item_search"] = search("main", "cable usb-c 3.3ft")
    result = picker_result("main", "cable usb-c", pick().model_copy(update={"slot": "main"}))
    part = result.slots[0].model_copy(
        update={"unstated": ["3.3ft", "usb-c"], "stated_elsewhere": ["usb-c"]}
    )
    ctx.last_results["item_picker"] = result.model_copy(update={"slots": [part]})
    lines = (await summarise(ShoppingSummaryTool(), ctx)).text.splitlines()
    assert lines[0] == (
        "None of the items I found says 3.3ft; none of my picks says usb-c, which items "
        "ranked lower on the rest of your request do; these come closest."
    )


@pytest.mark.parametrize(
    ("verdict", "first", "caveat"),
    [
        (None, 'None of the items I found says "desk lamp" or 4k', "None of the items"),
        (
            "desk lamp",
            "I found no desk lamp within your budget: ",
            "None of the items I found says 4k;",
        ),
    ],
)
async def test_picks_of_which_none_says_the_products_name_say_so_once(
    verdict: str | None, first: str, caveat: str
) -> None:
    ctx = priced_out_context(product=verdict)
    result = ctx.last_results["item_picker"]
    assert isinstance(result, ItemPickerResult)
    part = result.slots[0].model_copy(update={"unnamed": "desk lamp", "unstated": ["4k"]})
    ctx.last_results["item_picker"] = result.model_copy(update={"slots": [part]})
    text = (await summarise(ShoppingSummaryTool(), ctx)).text
    assert text.startswith(first)
    assert text.count('"desk lamp"') == (1 if verdict is None else 0)
    assert text.count(caveat) == 1


async def test_picks_listed_under_another_name_of_the_product_say_which() -> None:
    ctx = priced_out_context(product=None)
    result = ctx.last_results["item_picker"]
    assert isinstance(result, ItemPickerResult)
    update = {"unnamed": "lamp", "listed_as": "light", "unstated": ["4k"]}
    part = result.slots[0].model_copy(update=update)
    ctx.last_results["item_picker"] = result.model_copy(update={"slots": [part]})
    text = (await summarise(ShoppingSummaryTool(), ctx)).text
    assert text.startswith('I found nothing called "lamp"; these are listed as "light". ')
    assert "None of the items I found says 4k; these come closest." in text
    assert 'says "lamp"' not in text


async def test_picks_of_a_product_the_catalog_lacks_say_the_shop_has_none() -> None:
    ctx = priced_out_context(product=None)
    result = ctx.last_results["item_picker"]
    assert isinstance(result, ItemPickerResult)
    update = {"unnamed": "earrings", "unstated": ["gold"]}
    ctx.last_results["item_picker"] = result.model_copy(
        update={"slots": [result.slots[0].model_copy(update=update)]}
    )
    found = ctx.last_results["item_search"]
    assert isinstance(found, ItemSearchResult)
    for absent, first in [
        (None, 'None of the items I found says "earrings" or gold'),
        ("earrings", 'This shop lists nothing called "earrings"; what comes closest is '),
    ]:
        update_search = {"absent": absent, "price_only": None}
        ctx.last_results["item_search"] = found.model_copy(update=update_search)
        text = (await summarise(ShoppingSummaryTool(), ctx)).text
        assert text.startswith(first)
        assert text.count('"earrings"') == 1
        assert ("None of the items I found says gold" in text) is (absent is not None)


async def test_a_spec_the_budget_verdict_names_is_not_said_twice() -> None:
    ctx = priced_out_context(product="router with wifi6")
    result = ctx.last_results["item_picker"]
    assert isinstance(result, ItemPickerResult)
    part = result.slots[0].model_copy(update={"unstated": ["wifi6", "4k"]})
    ctx.last_results["item_picker"] = result.model_copy(update={"slots": [part]})
    text = (await summarise(ShoppingSummaryTool(), ctx)).text
    assert text.startswith("I found no router with wifi6 within your budget: ")
    assert "None of the items I found says 4k;" in text
    assert "says wifi6" not in text


async def test_filters_that_left_nothing_are_named_with_an_example() -> None:
    ctx = ToolContext("s", "t")
    blocked = search("main", "wireless mouse").model_copy(
        update={
            "filtered_out": [
                BlockedItem(
                    item_id="amazon:aa11",
                    title="Logitech M185",
                    reason="brand",
                    detail="brand Logitech is ruled out",
                ),
                BlockedItem(
                    item_id="amazon:bb22", title="Logitech M325", reason="brand", detail="x"
                ),
            ],
            "blocked_total": 2,
        }
    )
    ctx.last_results["item_search"] = blocked
    result = await summarise(ShoppingSummaryTool(), ctx)
    assert (
        "2 relevant items were left out by your constraints (2 are of a brand you ruled out)"
        in (result.text)
    )
    assert "'Logitech M185': brand Logitech is ruled out" in result.text
    assert result.cited == []


@pytest.mark.parametrize(
    ("plan", "last"),
    [
        (ShoppingPlan(), "Tell me another name for it or what it is for, and I'll look again."),
        (ShoppingPlan(budget_usd=20), "Loosen the budget and I'll look again."),
        (
            ShoppingPlan(budget_usd=20, must_have=("usb-c",), exclude=(Constraint(term="hp"),)),
            "Loosen the budget, a must-have or a ruled-out term and I'll look again.",
        ),
    ],
)
async def test_nothing_found_asks_to_loosen_only_what_the_plan_holds(
    plan: ShoppingPlan, last: str
) -> None:
    ctx = ToolContext("s", "t", plan)
    ctx.last_results["item_search"] = search("main", "planter")
    result = await summarise(ShoppingSummaryTool(), ctx)
    assert result.text.splitlines()[-1] == last
    assert "No pick for 'planter': the catalog has nothing relevant for \"planter\"." in result.text


async def test_nothing_of_a_product_the_catalog_lacks_asks_for_another_name() -> None:
    """Loosening the budget or a ruled-out term finds nothing the shop does not sell."""
    plan = ShoppingPlan(budget_usd=20, exclude=(Constraint(term="silver"),))
    ctx = ToolContext("s", "t", plan)
    ctx.last_results["item_search"] = search("main", "ring").model_copy(update={"absent": "ring"})
    lines = (await summarise(ShoppingSummaryTool(), ctx)).text.splitlines()
    assert lines[0] == "No pick for 'ring': this shop lists nothing called \"ring\"."
    assert lines[-1] == "Tell me another name for it or what it is for, and I'll look again."


@pytest.mark.parametrize(
    ("product", "asked", "counts", "first", "last"),
    [
        (
            "saree",
            "saree red",
            {"candidates": 41, "off_attribute": 13, "attributes_asked": ["red"]},
            "No pick for 'saree red': of 41 candidates, 13 are not red; 28 are other products "
            "than the saree.",
            "Tell me another name for it or what it is for, and I'll look again.",
        ),
        (
            "armchair",
            "armchair pink",
            {"candidates": 32, "not_in_stock": 4, "unavailable_ahead": ["Pink Armchair"]},
            "No pick for 'armchair pink': \"Pink Armchair\" is sold out; of 32 candidates, 4 "
            "are sold out; 28 are other products than the armchair.",
            "Tell me what else would do, or ask again when it is back in stock.",
        ),
    ],
)
async def test_no_pick_says_why_the_shops_items_of_the_product_were_left_out(
    product: str, asked: str, counts: dict[str, Any], first: str, last: str
) -> None:
    ctx = ToolContext("s", "t", ShoppingPlan(category=product))
    ctx.last_results["item_search"] = search("main", asked)
    part = SlotPicks(
        slot="main",
        category=product,
        request=asked,
        picks=[],
        other_products=28,
        gate=GateReport(on=False, floor=0.3),
        **counts,
    )
    ctx.last_results["item_picker"] = ItemPickerResult(slot="main", slots=[part])
    lines = (await summarise(ShoppingSummaryTool(), ctx)).text.splitlines()
    assert (lines[0], lines[-1]) == (first, last)


async def test_nothing_searched_is_an_error_for_the_model() -> None:
    outcome = await invoke_tool(ShoppingSummaryTool(), {}, ToolContext("s", "t"))
    assert isinstance(outcome.output, ToolError)
    assert "run item_search" in outcome.output.message


@pytest.fixture
async def model(scripted_openai: ScriptedOpenAI) -> AsyncIterator[OpenAIChatModel]:
    chat = OpenAIChatModel(scripted_openai.base_url)
    yield chat
    await chat.close()


async def test_llm_text_keeps_the_picks_and_loses_invented_items(
    scripted_openai: ScriptedOpenAI, model: OpenAIChatModel
) -> None:
    scripted_openai.script(
        "text", echo("Great choices!\n", "\n- [amazon:deadbeef0000] A keyboard I made up, $1.")
    )
    result = await summarise(ShoppingSummaryTool(model), bundle_context())
    assert result.source == "llm"
    assert result.text.startswith("Great choices!\nHere is my pick:")
    assert "deadbeef" not in result.text
    assert result.removed_ids == ["amazon:deadbeef0000"]
    assert result.cited == [KEYBOARD, OFFER]
    (request,) = scripted_openai.requests("text")
    assert f"[{KEYBOARD}]" in request.messages[-1]["content"]


@pytest.mark.parametrize("reply", [say("Buy [amazon:deadbeef0000], it's great."), fail(503)])
async def test_an_llm_that_drops_a_pick_or_fails_gives_way_to_the_template(
    scripted_openai: ScriptedOpenAI, model: OpenAIChatModel, reply: object
) -> None:
    scripted_openai.script("text", reply)  # type: ignore[arg-type]
    result = await summarise(ShoppingSummaryTool(model), bundle_context())
    assert result.source == "template"
    assert result.text == (await summarise(ShoppingSummaryTool(), bundle_context())).text


@pytest.mark.parametrize(
    ("message", "start"),
    [
        ("hello there", "Hi! I'm Pickwise"),
        ("thanks, that's all", "You're welcome!"),
        ("what's the capital of France?", "I can only help with shopping."),
    ],
)
async def test_the_chat_fallback_template(message: str, start: str) -> None:
    outcome = await invoke_tool(ChatFallbackTool(), {"message": message}, ToolContext("s", "t"))
    assert isinstance(outcome.output, ChatFallbackResult)
    assert outcome.output.text.startswith(start)
    assert ChatFallbackTool.terminal


async def test_the_llm_chat_fallback_never_names_an_item(
    scripted_openai: ScriptedOpenAI, model: OpenAIChatModel
) -> None:
    scripted_openai.script("text", say("Paris!\n- [amazon:aa11bb22cc33] a souvenir, $5"))
    outcome = await invoke_tool(
        ChatFallbackTool(model), {"message": "capital of France?"}, ToolContext("s", "t")
    )
    assert isinstance(outcome.output, ChatFallbackResult)
    assert outcome.output.source == "llm"
    assert outcome.output.text == "Paris!"
    (request,) = scripted_openai.requests("text")
    assert request.messages[-1] == {"role": "user", "content": "capital of France?"}


async def test_the_chat_fallback_message_cap_is_the_agents_current_one() -> None:
    ctx = ToolContext("s", "t")
    with REGISTRY.overridden(AGENT_MESSAGE_MAX_CHARS=10):
        long = await invoke_tool(ChatFallbackTool(), {"message": "hello " * 3}, ctx)
        short = await invoke_tool(ChatFallbackTool(), {"message": "hello"}, ctx)
    assert not long.ok
    assert "AGENT_MESSAGE_MAX_CHARS" in str(long.output)
    assert short.ok


async def test_a_bundle_under_one_budget_says_what_its_picks_cost_together() -> None:
    ctx = ToolContext("s", "t")
    ctx.plan = ShoppingPlan(
        category="gaming keyboard",
        budget_usd=60.0,
        bundle=(
            BundleSlot(slot="keyboard", category="gaming keyboard"),
            BundleSlot(slot="mouse", category="mouse"),
        ),
    )
    mouse = pick("amazon:m1", cheaper=False).model_copy(update={"slot": "mouse", "price_usd": 9.0})
    parts = [picker_result(s, s, p).slots[0] for s, p in [("keyboard", pick()), ("mouse", mouse)]]
    ctx.last_results["item_picker"] = ItemPickerResult(slot=None, slots=parts)
    result = await summarise(ShoppingSummaryTool(), ctx)
    assert result.text.splitlines()[-1] == (
        "Together the first picks come to $78.00, over your $60.00 budget; no set of these "
        "picks fits it (the cheapest comes to $78.00)."
    )
