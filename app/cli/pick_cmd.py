"""`pickwise pick QUERY`: item_search, price_compare and item_picker without an LLM, through
the same `invoke_tool` pipeline the agent uses; the plan comes from the rule planner and the
options override it."""

from __future__ import annotations

import asyncio
from typing import Any, NoReturn, cast

import typer

from app.agent.offline_policy import search_calls
from app.cli._output import emit_json
from app.cli._runtime import open_runtime
from app.config import get_settings
from app.config.params.picker import PICK_RERANK_K
from app.config.params.search import DEFAULT_TOP_K, MAX_TOP_K
from app.config.settings import Settings
from app.tools.base import ToolContext, ToolError, ToolOutcome, invoke_tool
from app.tools.candidates import DEFAULT_SLOT
from app.tools.picker import ItemPickerResult
from app.tools.plan import Constraint, ShoppingPlan, plan_from_text

__all__ = ["pick", "pick_payload", "plan_with_options", "register", "run_pick", "searches"]


def register(app: typer.Typer) -> None:
    """Add the `pick` command to the root CLI."""
    app.command("pick")(pick)


def pick(
    query: str = typer.Argument(..., help="What the shopper asks for, in their words."),
    max_price: float | None = typer.Option(None, "--max-price", help="Budget in USD."),
    exclude: list[str] = typer.Option(
        [], "--exclude", help="A word the shopper ruled out; repeatable."
    ),
    exclude_brand: list[str] = typer.Option(
        [], "--exclude-brand", help="A brand to leave out; repeatable."
    ),
    platform: list[str] = typer.Option([], "--platform", help="Platform(s) to shop; repeatable."),
    json_out: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Plan, search, compare prices and pick at most three items with their reasons."""
    plan = plan_with_options(query, max_price=max_price, exclude=exclude, platforms=platform)
    outcome = asyncio.run(run_pick(get_settings(), query, plan, brand_exclude=exclude_brand))
    if isinstance(outcome.output, ToolError):
        _fail(outcome.output, json_out)
    result = cast(ItemPickerResult, outcome.output)
    if json_out:
        emit_json(pick_payload(result))
    else:
        typer.echo(result.render())


def plan_with_options(
    query: str,
    *,
    max_price: float | None = None,
    exclude: list[str] | None = None,
    platforms: list[str] | None = None,
) -> ShoppingPlan:
    """P_t read from the query by the rule planner, with the options laid over it."""
    plan = plan_from_text([query])
    update: dict[str, Any] = {}
    if max_price is not None:
        update.update(budget_usd=max_price, budget_amount=max_price, currency="USD")
    terms = [" ".join(t.lower().split()) for t in exclude or []]
    if any(terms):
        known = {c.term for c in plan.exclude}
        added = [Constraint(term=t, evidence=f"--exclude {t}") for t in terms if t not in known]
        update["exclude"] = (*plan.exclude, *added)
    if platforms:
        update["platforms"] = tuple(dict.fromkeys(p.strip().lower() for p in platforms))
    return plan.model_copy(update=update) if update else plan


def searches(plan: ShoppingPlan, query: str) -> list[dict[str, str]]:
    """item_search arguments per slot, as the offline policy builds them (one per bundle
    slot, else the plan's query and product), or the shopper's words when the planner
    found no product words."""
    return search_calls(plan) or [{"query": query, "slot": DEFAULT_SLOT}]


async def run_pick(
    settings: Settings, query: str, plan: ShoppingPlan, *, brand_exclude: list[str] | None = None
) -> ToolOutcome:
    """Search every slot, compare its candidates' prices, then pick; the first failed
    search or the picker's outcome is returned (a failed price_compare only loses offers)."""
    top_k = min(MAX_TOP_K.get(), max(DEFAULT_TOP_K.get(), 2 * PICK_RERANK_K.get()))
    async with open_runtime(settings) as runtime:
        ctx = ToolContext(session_id="cli", turn_id="pick", plan=plan)
        slots = []
        for search in searches(plan, query):
            slot = search["slot"]
            args: dict[str, Any] = {**search, "top_k": top_k}
            if brand_exclude:
                args["brand_exclude"] = brand_exclude
            found = await invoke_tool(runtime.tool("item_search"), args, ctx)
            if not found.ok:
                return found
            slots.append(slot)
            if ctx.candidates.slot(slot) and "price_compare" in runtime.tools:
                await invoke_tool(runtime.tool("price_compare"), {"slot": slot}, ctx)
        target: str | list[str] = slots[0] if len(slots) == 1 else slots
        return await invoke_tool(runtime.tool("item_picker"), {"slot": target}, ctx)


def pick_payload(result: ItemPickerResult) -> dict[str, Any]:
    """The JSON document of `pickwise pick --json`."""
    return {
        "picks": [
            {
                "item_id": p.item_id,
                "title": p.title,
                "brand": p.brand,
                "platform": p.platform,
                "price": p.price,
                "currency": p.currency,
                "price_usd": p.price_usd,
                "attributes": p.attributes,
                "reason": p.reason,
                "gate_score": p.gate_score,
                "offers": [o.model_dump() for o in p.offers],
                "slot": p.slot,
            }
            for p in result.picks
        ],
        "stages": [s.model_dump(by_alias=True) for s in result.stages],
        "slots": [
            {
                "slot": s.slot,
                "gate": s.gate.model_dump(),
                "excluded": s.excluded,
                "unmatched_excludes": s.unmatched_excludes,
                "over_budget": s.over_budget,
                "unknown_price": s.unknown_price,
            }
            for s in result.slots
        ],
    }


def _fail(error: ToolError, json_out: bool) -> NoReturn:
    if json_out:
        emit_json({"error": error.model_dump()})
    typer.echo(f"error ({error.code}): {error.message}", err=True)
    raise typer.Exit(code=2)
