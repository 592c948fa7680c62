"""P_t, the shopping plan of a session: what the shopper wants, as the tools read it.

The planner writes it each turn from the recent user messages; item_search, price_compare
and item_picker read it. Hard constraints (`exclude`) carry the quoted words that justify
them so a later message can lift them and a summary can explain them.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from app.tools.plan._lexicon_rules import beside_product, catalog_alias

__all__ = ["BundleSlot", "Constraint", "ShoppingPlan"]


class Constraint(BaseModel):
    """One term the shopper ruled out, with the words of theirs that say so."""

    model_config = ConfigDict(frozen=True)

    term: str = Field(min_length=1, description="Lower-cased word or phrase to match.")
    evidence: str = Field("", description="The shopper's own words, quoted.")


class BundleSlot(BaseModel):
    """One part of a multi-item request ("a laptop and a mouse"): searched and picked apart."""

    model_config = ConfigDict(frozen=True)

    slot: str = Field(min_length=1, description="Stable slot name, e.g. 'laptop'.")
    category: str = Field(min_length=1)
    keywords: tuple[str, ...] = ()
    must_have: tuple[str, ...] = Field(
        (),
        description="The plan's must-haves said of this product alone ('16000 dpi' in 'a "
        "laptop and a mouse with at least 16000 dpi'); the other parts leave them out.",
    )
    budget_usd: float | None = Field(None, gt=0)

    def query_text(self) -> str:
        """The slot's search query: its category, the catalogs' other name for it, keywords
        as they read beside the product."""
        keywords = [beside_product(k, self.category) for k in self.keywords]
        parts = [self.category, catalog_alias(self.category), *keywords]
        return " ".join(dict.fromkeys(p for p in parts if p))


class ShoppingPlan(BaseModel):
    """The session state P_t that every shopping tool reads."""

    model_config = ConfigDict(frozen=True)

    is_shopping: bool = True
    category: str | None = None
    keywords: tuple[str, ...] = ()
    must_have: tuple[str, ...] = ()
    prefer: tuple[str, ...] = ()
    exclude: tuple[Constraint, ...] = ()
    avoid: tuple[Constraint, ...] = ()
    budget_usd: float | None = Field(None, gt=0)
    budget_min_usd: float | None = Field(
        None,
        gt=0,
        description="Lowest price in USD: a range's ('between $300 and $600') or a lone floor "
        "('over $300').",
    )
    budget_amount: float | None = Field(None, gt=0, description="Budget as written.")
    budget_target_usd: float | None = Field(
        None,
        gt=0,
        description="The price the shopper named as approximate ('around $1500'), in USD: the "
        "picker ranks prices near it first. None for a limit ('under $1500').",
    )
    currency: str = Field("USD", description="ISO code of the currency as written.")
    cheap: bool = Field(
        False,
        description="The shopper asked for a low price without naming one ('a cheap tablet', "
        "'the cheapest ssd'): the picker weighs cheapness more.",
    )
    cheapest: bool = Field(
        False,
        description="The shopper asked for the cheapest ('the cheapest ssd', 'lowest price'): "
        "the picks are shown cheapest first.",
    )
    in_stock: bool = Field(
        False,
        description="The shopper asked for items in stock now ('in stock', 'available now'): "
        "the picker leaves out pre-orders as well as the sold-out listings it always leaves out.",
    )
    gift: bool = Field(
        False,
        description="The shopper buys it as a gift ('a gift for my dad'): while no product is "
        "named, the agent asks what the person enjoys.",
    )
    bundle: tuple[BundleSlot, ...] = ()
    platforms: tuple[str, ...] = ()

    @property
    def exclude_terms(self) -> tuple[str, ...]:
        """The hard-excluded terms alone."""
        return tuple(c.term for c in self.exclude)

    @property
    def avoid_terms(self) -> tuple[str, ...]:
        """The softly avoided terms alone."""
        return tuple(c.term for c in self.avoid)

    def query_text(self) -> str:
        """A search query built from the plan: the category and the catalogs' other name for it
        ("laptop notebook"), then keywords and must-haves as they read beside the product
        ("16gb": laptop titles say "16 GB DDR4-SDRAM", and "ram" finds memory modules;
        "backlit", as "keyboard" finds keyboards); with no product named, the wishes too,
        beside words to search ("something cozy for the living room": "cozy living room";
        "something for the kitchen" alone is asked what to look for)."""
        wishes = self.prefer if not self.category and (self.keywords or self.must_have) else ()
        said = (*self.keywords, *self.must_have, *wishes)
        terms = [beside_product(t, self.category) for t in said]
        parts = [self.category or "", catalog_alias(self.category), *terms]
        seen: list[str] = []
        for part in parts:
            part = part.strip()
            if part and part.lower() not in (s.lower() for s in seen):
                seen.append(part)
        return " ".join(seen)
