"""A bundle's budget shared among its parts. Each part is picked on its own, so a part may
cost the plan's budget less what the others take: the first pick already made for one, or
the cheapest candidate of one not picked yet ("a laptop and a mouse for $900" leaves the
laptop $900 less the cheapest mouse, and the mouse what the laptop left)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from app.catalog.item import Item
from app.tools.candidates import Candidate
from app.tools.plan import ShoppingPlan


def bundle_share(
    plan: ShoppingPlan,
    slot: str,
    candidates: Mapping[str, Sequence[Candidate]],
    picked: Mapping[str, float],
    items: Mapping[str, Item],
) -> float | None:
    """What `slot` may cost of the plan's budget, or None when the plan's budget does not
    cap a bundle the slot is part of (no budget, no bundle, or a budget of the slot's own).
    `picked` holds the first pick's price of each part picked so far."""
    parts = {b.slot: b for b in plan.bundle}
    if plan.budget_usd is None or len(parts) < 2 or slot not in parts:
        return None
    if parts[slot].budget_usd is not None:
        return None
    others = [s for s in parts if s != slot]
    taken = sum(picked.get(s, _cheapest(candidates.get(s, ()), items)) for s in others)
    return round(max(plan.budget_usd - taken, 0.0), 2)


def _cheapest(candidates: Sequence[Candidate], items: Mapping[str, Item]) -> float:
    prices = [
        price
        for c in candidates
        if (item := items.get(c.item_id)) is not None and (price := item.price_usd) is not None
    ]
    return min(prices, default=0.0)
