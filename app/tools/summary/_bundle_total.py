"""What a bundle's picks cost together, and which set of them fits the shopper's budget: each
part is picked on its own, so the first picks of a laptop and a mouse may add up to more
than the $900 the shopper set for both."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from app.catalog.currency import usd
from app.tools.picker import Pick


def together(parts: Sequence[Sequence[Pick]], budget_usd: float | None) -> str | None:
    """One sentence on the bundle's total: the first pick of each part and how it stands to
    the budget, or, when it is over, the best-ranked set of picks that fits (fewest steps
    down the parts' rankings, the part named first kept highest). None unless every part
    has a priced pick."""
    priced = [[p for p in picks if p.price_usd is not None] for picks in parts]
    if len(priced) < 2 or not all(priced):
        return None
    sets = sorted(product(*(list(enumerate(picks)) for picks in priced)), key=_ranks)
    total = _total(_picks(sets[0]))
    first = f"Together the first picks come to {usd(total)}"
    if budget_usd is None:
        return first
    if total <= budget_usd:
        return f"{first}, within your {usd(budget_usd)} budget"
    fitting = next((_picks(c) for c in sets if _total(_picks(c)) <= budget_usd), None)
    over = f"{first}, over your {usd(budget_usd)} budget"
    if fitting is None:
        cheapest = min(_total(_picks(c)) for c in sets)
        return f"{over}; no set of these picks fits it (the cheapest comes to {usd(cheapest)})"
    cited = " and ".join(f"[{p.item_id}]" for p in fitting)
    return f"{over}; {cited} fit it at {usd(_total(fitting))}"


def _picks(chosen: tuple[tuple[int, Pick], ...]) -> list[Pick]:
    return [pick for _, pick in chosen]


def _total(picks: Sequence[Pick]) -> float:
    return round(sum(p.price_usd or 0.0 for p in picks), 2)


def _ranks(chosen: tuple[tuple[int, Pick], ...]) -> tuple[int, tuple[int, ...]]:
    ranks = tuple(rank for rank, _ in chosen)
    return sum(ranks), ranks
