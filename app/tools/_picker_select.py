"""item_picker stage 6: merge near-duplicate listings, show only picks close to the best one
(and a penalised one only when nothing else is shown), and cap how many are shown."""

from __future__ import annotations

from collections.abc import Sequence

from app.catalog.item import Item
from app.catalog.matching_codes import different_models
from app.recall.filters import brand_key
from app.tools._picker_model import Chosen, Scored, Selection
from app.tools._picker_terms import find_specs, jaccard


def near_duplicates(a: Scored, b: Scored, *, threshold: float) -> bool:
    """Whether two scored items are listings of one product (`same_product`)."""
    return same_product(a.item, b.item, threshold=threshold)


def same_product(a: Item, b: Item, *, threshold: float) -> bool:
    """Two listings of one product: title-token Jaccard at least `threshold`, or the same
    known brand at the same known price; never two that name different model codes or state
    different amounts of one unit (one catalog's title template fits many models and
    configurations: "16 GB" and "8 GB" ThinkBooks)."""
    if different_models(a, b) or _different_specs(a.title, b.title):
        return False
    if jaccard(a.title, b.title) >= threshold:
        return True
    brand_a, brand_b = brand_key(a.brand), brand_key(b.brand)
    price_a, price_b = a.price_usd, b.price_usd
    return (
        brand_a is not None
        and brand_a == brand_b
        and price_a is not None
        and price_b is not None
        and abs(price_a - price_b) < 0.005
    )


def _different_specs(a: str, b: str) -> bool:
    """Whether two titles state different amounts in a unit both of them state."""
    specs_a: dict[str, set[float]] = {}
    specs_b: dict[str, set[float]] = {}
    for specs, title in ((specs_a, a), (specs_b, b)):
        for spec in find_specs(title):
            value, unit = spec.key
            specs.setdefault(unit, set()).add(value)
    return any(specs_a[unit] != specs_b[unit] for unit in specs_a.keys() & specs_b.keys())


def select(
    ranked: Sequence[Scored], *, max_picks: int, show_ratio: float, dup_threshold: float
) -> Selection:
    """Walk the ranking best first, folding each near-duplicate into the better listing kept
    before it; show those scoring at least `show_ratio` of the best (only the best when it
    scores 0), at most `max_picks`. An item the gate penalised is a closest match only: it
    is shown when no unpenalised item is."""
    kept: list[Scored] = []
    merged: dict[str, list[str]] = {}
    for scored in ranked:
        twin = next((k for k in kept if near_duplicates(k, scored, threshold=dup_threshold)), None)
        if twin is None:
            kept.append(scored)
            merged[scored.item.item_id] = []
        else:
            merged[twin.item.item_id].append(scored.item.item_id)
    if not kept:
        return Selection((), ranked=len(ranked), merged=0, below_ratio=0, over_cap=0)
    best = kept[0].score
    shown = [k for k in kept if k.score >= show_ratio * best] if best > 0 else kept[:1]
    if any(not k.penalised for k in shown):
        shown = [k for k in shown if not k.penalised]
    picks = shown[: max(1, max_picks)]
    return Selection(
        picks=tuple(Chosen(p, tuple(merged[p.item.item_id])) for p in picks),
        ranked=len(ranked),
        merged=len(ranked) - len(kept),
        below_ratio=len(kept) - len(shown),
        over_cap=len(shown) - len(picks),
    )
