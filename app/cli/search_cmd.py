"""`pickwise search QUERY`: the item_search tool from the command line, through the same
`invoke_tool` pipeline the agent uses, printed as JSON or as a short readable list."""

from __future__ import annotations

import asyncio
from typing import Any, NoReturn, cast

import typer

from app.catalog.currency import usd
from app.cli._output import emit_json
from app.cli._runtime import open_runtime
from app.config import get_settings
from app.config.settings import Settings
from app.tools.base import ToolContext, ToolError, ToolOutcome, invoke_tool
from app.tools.plan import Constraint, ShoppingPlan
from app.tools.search import ItemSearchResult

__all__ = ["TOOL", "register", "run_search", "search", "search_payload"]

TOOL = "item_search"


def register(app: typer.Typer) -> None:
    """Add the `search` command to the root CLI."""
    app.command("search")(search)


def search(
    query: str = typer.Argument(..., help="What the shopper is looking for."),
    platform: list[str] = typer.Option([], "--platform", help="Platform(s) to search; repeatable."),
    max_price: float | None = typer.Option(None, "--max-price", help="Budget in USD."),
    min_price: float | None = typer.Option(None, "--min-price", help="Lowest price in USD."),
    min_rating: float | None = typer.Option(None, "--min-rating", help="Minimum rating (0-5)."),
    top_k: int | None = typer.Option(None, "--top-k", help="How many hits."),
    brand: str | None = typer.Option(None, "--brand", help="Only this brand."),
    exclude_brand: list[str] = typer.Option(
        [], "--exclude-brand", help="A brand to leave out; repeatable."
    ),
    exclude: list[str] = typer.Option(
        [], "--exclude", help="A word the shopper ruled out (session exclude); repeatable."
    ),
    model_number: str | None = typer.Option(None, "--model-number", help="Target model number."),
    json_out: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Run item_search and print its hits, what filters blocked, and how recall went."""
    args: dict[str, Any] = {"query": query}
    optional = {
        "platform": platform or None,
        "price_usd_max": max_price,
        "price_usd_min": min_price,
        "min_rating": min_rating,
        "top_k": top_k,
        "brand": brand,
        "brand_exclude": exclude_brand or None,
        "model_number": model_number,
    }
    args.update({k: v for k, v in optional.items() if v is not None})
    plan = ShoppingPlan(exclude=tuple(Constraint(term=t.strip().lower()) for t in exclude if t))
    outcome = asyncio.run(run_search(get_settings(), args, plan))
    if isinstance(outcome.output, ToolError):
        _fail(outcome.output, json_out)
    result = cast(ItemSearchResult, outcome.output)
    if json_out:
        emit_json(search_payload(result))
    else:
        _print_readable(result)


async def run_search(settings: Settings, args: dict[str, Any], plan: ShoppingPlan) -> ToolOutcome:
    """Open a runtime in this event loop, invoke item_search once, close the runtime."""
    async with open_runtime(settings) as runtime:
        ctx = ToolContext(session_id="cli", turn_id="search", plan=plan)
        return await invoke_tool(runtime.tool(TOOL), args, ctx)


def search_payload(result: ItemSearchResult) -> dict[str, Any]:
    """The JSON document of `pickwise search --json`."""
    return {
        "query": result.query,
        "hits": [
            {
                "item_id": h.item_id,
                "platform": h.platform,
                "title": h.title,
                "brand": h.brand,
                "price_usd": h.price_usd,
                "rating": h.rating,
                "score": h.score,
                "relevance": h.relevance,
            }
            for h in result.hits
        ],
        "filtered_out": [
            {"item_id": b.item_id, "reason": b.reason, "detail": b.detail}
            for b in result.filtered_out
        ],
        "blocked_total": result.blocked_total,
        "price_only": result.price_only.model_dump() if result.price_only else None,
        "relaxed": result.relaxed,
        "expanded": result.expanded,
        "expansion_variants": result.expansion_variants,
        "removed": result.removed,
        "applied": result.applied.model_dump(),
        "per_source_counts": result.per_source_counts,
        "failed_sources": result.failed_sources,
        "cache": result.cache,
        "notes": result.notes,
        "timings_ms": result.timings_ms,
    }


def _print_readable(result: ItemSearchResult) -> None:
    for rank, hit in enumerate(result.hits, 1):
        price = "n/a" if hit.price_usd is None else usd(hit.price_usd)
        typer.echo(f"{rank:>2}. [{hit.platform}] {hit.title[:80]}  {price}  ({hit.item_id})")
    if not result.hits:
        typer.echo("no relevant items found")
    if result.price_only is not None:
        typer.echo(f"blocked by budget: {result.price_only.sentence()}")
    for blocked in result.filtered_out:
        typer.echo(f"blocked [{blocked.item_id}] {blocked.title[:60]}: {blocked.detail}")
    flags = [f for f in ("relaxed", "expanded") if getattr(result, f)]
    typer.echo(
        f"cache: {result.cache or 'n/a'}; sources: {result.per_source_counts}"
        + (f"; failed: {result.failed_sources}" if result.failed_sources else "")
        + (f"; {', '.join(flags)}" if flags else "")
    )
    for note in result.notes:
        typer.echo(f"note: {note}")


def _fail(error: ToolError, json_out: bool) -> NoReturn:
    if json_out:
        emit_json({"error": error.model_dump()})
    typer.echo(f"error ({error.code}): {error.message}", err=True)
    raise typer.Exit(code=2)
