"""category_insight: which catalog category a shopper's words name, with a confidence, and
compact cards (item count, price range, brands, typical terms) so the agent can ask
better follow-up questions and set sensible budgets before searching items."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.catalog.currency import usd
from app.config.params.category_kb import KB_CONFIDENCE_THRESHOLD, KB_TOP_K
from app.recall.category_kb import KnowledgeBase, ScoredCard, confidence
from app.tools.base import ToolContext, ToolResult

__all__ = ["CardBrief", "CategoryInsightArgs", "CategoryInsightResult", "CategoryInsightTool"]

MAX_CARDS = 10

DESCRIPTION = (
    "Identify the catalog category a product phrase refers to (e.g. 'toner cartridge', "
    "'gaming keyboard') and describe it: how many items, on which platforms, the price range "
    "(min / median / max USD), the top brands and typical specs. Use it to understand a vague "
    "request, pick a realistic budget or choose follow-up questions. 'category' is null when "
    "no category matches confidently; then search items directly or ask the shopper."
)


class CategoryInsightArgs(BaseModel):
    """What the model may ask category_insight for."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    query: str = Field(
        min_length=1,
        max_length=200,
        description="A product or category phrase, e.g. 'usb cable' or 'laptop'.",
    )
    top_k: int | None = Field(
        None, ge=1, le=MAX_CARDS, description="How many category cards to return (default 3)."
    )

    @field_validator("query")
    @classmethod
    def _collapse_spaces(cls, value: str) -> str:
        return " ".join(value.split())


class CardBrief(BaseModel):
    """One category card as the model reads it."""

    model_config = ConfigDict(frozen=True)

    category: str
    score: float = Field(description="Fused match score in [0, 1] (relative to this query).")
    items: int
    platforms: list[str]
    price_usd: list[float] | None = Field(None, description="[min, median, max] in USD.")
    brands: list[str] = Field(default_factory=list)
    typical: list[str] = Field(default_factory=list, description="Typical title terms, specs.")
    labels: list[str] = Field(default_factory=list, description="Raw item category labels.")

    @classmethod
    def of(cls, scored: ScoredCard) -> CardBrief:
        card, s = scored.card, scored.card.summary
        price = None if s.price is None else [s.price.min, s.price.median, s.price.max]
        return cls(
            category=card.category,
            score=round(scored.score, 3),
            items=s.item_count,
            platforms=sorted(s.platforms),
            price_usd=price,
            brands=list(s.top_brands[:3]),
            typical=[*s.top_terms[:4], *s.specs[:3]],
            labels=list(card.labels),
        )

    def line(self) -> str:
        parts = [f"{self.category}: {self.items} items on {', '.join(self.platforms)}"]
        if self.price_usd is not None:
            low, median, high = self.price_usd
            parts.append(f"{usd(low)}–{usd(high)} (median {usd(median)})")
        if self.brands:
            parts.append("brands " + ", ".join(self.brands))
        if self.typical:
            parts.append("typical " + ", ".join(self.typical))
        return "; ".join(parts)


class CategoryInsightResult(ToolResult):
    """The resolved category (None below the confidence threshold) and the best cards."""

    query: str
    category: str | None
    confidence: float = Field(description="In [0, 1]; see app.recall.category_kb.confidence.")
    margin: float = Field(description="Fused score of the best card minus the second's.")
    cards: list[CardBrief]

    def render(self) -> str:
        if self.category is not None:
            head = f"category: {self.category} (confidence {self.confidence:.2f})"
        else:
            head = f"no confident category for {self.query!r} (confidence {self.confidence:.2f})"
        lines = [head] + [f"- {c.line()}" for c in self.cards]
        if not self.cards:
            lines.append("- no category cards")
        return "\n".join(lines)


class CategoryInsightTool:
    """The category_insight tool over a knowledge base; safe to share across sessions."""

    name: ClassVar[str] = "category_insight"
    description: ClassVar[str] = DESCRIPTION
    args_model: ClassVar[type[BaseModel]] = CategoryInsightArgs
    concurrency_safe: ClassVar[bool] = True
    terminal: ClassVar[bool] = False

    def __init__(self, kb: KnowledgeBase) -> None:
        self.kb = kb

    async def run(self, args: CategoryInsightArgs, ctx: ToolContext) -> CategoryInsightResult:
        """Search the KB (at least two cards, for the margin) and resolve the best card."""
        top_k = args.top_k or KB_TOP_K.get()
        results = await self.kb.search(args.query, top_k=max(top_k, 2))
        sure = confidence(results)
        resolved = results[0].card.category if results else None
        if sure.value < KB_CONFIDENCE_THRESHOLD.get():
            resolved = None
        return CategoryInsightResult(
            query=args.query,
            category=resolved,
            confidence=sure.value,
            margin=sure.margin,
            cards=[CardBrief.of(s) for s in results[:top_k]],
        )
