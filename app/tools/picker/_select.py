"""item_picker stage 6: merge near-duplicate listings, show only picks close to the best one
(and a penalised one only when nothing else is shown), never one that lacks an asked spec
another candidate states, and cap how many are shown."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from app.tools.picker._model import Chosen, Scored, Selection
from app.tools.picker._twins import same_product


def cheapest_first(selection: Selection, *, spread: float) -> Selection:
    """The picks in order of price, for a shopper who asked for the cheapest: those stating
    more of what was asked first, unpriced ones last among equals (a 4 GB card is no
    answer to "the cheapest 32gb micro sd card", however cheap); a pick costing more than
    `spread` times the cheapest of those stating the most is held back."""
    ordered = sorted(selection.picks, key=lambda c: (_unmet(c.scored), *_price_order(c)))
    priced = _prices_stating_most([c.scored for c in ordered])
    if not priced:
        return dataclasses.replace(selection, picks=tuple(ordered))
    cap = spread * min(priced)
    shown = [c for c in ordered if (c.scored.item.price_usd or 0.0) <= cap]
    held = len(ordered) - len(shown)
    return dataclasses.replace(selection, picks=tuple(shown), over_cap=selection.over_cap + held)


def typical_price(ranked: Sequence[Scored], quantile: float) -> float | None:
    """The price at `quantile` of the candidates that are the asked product (no accessory, none
    below the gate's floor, none naming another product) and state the most of the request
    ("a cheap usb stick 64gb": the 64 GB sticks), or None with fewer than three priced: what
    "cheap" is measured against."""
    kinds = [s for s in ranked if not s.penalised and s.pooled.named is not False]
    prices = sorted(_prices_stating_most(kinds))
    if len(prices) < _TYPICAL_MIN:
        return None
    return prices[min(len(prices) - 1, int(quantile * len(prices)))]


_TYPICAL_MIN = 3


def affordable(ranked: Sequence[Scored], cap: float | None) -> Sequence[Scored]:
    """The ranked candidates priced at most `cap` (unpriced ones stay), in their order, for a
    shopper who asked for a low price; all of them without a cap or when none is."""
    if cap is None:
        return ranked
    kept = [s for s in ranked if (s.item.price_usd or 0.0) <= cap]
    return kept or ranked


def _prices_stating_most(field: Sequence[Scored]) -> list[float]:
    """The known prices of the items that leave the fewest asked specs and terms unstated."""
    fewest = min((_unmet(s) for s in field), default=0)
    return [p for s in field if _unmet(s) == fewest and (p := s.item.price_usd) is not None]


def _unmet(scored: Scored) -> int:
    sem = scored.semantics
    return len(sem.specs_unsaid) + len(sem.terms_unsaid)


def _price_order(chosen: Chosen) -> tuple[bool, float]:
    price = chosen.scored.item.price_usd
    return price is None, price or 0.0


def near_duplicates(a: Scored, b: Scored, *, threshold: float) -> bool:
    """Whether two scored items are listings of one product (`same_product`)."""
    return same_product(a.item, b.item, threshold=threshold)


def select(
    ranked: Sequence[Scored],
    *,
    max_picks: int,
    show_ratio: float,
    dup_threshold: float,
    by_fit: bool = False,
) -> Selection:
    """Walk the ranking best first, folding each near-duplicate into the better listing kept
    before it; show those scoring at least `show_ratio` of the best (only the best when it
    scores 0), at most `max_picks`. An item the gate penalised is a closest match only: it
    is shown when no unpenalised item is. A size or standard the shopper named is held by
    rule, whatever the models scored: while a candidate that may be shown states more of
    the asked specs, no item stating fewer is shown (`fewest_unmet`). With `by_fit` (no gate
    measured relevance) the ratio compares `_fit`, not the score: recall's rank decay alone
    would show one trouser of many that fit "trousers" equally."""
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
    shown = _close_to_best(kept, show_ratio, by_fit)
    if any(not k.penalised for k in shown):
        shown = [k for k in shown if not k.penalised]
        field = [k for k in kept if not k.penalised]
    else:
        field = kept
    fitting = fewest_unmet(field)
    if {k.item.item_id for k in shown} - {k.item.item_id for k in fitting}:
        shown = _close_to_best(fitting, show_ratio, by_fit)
    picks = shown[: max(1, max_picks)]
    return Selection(
        picks=tuple(Chosen(p, tuple(merged[p.item.item_id])) for p in picks),
        ranked=len(ranked),
        merged=len(ranked) - len(kept),
        below_ratio=len(kept) - len(shown),
        over_cap=len(shown) - len(picks),
    )


def fewest_unmet(field: Sequence[Scored]) -> list[Scored]:
    """The items, in order, that leave the fewest asked specs (sizes, standards, connectors)
    unstated by title or spec sheet: a spec no item states counts against all alike, so
    each spec some item states is stated by these whenever one item can state them all."""
    if not field:
        return []
    fewest = min(len(s.semantics.specs_unsaid) for s in field)
    return [s for s in field if len(s.semantics.specs_unsaid) == fewest]


def _fit(scored: Scored) -> float:
    """The score without its recall part: what the picker measured of the item against the
    request (asked words, specs, brand, price, freshness), not where recall ranked it."""
    return max(0.0, scored.score - scored.parts.get("recall", 0.0))


def _close_to_best(kept: Sequence[Scored], show_ratio: float, by_fit: bool) -> list[Scored]:
    """Those scoring (`by_fit`: fitting) at least `show_ratio` of the first; by score, only
    the first when it scores 0 (nothing relevant), by fit every item then (nothing asked
    tells them apart)."""
    if by_fit:
        floor = show_ratio * _fit(kept[0])
        return [k for k in kept if _fit(k) >= floor]
    best = kept[0].score
    return [k for k in kept if k.score >= show_ratio * best] if best > 0 else list(kept[:1])
