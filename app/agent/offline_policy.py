"""The deterministic turn used without an LLM (or when it is down): it drives the same tools
through the same runner and hooks as the model would. Plan → item_search per slot →
autopick (price_compare + item_picker) → shopping_summary; chat_fallback off-topic."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.agent._offer_answer import (
    best_answer,
    compare_answer,
    count_answer,
    most_answer,
    offers_answer,
    price_rank_answer,
    trait_answer,
)
from app.agent._tool_calls import PlannedCall, run_calls
from app.agent._turn import Turn
from app.agent.events import PickView
from app.agent.loop import finish_with_summary
from app.tools.base import Tool
from app.tools.candidates import DEFAULT_SLOT
from app.tools.compare import PriceCompareResult
from app.tools.plan import ShoppingPlan

__all__ = ["BY", "run_offline_turn", "search_calls"]

BY = "policy"


def search_calls(plan: ShoppingPlan) -> list[dict[str, str]]:
    """item_search arguments per search: one per bundle slot, else one for the whole plan;
    each names its product as the plan does, so item_search never reads the query again."""
    if plan.bundle:
        return [_search(slot.slot, slot.query_text(), slot.category) for slot in plan.bundle]
    query = plan.query_text()
    return [_search(DEFAULT_SLOT, query, plan.category)] if query else []


def _search(slot: str, query: str, product: str | None) -> dict[str, str]:
    return {"query": query, "slot": slot} | ({"product": product} if product else {})


async def run_offline_turn(
    turn: Turn, tools: Mapping[str, Tool[Any, Any]], *, turn_is_shopping: bool
) -> bool:
    """Answer the turn without a model; True when a tool wrote the answer."""
    plan = turn.ctx.plan
    searches = search_calls(plan)
    if turn.asked_about is not None and "price_compare" in tools:
        return await _answer_offers(turn, turn.asked_about, tools)
    if turn.asked_count is not None and turn.session.picks:
        turn.answer = count_answer(list(turn.count_picks) or turn.session.picks, turn.asked_count)
        return True
    if turn.asked_trait is not None and turn.trait_items:
        turn.answer = trait_answer(turn.asked_trait, turn.trait_items)
        return True
    if turn.asked_question is not None and turn.session.picks:
        picks = turn.session.picks[: turn.asked_picks]
        if turn.asked_question == "most" and turn.asked_part is not None:
            turn.answer = most_answer(turn.asked_part, picks)
        elif turn.asked_question in {"cheapest", "priciest"}:
            turn.answer = price_rank_answer(picks, cheapest=turn.asked_question == "cheapest")
        else:
            answer = best_answer if turn.asked_question == "best" else compare_answer
            turn.answer = answer(picks)
        return True
    if not turn_is_shopping or not plan.is_shopping:
        return await _chat_fallback(turn, tools)
    if not searches:
        turn.answer = _ask_what(plan)
        return True
    done = turn.ctx.slot_results.get("item_search", {})
    calls = [
        PlannedCall(f"{BY}-search-{args['slot']}", "item_search", args, BY)
        for args in searches
        if args["slot"] not in done
    ]
    if calls:
        await run_calls(turn, tools, calls)
    await turn.hints()
    if not turn.ctx.last_results.get("item_picker"):
        await _pick_without_harness(turn, tools)
    return await finish_with_summary(turn, tools)


async def _pick_without_harness(turn: Turn, tools: Mapping[str, Tool[Any, Any]]) -> None:
    """What autopick would have done, for runs where it is off: compare, then pick."""
    slots = turn.ctx.candidates.slots()
    if not slots or "item_picker" not in tools:
        return
    if "price_compare" in tools:
        compares = [
            PlannedCall(f"{BY}-compare-{slot}", "price_compare", {"slot": slot}, BY)
            for slot in slots
        ]
        await run_calls(turn, tools, compares)
    pick = PlannedCall(f"{BY}-pick", "item_picker", {"slot": "all"}, BY)
    await run_calls(turn, tools, [pick])


async def _answer_offers(turn: Turn, pick: PickView, tools: Mapping[str, Tool[Any, Any]]) -> bool:
    """Answer a price question about one pick from price_compare over that item alone."""
    call = PlannedCall(f"{BY}-offers", "price_compare", {"item_ids": [pick.item_id]}, BY)
    (outcome,) = await run_calls(turn, tools, [call])
    if not isinstance(outcome.output, PriceCompareResult):
        return False
    turn.answer = offers_answer(pick, outcome.output)
    return True


async def _chat_fallback(turn: Turn, tools: Mapping[str, Tool[Any, Any]]) -> bool:
    if "chat_fallback" not in tools:
        return False
    call = PlannedCall(f"{BY}-chat", "chat_fallback", {"message": turn.message[:4000]}, BY)
    (outcome,) = await run_calls(turn, tools, [call])
    if not outcome.ok:
        return False
    turn.answer = str(getattr(outcome.output, "text", outcome.output.render()))
    return True


def _ask_what(plan: ShoppingPlan) -> str:
    """The reply to a shopping message that names nothing to search for yet."""
    noted = []
    if plan.budget_amount is not None:
        noted.append(f"a budget of {plan.budget_amount:,.2f} {plan.currency}")
    if plan.exclude:
        noted.append("leaving out " + ", ".join(plan.exclude_terms))
    text = (
        "What does the person you're buying for enjoy? Name a kind of product or an interest "
        "(e.g. 'headphones' or 'she likes gardening') and I'll look."
        if plan.gift
        else "What are you looking for? Name the product, e.g. 'wireless earbuds'."
    )
    return text + (f" I've noted {' and '.join(noted)}." if noted else "")
