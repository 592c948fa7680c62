"""price_compare: the same product on other platforms for the shopper's candidates, with the
cheapest offer marked and the saving against each candidate's own price."""

from __future__ import annotations

import asyncio
from typing import Annotated, ClassVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.catalog.item import Item
from app.catalog.matching import ProductMatcher
from app.config.params.compare import COMPARE_DEFAULT_ITEMS, COMPARE_MAX_ITEMS
from app.errors import InvalidRequest, NotFound
from app.recall.matching_offers import OfferFinder
from app.recall.search_index import SearchIndex
from app.tools.base import ToolContext
from app.tools.candidates import DEFAULT_SLOT
from app.tools.compare._offers import compared_item, group_by_product
from app.tools.compare._result import ComparedItem, Offer, PriceCompareResult, ProductGroup

__all__ = [
    "ComparedItem",
    "Offer",
    "PriceCompareArgs",
    "PriceCompareResult",
    "PriceCompareTool",
    "ProductGroup",
]

DESCRIPTION = (
    "Find the same product on the catalog's other shops for items already found by "
    "item_search, and say where it is cheapest. Pass the "
    "item_ids to compare, or a slot to compare its top candidates. For each item it lists "
    "the offers of that exact product elsewhere (matched by model number, title, specs and "
    "brand, with the evidence), marks the cheapest priced offer and gives the saving in USD "
    "against the item's own price; offers without a price are listed but never cheapest. "
    "Items that are one product are grouped. An item with no offers is sold nowhere else in "
    "the catalog: do not invent one."
)

ItemId = Annotated[str, Field(min_length=1, max_length=80)]


class PriceCompareArgs(BaseModel):
    """What the model may ask price_compare for; anything else is rejected."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    item_ids: list[ItemId] | None = Field(
        None,
        min_length=1,
        max_length=100,
        description="Item ids (shop:id) from item_search results. "
        "Default: the top candidates of the slot.",
    )
    slot: str = Field(
        DEFAULT_SLOT,
        min_length=1,
        max_length=40,
        description="Search slot whose candidates to compare when item_ids is not given.",
    )
    max_items: int | None = Field(
        None, ge=1, le=100, description="How many items to compare at most (the server caps it)."
    )

    @field_validator("item_ids")
    @classmethod
    def _distinct(cls, ids: list[str] | None) -> list[str] | None:
        return list(dict.fromkeys(ids)) if ids else ids


class PriceCompareTool:
    """The price_compare tool over an opened index; builds its offer finder once, then safe
    to share between sessions."""

    name: ClassVar[str] = "price_compare"
    description: ClassVar[str] = DESCRIPTION
    args_model: ClassVar[type[BaseModel]] = PriceCompareArgs
    concurrency_safe: ClassVar[bool] = True
    terminal: ClassVar[bool] = False

    def __init__(
        self,
        index: SearchIndex,
        matcher: ProductMatcher | None = None,
        *,
        finder: OfferFinder | None = None,
    ) -> None:
        self.index = index
        self.finder = finder or OfferFinder.build(index, matcher)

    async def run(self, args: PriceCompareArgs, ctx: ToolContext) -> PriceCompareResult:
        """Resolve the items, find each one's offers elsewhere, group them by product."""
        limit = min(args.max_items or COMPARE_MAX_ITEMS.get(), COMPARE_MAX_ITEMS.get())
        slot = None if args.item_ids else args.slot
        ids = args.item_ids or self._slot_ids(ctx, args.slot, args.max_items)
        known: list[Item] = []
        unknown: list[str] = []
        for item_id in ids:
            item = self.index.items.get(item_id)
            if item is None:
                unknown.append(item_id)
            else:
                known.append(item)
        if not known:
            raise NotFound(
                f"none of the item ids {unknown[:5]} is in the catalog; "
                "use the [item_id] values from item_search results"
            )
        known = known[:limit]
        platforms = list(ctx.plan.platforms)
        found = await asyncio.gather(
            *(self.finder.offers(item, platforms=platforms) for item in known)
        )
        compared = [
            compared_item(item, matches) for item, matches in zip(known, found, strict=True)
        ]
        return PriceCompareResult(
            slot=slot,
            compared=len(compared),
            with_offers=sum(1 for c in compared if c.offers),
            products=group_by_product(compared),
            unknown_item_ids=unknown,
            platforms=platforms,
        )

    def _slot_ids(self, ctx: ToolContext, slot: str, asked: int | None) -> list[str]:
        candidates = ctx.candidates.slot(slot)
        if not candidates:
            searched = ", ".join(ctx.candidates.slots()) or "none"
            raise InvalidRequest(
                f"slot {slot!r} has no candidates (slots with candidates: {searched}); "
                "run item_search for it first or pass item_ids"
            )
        return [c.item_id for c in candidates[: asked or COMPARE_DEFAULT_ITEMS.get()]]
