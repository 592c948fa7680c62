"""`GET /v1/cards?ids=…`: what the chat page shows of picks beyond the turn's events: the
catalog's fields of each item (image, brand, the specs it lists) and, from price_compare, the
same product's offers on other shops."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi import APIRouter, Query, Request

from app.api._state import api_state
from app.catalog.item import Item
from app.config.params.api import CARDS_MAX_IDS
from app.errors import InvalidRequest
from app.tools.base import ToolContext, invoke_tool
from app.tools.compare import PriceCompareResult

__all__ = ["card_of", "router"]

router = APIRouter(tags=["catalog"])

_HIDDEN = frozenset({"description", "source", "ean", "inferred_category", "spec_text"})


@router.get("/v1/cards")
async def cards(
    request: Request,
    ids: list[str] = Query(..., description="Item ids, e.g. 'walmart:1a2b3c4d5e6f'."),
    offers: bool = Query(True, description="Also look for the same product on other shops."),
) -> dict[str, Any]:
    """One card per known id, in the order asked; unknown ids are listed apart."""
    wanted = list(dict.fromkeys(i.strip() for i in ids if i.strip()))
    limit = CARDS_MAX_IDS.get()
    if not wanted or len(wanted) > limit or any(len(i) > 80 for i in wanted):
        raise InvalidRequest(f"ask for 1 to {limit} item ids of at most 80 characters")
    runtime = api_state(request).runtime
    items = runtime.index.items
    known = [items[i] for i in wanted if i in items]
    found = [card_of(item) for item in known]
    if offers and known and "price_compare" in runtime.tools:
        await _add_offers(found, runtime.tools["price_compare"])
    return {"cards": found, "unknown": [i for i in wanted if i not in items]}


def card_of(item: Item) -> dict[str, Any]:
    """An item's public fields for a card; `category` is the known one."""
    doc = {k: v for k, v in item.model_dump(mode="json").items() if k not in _HIDDEN}
    doc["category"] = item.known_category
    return doc


async def _add_offers(found: list[dict[str, Any]], tool: Any) -> None:
    """Each card's offers elsewhere (cheapest first), or `offers_error` when price_compare
    failed (a dependency down), so the page can say so instead of showing none."""
    ids = [card["item_id"] for card in found]
    ctx = ToolContext("cards", uuid.uuid4().hex[:16])
    outcome = await invoke_tool(tool, {"item_ids": ids, "max_items": len(ids)}, ctx)
    output = outcome.output
    if not isinstance(output, PriceCompareResult):
        for card in found:
            card["offers_error"] = getattr(output, "message", "price_compare failed")
        return
    compared = {c.item_id: c for group in output.products for c in group.items}
    for card in found:
        item = compared.get(card["item_id"])
        card["offers"] = [o.model_dump(mode="json") for o in item.offers] if item else []
        card["saving_usd"] = item.saving_usd if item else None
