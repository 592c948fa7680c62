"""Why a short result is short: among relevant hits of a recall without the hard filters,
name for each one that did not make it what blocked it (brand → exclude term → rating →
price), and say when the budget alone is to blame, so the agent can tell the shopper. When
the result names none of the asked product, the verdict is about that product's items."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from app.catalog.currency import usd
from app.catalog.item import Item
from app.tools.search._args import SearchScope
from app.tools.search._postfilters import ItemMatchers
from app.tools.search._product import names_product
from app.tools.search._relevance import RelevanceFloor, ScoredHit

BlockReason = Literal["brand", "exclude_term", "rating", "price", "price_floor"]


@dataclass(frozen=True)
class Block:
    """A relevant item a hard filter kept out, with every reason in checking order."""

    item: Item
    reasons: tuple[tuple[BlockReason, str], ...]

    @property
    def reason(self) -> BlockReason:
        """The first reason in the order brand, exclude term, rating, price."""
        return self.reasons[0][0]

    @property
    def detail(self) -> str:
        return self.reasons[0][1]


@dataclass(frozen=True)
class PriceVerdict:
    """The budget alone blocked every blocked item (of `product`, when set): how many, and
    the cheapest price seen."""

    blocked: int
    over_budget: int
    unknown_price: int
    cheapest_usd: float | None
    budget_usd: float
    product: str | None = None


@dataclass(frozen=True)
class ProbeFindings:
    """Blocked items, best recall rank first, and the price verdict when it applies."""

    blocked: list[Block]
    price_only: PriceVerdict | None


def block_reasons(
    item: Item, scope: SearchScope, matchers: ItemMatchers
) -> tuple[tuple[BlockReason, str], ...]:
    """Every hard constraint `item` fails, in the order brand, exclude term, rating, price."""
    reasons: list[tuple[BlockReason, str]] = []
    excluded = matchers.excluded_brand(item)
    if excluded is not None:
        reasons.append(("brand", f"brand {item.brand or excluded} is excluded"))
    elif matchers.wrong_brand(item):
        shown = item.brand or "unknown"
        reasons.append(("brand", f"brand is {shown}, not {matchers.brand_label}"))
    term = matchers.exclude_term(item)
    if term is not None:
        reasons.append(("exclude_term", f"mentions '{term}', which the shopper ruled out"))
    if scope.min_rating is not None:
        if item.rating is None:
            reasons.append(("rating", f"rating unknown, {scope.min_rating:g}+ asked"))
        elif item.rating < scope.min_rating:
            reasons.append(("rating", f"rated {item.rating:g}, below {scope.min_rating:g}"))
    if scope.price_max is not None:
        if item.price_usd is None:
            reasons.append(("price", "price unknown"))
        elif item.price_usd > scope.price_max:
            reasons.append(
                ("price", f"{usd(item.price_usd)} is above the {usd(scope.price_max)} budget")
            )
    if scope.price_min is not None:
        floor = usd(scope.price_min)
        if item.price_usd is None and scope.price_max is None:
            reasons.append(
                ("price_floor", f"price unknown, so the {floor} floor cannot be checked")
            )
        elif item.price_usd is not None and item.price_usd < scope.price_min:
            reasons.append(("price_floor", f"{usd(item.price_usd)}, below the {floor} floor"))
    return tuple(reasons)


def explain_blocks(
    probe_hits: Iterable[ScoredHit],
    kept_ids: set[str],
    scope: SearchScope,
    matchers: ItemMatchers,
    *,
    product: str | None = None,
) -> ProbeFindings:
    """Relevant probe hits (floor and target model) absent from the result, with reasons;
    a hit that fails no hard constraint was merely ranked out and is not listed. With
    `product` (the result named none), the price verdict weighs the blocked items that name
    it, when there are any."""
    blocked = []
    floor = RelevanceFloor.current()
    for hit in probe_hits:
        if hit.item_id in kept_ids or not floor.passes(hit.relevance, hit.lexical):
            continue
        if not matchers.model_matches(hit.item):
            continue
        reasons = block_reasons(hit.item, scope, matchers)
        if reasons:
            blocked.append(Block(hit.item, reasons))
    named = [b for b in blocked if product and names_product(b.item, product, scope.query)]
    if named:
        return ProbeFindings(blocked, price_verdict(named, scope, product))
    return ProbeFindings(blocked, price_verdict(blocked, scope))


def price_verdict(
    blocked: list[Block], scope: SearchScope, product: str | None = None
) -> PriceVerdict | None:
    """The verdict when the budget alone blocked every one of `blocked`, else None."""
    if not blocked or scope.price_max is None:
        return None
    if any(len(b.reasons) != 1 or b.reason != "price" for b in blocked):
        return None
    prices = [b.item.price_usd for b in blocked if b.item.price_usd is not None]
    return PriceVerdict(
        blocked=len(blocked),
        over_budget=len(prices),
        unknown_price=len(blocked) - len(prices),
        cheapest_usd=min(prices) if prices else None,
        budget_usd=scope.price_max,
        product=product,
    )
