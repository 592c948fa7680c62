"""item_picker stage 6: merge near-duplicate listings, show only picks close to the best one
(and a penalised one only when nothing else is shown), and cap how many are shown."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from app.tools._picker_model import Chosen, Scored, Selection
from app.tools._picker_twins import same_product


def cheapest_first(selection: Selection) -> Selection:
    """The picks in order of price, for a shopper who asked for the cheapest: those stating
    more of what was asked first, unpriced ones last among equals (a 4 GB card is no
    answer to "the cheapest 32gb micro sd card", however cheap)."""

    def order(chosen: Chosen) -> tuple[int, bool, float]:
        sem, price = chosen.scored.semantics, chosen.scored.item.price_usd
        unmet = len(sem.specs_unsaid) + len(sem.terms_unsaid)
        return unmet, price is None, price or 0.0

    return dataclasses.replace(selection, picks=tuple(sorted(selection.picks, key=order)))


def near_duplicates(a: Scored, b: Scored, *, threshold: float) -> bool:
    """Whether two scored items are listings of one product (`same_product`)."""
    return same_product(a.item, b.item, threshold=threshold)


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
