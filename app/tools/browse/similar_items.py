"""similar_items: other products like one item (its nearest vectors of the same category),
never the same product on another shop, within the session plan's budget, shop scope and
ruled-out words."""

from __future__ import annotations

from typing import Annotated, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from app.catalog.currency import usd, usd_rates
from app.catalog.item import Item
from app.catalog.matching import ProductMatcher
from app.recall.search_index import SearchIndex
from app.recall.similar_items import SimilarFinder, SimilarLimits, SimilarResult
from app.tools.base import ToolContext, ToolResult
from app.tools.plan import ShoppingPlan

__all__ = [
    "MAX_K",
    "SimilarItem",
    "SimilarItemsArgs",
    "SimilarItemsResult",
    "SimilarItemsTool",
    "limits_of",
]

MAX_K = 20
DESCRIPTION = (
    "List other products similar to one item (by item_id): the nearest items of the same "
    "category by meaning, best first, with a similarity in [0, 1]. The same product on other "
    "shops is never listed (use price_compare for that), nor its other sizes or colours. The "
    "shopping plan's budget, shop scope and ruled-out words apply. Use it when the shopper "
    "asks for alternatives to, or more like, a specific item; cite results as [item_id]."
)

ItemId = Annotated[str, Field(min_length=1, max_length=80)]


class SimilarItemsArgs(BaseModel):
    """What the model may ask similar_items for; anything else is rejected."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    item_id: ItemId = Field(description="An item id from earlier results, e.g. 'amazon:b0123'.")
    k: int = Field(5, ge=1, le=MAX_K, description="How many similar items to list (1-20).")


class SimilarItem(BaseModel):
    """One similar item as the caller reads it."""

    model_config = ConfigDict(frozen=True)

    item_id: str
    title: str
    platform: str
    brand: str | None = None
    category: str | None = None
    price: float | None = None
    currency: str | None = None
    price_usd: float | None = None
    image_url: str | None = None
    url: str | None = None
    score: float = Field(description="Cosine similarity to the item asked about.")

    @classmethod
    def of(cls, item: Item, score: float) -> SimilarItem:
        return cls(
            item_id=item.item_id,
            title=item.title,
            platform=item.platform,
            brand=item.brand,
            category=item.known_category,
            price=item.price,
            currency=item.currency,
            price_usd=item.price_usd,
            image_url=item.image_url,
            url=item.url,
            score=round(score, 4),
        )


class SimilarItemsResult(ToolResult):
    """The similar items of one item, best first, and what was left out and why."""

    item_id: str
    title: str
    category: str | None = Field(None, description="The category the neighbours share.")
    items: list[SimilarItem]
    left_out: dict[str, int] = Field(default_factory=dict)
    limits: dict[str, object] = Field(
        default_factory=dict, description="The plan's limits that applied."
    )

    def render(self) -> str:
        head = f"Similar to [{self.item_id}] {self.title}"
        if self.category:
            head += f" (category {self.category})"
        lines = [head + f": {len(self.items)} found."]
        for n, item in enumerate(self.items, 1):
            price = "no price" if item.price_usd is None else usd(item.price_usd)
            lines.append(
                f"{n}. [{item.item_id}] {item.title} | {item.platform} | {price} | "
                f"similarity {item.score:.2f}"
            )
        dropped = {k: v for k, v in self.left_out.items() if v}
        if dropped:
            lines.append("Left out: " + ", ".join(f"{k} {v}" for k, v in dropped.items()))
        if self.limits:
            applied = ", ".join(f"{k}={v}" for k, v in self.limits.items())
            lines.append(f"Plan limits applied: {applied}")
        return "\n".join(lines)


def limits_of(plan: ShoppingPlan) -> SimilarLimits:
    """The plan's hard limits: shop scope, budget range (a ceiling said in another currency
    is also checked in it) and ruled-out words."""
    listed = None
    rate = usd_rates().get(plan.currency)
    if plan.budget_usd is not None and plan.currency != "USD" and rate:
        amount = plan.budget_amount
        exact = amount is not None and abs(amount * rate - plan.budget_usd) <= 0.005
        listed = (amount if exact and amount is not None else plan.budget_usd / rate, plan.currency)
    return SimilarLimits(
        platforms=tuple(plan.platforms),
        price_min_usd=plan.budget_min_usd,
        price_max_usd=plan.budget_usd,
        listed_max=listed,
        exclude_terms=plan.exclude_terms,
    )


class SimilarItemsTool:
    """The similar_items tool over an opened index; safe to share between sessions."""

    name: ClassVar[str] = "similar_items"
    description: ClassVar[str] = DESCRIPTION
    args_model: ClassVar[type[BaseModel]] = SimilarItemsArgs
    concurrency_safe: ClassVar[bool] = True
    terminal: ClassVar[bool] = False

    def __init__(
        self,
        index: SearchIndex,
        matcher: ProductMatcher | None = None,
        *,
        finder: SimilarFinder | None = None,
    ) -> None:
        self.finder = finder or SimilarFinder.build(index, matcher)

    async def run(self, args: SimilarItemsArgs, ctx: ToolContext) -> SimilarItemsResult:
        """Neighbours of the item within the session plan's limits; NotFound for an unknown id."""
        limits = limits_of(ctx.plan)
        found = await self.finder.similar(args.item_id, k=args.k, limits=limits)
        return _result(found, limits)


def _result(found: SimilarResult, limits: SimilarLimits) -> SimilarItemsResult:
    applied: dict[str, object] = {}
    if limits.platforms:
        applied["platforms"] = list(limits.platforms)
    if limits.price_min_usd is not None:
        applied["budget_min_usd"] = limits.price_min_usd
    if limits.price_max_usd is not None:
        applied["budget_usd"] = limits.price_max_usd
    if limits.exclude_terms:
        applied["exclude"] = list(limits.exclude_terms)
    return SimilarItemsResult(
        item_id=found.anchor.item_id,
        title=found.anchor.title,
        category=found.category,
        items=[SimilarItem.of(hit.item, hit.score) for hit in found.hits],
        left_out=found.left_out,
        limits=applied,
    )
