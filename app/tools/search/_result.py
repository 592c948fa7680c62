"""The typed result of item_search: hits, what the filters blocked and why, how the search
was widened, and what the recall did (sources, cache level, timings)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.catalog.articles import with_article
from app.catalog.currency import usd
from app.recall.trace import CacheLevel
from app.tools.base import ToolResult
from app.tools.search._probe import Block
from app.tools.search._relevance import ScoredHit
from app.tools.search._render import render_result


class SearchHit(BaseModel):
    """One kept item, in result order."""

    model_config = ConfigDict(frozen=True)

    item_id: str
    platform: str
    title: str
    brand: str | None = None
    category: str | None = None
    price_usd: float | None = None
    rating: float | None = None
    score: float = Field(description="Fused recall score (higher is better).")
    relevance: float | None = Field(None, description="Cosine of query and item vectors.")
    sources: list[str] = Field(default_factory=list, description="Recall sources that found it.")

    @classmethod
    def of(cls, scored: ScoredHit) -> SearchHit:
        """A kept hit as the result shows it."""
        item = scored.item
        return cls(
            item_id=item.item_id,
            platform=item.platform,
            title=item.title,
            brand=item.brand,
            category=item.category,
            price_usd=item.price_usd,
            rating=item.rating,
            score=round(scored.hit.score, 6),
            relevance=None if scored.relevance is None else round(scored.relevance, 4),
            sources=[s for s, v in scored.hit.source_scores.items() if v is not None],
        )


class BlockedItem(BaseModel):
    """A relevant item a hard filter kept out: the first reason and every reason."""

    model_config = ConfigDict(frozen=True)

    item_id: str
    title: str
    price_usd: float | None = None
    reason: Literal["brand", "exclude_term", "rating", "price", "price_floor"]
    detail: str
    reasons: list[str] = Field(default_factory=list)

    @classmethod
    def of(cls, block: Block) -> BlockedItem:
        """A blocked item as the result shows it."""
        return cls(
            item_id=block.item.item_id,
            title=block.item.title,
            price_usd=block.item.price_usd,
            reason=block.reason,
            detail=block.detail,
            reasons=[r for r, _ in block.reasons],
        )


class PriceOnly(BaseModel):
    """The budget alone blocked every blocked item; with `product`, every blocked item that
    names it, while no hit shown does (the hits are other things under the budget)."""

    model_config = ConfigDict(frozen=True)

    blocked: int
    over_budget: int
    unknown_price: int
    cheapest_usd: float | None
    budget_usd: float
    product: str | None = Field(
        None, description="Set when no hit names the asked product and every one found is blocked."
    )

    def sentence(self) -> str:
        """What the agent can tell the shopper."""
        budget = usd(self.budget_usd)
        matches = f"matches for {with_article(self.product)}" if self.product else "matches"
        if self.cheapest_usd is None:
            return f"{self.blocked} {matches} have no known price, so none fits the {budget} budget"
        text = (
            f"{self.over_budget} {matches} are above your {budget} budget; "
            f"the cheapest is {usd(self.cheapest_usd)}"
        )
        if self.unknown_price:
            verb = "has" if self.unknown_price == 1 else "have"
            text += f" ({self.unknown_price} more {verb} no known price)"
        return text


class AppliedScope(BaseModel):
    """The constraints the hits satisfy (after any relaxation)."""

    model_config = ConfigDict(frozen=True)

    platforms: list[str] = Field(default_factory=list, description="Empty means all platforms.")
    price_usd_max: float | None = None
    budget_source: Literal["args", "slot", "plan"] | None = None
    price_usd_min: float | None = None
    min_rating: float | None = None
    brand: str | None = None
    brand_exclude: list[str] = Field(default_factory=list)
    exclude_terms: list[str] = Field(default_factory=list)
    model_number: str | None = None


class ItemSearchResult(ToolResult):
    """What one item_search call found and how; `render()` is the compact text for the model."""

    query: str
    slot: str
    top_k: int
    requested_top_k: int
    hits: list[SearchHit]
    applied: AppliedScope
    removed: dict[str, int] = Field(
        default_factory=dict, description="Hits each post-filter removed, in filter order."
    )
    filtered_out: list[BlockedItem] = Field(default_factory=list)
    blocked_total: int = 0
    price_only: PriceOnly | None = None
    absent: str | None = Field(
        None, description="The asked product, when no item of the catalog names it."
    )
    relaxed: bool = False
    relaxed_constraints: list[str] = Field(default_factory=list)
    expanded: bool = False
    expansion_variants: list[str] = Field(default_factory=list)
    per_source_counts: dict[str, int] = Field(
        default_factory=dict, description="Hits per source in the recall whose hits are shown."
    )
    failed_sources: dict[str, str] = Field(default_factory=dict)
    cache: CacheLevel | None = Field(None, description="Level that answered the main dense recall.")
    notes: list[str] = Field(default_factory=list)
    ranking: str | None = Field(
        None, description="How the hits were ordered: the relevance model blended in, or why not."
    )
    timings_ms: dict[str, float] = Field(default_factory=dict)

    def render(self) -> str:
        return render_result(self)
