"""The typed result of price_compare: per product, each compared item's offers elsewhere,
the cheapest marked and the saving against the item's own price."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from app.catalog.currency import usd
from app.tools.base import ToolResult


class Offer(BaseModel):
    """The same product on another platform, and why the matcher thinks so."""

    model_config = ConfigDict(frozen=True)

    item_id: str
    platform: str
    title: str
    price_usd: float | None = None
    match_probability: float = Field(description="Matcher probability of being the same product.")
    cheapest: bool = Field(False, description="The lowest-priced offer; unpriced ones never are.")
    saving_usd: float | None = Field(
        None, description="Compared item's price minus this offer's; positive: cheaper here."
    )
    evidence: list[str] = Field(
        default_factory=list, description="Features that pushed towards a match, strongest first."
    )


class ComparedItem(BaseModel):
    """One compared item and its offers on other platforms (never the item itself)."""

    model_config = ConfigDict(frozen=True)

    item_id: str
    platform: str
    title: str
    price_usd: float | None = None
    offers: list[Offer] = Field(default_factory=list, description="Cheapest first; unpriced last.")
    cheapest_offer_id: str | None = None
    saving_usd: float | None = Field(
        None, description="Item price minus the cheapest offer's; positive: cheaper elsewhere."
    )


class ProductGroup(BaseModel):
    """Compared items that are one product (each other's offers or sharing one)."""

    model_config = ConfigDict(frozen=True)

    title: str
    items: list[ComparedItem]


class PriceCompareResult(ToolResult):
    """Offers across platforms for the compared items, grouped by product."""

    slot: str | None = None
    compared: int
    with_offers: int
    products: list[ProductGroup] = Field(default_factory=list)
    unknown_item_ids: list[str] = Field(default_factory=list)
    platforms: list[str] = Field(default_factory=list, description="Empty means all platforms.")

    def render(self) -> str:
        """One line per compared item, one indented line per offer."""
        lines = [f"price_compare: {self.compared} items, {self.with_offers} with offers elsewhere"]
        for group in self.products:
            if len(group.items) > 1:
                lines.append(f"same product ({len(group.items)} listings): {group.title}")
            for item in group.items:
                lines.append(f"[{item.item_id}] {item.title} | {_money(item.price_usd)}")
                lines.extend(_offer_line(item, offer) for offer in item.offers)
                if not item.offers:
                    lines.append("  no offer of this product on another platform")
        if self.unknown_item_ids:
            lines.append("unknown item ids: " + ", ".join(self.unknown_item_ids))
        return "\n".join(lines)


def _offer_line(item: ComparedItem, offer: Offer) -> str:
    line = f"  -> [{offer.item_id}] {offer.platform} {_money(offer.price_usd)}"
    if offer.cheapest and item.saving_usd is not None:
        if item.saving_usd > 0:
            line += f" (cheapest, saves {usd(item.saving_usd)})"
        else:
            line += " (cheapest elsewhere, not cheaper than this one)"
    line += f" match {offer.match_probability:.2f}"
    if offer.evidence:
        line += " by " + ", ".join(offer.evidence[:3])
    return line


def _money(value: float | None) -> str:
    return "no price" if value is None else usd(value)
