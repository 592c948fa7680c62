"""The data of the category KB: a card per category with its summary, and a scored card.

Cards are pydantic models because they cross into tool results and are cached as JSON.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict


class PriceStats(BaseModel):
    """Prices of a category's priced items, in USD."""

    model_config = ConfigDict(frozen=True)

    priced: int
    min: float
    median: float
    max: float


class CardSummary(BaseModel):
    """What a category holds: counts, prices, brands and the title terms and specs typical
    of it (frequent in the category, rare elsewhere)."""

    model_config = ConfigDict(frozen=True)

    item_count: int
    platforms: dict[str, int]
    price: PriceStats | None = None
    top_brands: tuple[str, ...] = ()
    top_terms: tuple[str, ...] = ()
    specs: tuple[str, ...] = ()


class CategoryCard(BaseModel):
    """One category: its display name, the raw `Item.category` labels it covers, the
    surface forms a shopper may type for it, and its summary."""

    model_config = ConfigDict(frozen=True)

    card_id: str
    category: str
    labels: tuple[str, ...]
    aliases: tuple[str, ...]
    summary: CardSummary

    def lexical_text(self) -> str:
        """What BM25 matches: the name, the aliases and the typical title terms."""
        parts = [self.category, ", ".join(self.aliases), " ".join(self.summary.top_terms)]
        return ". ".join(p for p in parts if p)

    def dense_text(self) -> str:
        """What the embedder sees: the name and aliases only, since title terms pull a short
        name's vector towards neighbouring categories ('notebook' towards 'notebook case')."""
        return ". ".join(p for p in (self.category, ", ".join(self.aliases)) if p)


@dataclass(frozen=True)
class ScoredCard:
    """A card found for a query: the fused score in [0, 1] and what each side saw: the
    dense cosine, the raw BM25 score (None when BM25 missed the card) and that BM25 score
    min-max normalised over the query's BM25 hits (0 when missed)."""

    card: CategoryCard
    score: float
    dense: float
    lexical: float | None
    lexical_share: float
