"""item_picker stage 7: the typed result (picks with reasons a shopper can check, what the
filters and the gate did, per-stage timings) and the text the model reads."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from app.catalog.item import Item
from app.catalog.product_kinds import other_kind_in
from app.catalog.product_nouns import head, tokens
from app.catalog.standards import standard_labels
from app.tools._picker_contrary import same_family
from app.tools._picker_model import BudgetSource, Chosen, Filtered, Gate, PickInputs, Selection
from app.tools._picker_terms import spec_where, where_stated
from app.tools._search_product import none_named
from app.tools.base import ToolResult
from app.tools.price_compare import PriceCompareResult


class PickOffer(BaseModel):
    """The same product on another platform, from price_compare."""

    model_config = ConfigDict(frozen=True)

    item_id: str
    platform: str
    price_usd: float | None = None
    cheapest: bool = False
    saving_usd: float | None = Field(None, description="Pick's price minus this offer's.")


class Pick(BaseModel):
    """One picked item and why."""

    model_config = ConfigDict(frozen=True)

    slot: str
    rank: int
    item_id: str
    title: str
    brand: str | None = None
    platform: str
    price_usd: float | None = None
    score: float
    gate_score: float | None = Field(None, description="Cross-encoder relevance, 0-1.")
    below_floor: bool = Field(False, description="The gate scored it below its floor.")
    reason: str
    matched: list[str] = Field(default_factory=list, description="Asked terms the title says.")
    specs: list[str] = Field(
        default_factory=list, description="Asked specs it carries (sizes, standards)."
    )
    avoided: list[str] = Field(default_factory=list, description="Avoid terms it mentions.")
    offers: list[PickOffer] = Field(default_factory=list)
    saving_usd: float | None = Field(None, description="Saving at the cheapest offer elsewhere.")
    merged: list[str] = Field(default_factory=list, description="Near-duplicate listings.")


class GateReport(BaseModel):
    """What the relevance gate did for a slot."""

    model_config = ConfigDict(frozen=True)

    on: bool
    reason: str | None = None
    query: str | None = None
    floor: float
    scored: int = 0
    sunk: int = 0
    accessories: int = 0


class SlotPicks(BaseModel):
    """The picks of one slot and what the stages removed or held back."""

    model_config = ConfigDict(frozen=True)

    slot: str
    category: str | None = None
    request: str
    budget_usd: float | None = None
    budget_source: BudgetSource | None = None
    candidates: int
    picks: list[Pick]
    excluded: dict[str, int] = Field(default_factory=dict, description="Items each term removed.")
    unmatched_excludes: list[str] = Field(default_factory=list)
    over_budget: int = 0
    unknown_price: int = Field(0, description="Dropped: no price while a budget is set.")
    gate: GateReport
    ranked: int = 0
    merged: int = 0
    held_back: int = Field(0, description="Ranked items too far below the best to show.")
    unstated: list[str] = Field(
        default_factory=list,
        description="Asked specs (sizes, standards), must-haves and forms no pick states.",
    )
    stated_elsewhere: list[str] = Field(
        default_factory=list,
        description="Of the unstated, those a candidate the gate kept states, ranked lower.",
    )
    unnamed: str | None = Field(None, description="The slot's product, when no pick names it.")


class StageReport(BaseModel):
    """One stage's wall time and how many items went in and came out, summed over slots and
    over the rounds in which the gate judges picks it had not scored."""

    model_config = ConfigDict(frozen=True, populate_by_name=True)

    name: str
    ms: float
    n_in: int = Field(serialization_alias="in")
    n_out: int = Field(serialization_alias="out")


class ItemPickerResult(ToolResult):
    """At most a few picks per slot, each with a reason, plus the per-stage report."""

    slot: str | None = Field(None, description="The slot picked for; None for several.")
    slots: list[SlotPicks]
    stages: list[StageReport] = Field(default_factory=list)

    @property
    def picks(self) -> list[Pick]:
        """Every pick of every slot, in slot order."""
        return [p for s in self.slots for p in s.picks]

    def render(self) -> str:
        """One line per pick with its reason; a line per slot on what was removed or why
        the gate was off."""
        lines: list[str] = []
        for part in self.slots:
            lines.append(f"item_picker {part.slot}: {len(part.picks)} of {part.candidates}")
            for pick in part.picks:
                price = "no price" if pick.price_usd is None else f"${pick.price_usd:,.2f}"
                lines.append(
                    f"{pick.rank}. [{pick.item_id}] {pick.title} | {price} | {pick.platform}"
                    f" | why: {pick.reason}"
                )
            lines.extend(f"  {note}" for note in _notes(part))
        return "\n".join(lines)


class OfferView(NamedTuple):
    """A compared item's offers elsewhere and the saving at the cheapest."""

    offers: tuple[PickOffer, ...]
    saving_usd: float | None
    cheapest: PickOffer | None


def offers_by_item(results: Iterable[PriceCompareResult]) -> dict[str, OfferView]:
    """Every compared item's offers, by item id; later results win."""
    out: dict[str, OfferView] = {}
    for result in results:
        for group in result.products:
            for item in group.items:
                offers = tuple(
                    PickOffer(
                        item_id=o.item_id,
                        platform=o.platform,
                        price_usd=o.price_usd,
                        cheapest=o.cheapest,
                        saving_usd=o.saving_usd,
                    )
                    for o in item.offers
                )
                cheapest = next((o for o in offers if o.cheapest), None)
                out[item.item_id] = OfferView(offers, item.saving_usd, cheapest)
    return out


def slot_report(
    inputs: PickInputs,
    filtered: Filtered,
    gate: Gate,
    selection: Selection,
    offers: Mapping[str, OfferView],
) -> SlotPicks:
    """Stage 7 for one slot: the picks with their reasons and the counts of every stage."""
    picks = [
        _pick(inputs, gate, chosen, rank, offers.get(chosen.scored.item.item_id))
        for rank, chosen in enumerate(selection.picks, start=1)
    ]
    return SlotPicks(
        slot=inputs.slot,
        category=inputs.category,
        request=inputs.request,
        budget_usd=inputs.budget_usd,
        budget_source=inputs.budget_source,
        candidates=len(inputs.entries),
        picks=picks,
        excluded={t: n for t, n in filtered.excluded.items() if n},
        unmatched_excludes=list(filtered.unmatched_excludes),
        over_budget=filtered.over_budget,
        unknown_price=filtered.unknown_price,
        gate=GateReport(
            on=gate.on,
            reason=gate.reason,
            query=gate.query,
            floor=gate.floor,
            scored=len(gate.scores),
            sunk=len(gate.sunk),
            accessories=len(gate.accessories),
        ),
        ranked=selection.ranked,
        merged=selection.merged,
        held_back=selection.below_ratio + selection.over_cap,
        unstated=inputs.shown(unsaid := _unstated(inputs, selection)),
        stated_elsewhere=inputs.shown(_stated_elsewhere(inputs, filtered, gate, unsaid)),
        unnamed=_unnamed(inputs, selection),
    )


def _unnamed(inputs: PickInputs, selection: Selection) -> str | None:
    """The slot's product when picks exist and none names it ("desk lamp" beside projector
    lamps)."""
    product = inputs.category
    if not product or not selection.picks:
        return None
    items = (c.scored.item for c in selection.picks)
    return product if none_named(items, product, inputs.request) else None


def _unstated(inputs: PickInputs, selection: Selection) -> list[str]:
    """The asked specs, must-haves and forms that none of the picks states, as the shopper
    wrote them."""
    if not selection.picks:
        return []
    unsaid = [
        {*c.scored.semantics.specs_unsaid, *c.scored.semantics.terms_unsaid}
        for c in selection.picks
    ]
    first = selection.picks[0].scored.semantics
    asked = [*(s.wording for s in inputs.specs), *first.terms_unsaid]
    return [a for a in dict.fromkeys(asked) if all(a in u for u in unsaid)]


def _stated_elsewhere(
    inputs: PickInputs, filtered: Filtered, gate: Gate, unsaid: list[str]
) -> list[str]:
    """The unstated specs and terms that a candidate the gate kept states in its title or
    on its spec sheet: the picks outranked it on the rest of the request, so the catalog is
    not short of them."""
    kept = [p.item for p in filtered.pool if not gate.penalised(p.item.item_id)]
    specs = {s.wording: s for s in inputs.specs}
    terms = {t.text: t for t in (*inputs.form_terms(), *inputs.must, *inputs.prefer)}

    def stated(item: Item, asked: str) -> bool:
        if asked in specs:
            return spec_where(item, specs[asked]) is not None
        return asked in terms and where_stated(item, terms[asked]) is not None

    return [a for a in unsaid if any(stated(item, a) for item in kept)]


def _pick(
    inputs: PickInputs, gate: Gate, chosen: Chosen, rank: int, view: OfferView | None
) -> Pick:
    scored = chosen.scored
    item, sem = scored.item, scored.semantics
    gate_score = None if scored.gate_score is None else round(scored.gate_score, 4)
    saving = view.saving_usd if view is not None else None
    return Pick(
        slot=inputs.slot,
        rank=rank,
        item_id=item.item_id,
        title=item.title,
        brand=item.brand,
        platform=item.platform,
        price_usd=item.price_usd,
        score=round(scored.score, 4),
        gate_score=gate_score,
        below_floor=scored.sunk,
        reason=reason(inputs, gate, chosen, view),
        matched=[*sem.must_said, *sem.prefer_said],
        specs=list(sem.specs_said),
        avoided=list(sem.avoid_said),
        offers=list(view.offers) if view is not None else [],
        saving_usd=saving,
        merged=list(chosen.merged),
    )


def reason(inputs: PickInputs, gate: Gate, chosen: Chosen, view: OfferView | None) -> str:
    """Why this pick, in words a shopper can check against the listing."""
    scored = chosen.scored
    item, sem = scored.item, scored.semantics
    parts: list[str] = []
    what = inputs.category or inputs.request
    if scored.accessory:
        kind = _kind_of(item, inputs.category, inputs.request)
        parts.append(
            f"closest match only: a {kind}, not a {what}"
            if kind
            else f"closest match only: an accessory for a {what}, not one"
        )
    if gate.on and scored.gate_score is not None:
        if item.item_id in gate.misfiled:
            parts.append(
                f"closest match only: the catalog files it as "
                f"{(item.product_type or '').lower()}, not a {what}"
            )
        elif scored.sunk:
            parts.append(
                f"closest match only: relevance {scored.gate_score:.2f} for {what!r} is below "
                f"{gate.floor:.2f}"
            )
        else:
            parts.append(f"relevance {scored.gate_score:.2f} for {what!r}")
        if item.item_id in gate.shelved:
            parts.append(f"the catalog files it as {(item.product_type or '').lower()}")
    elif gate.none_relevant and not scored.accessory:
        best = max(gate.scores.values())
        parts.append(
            f"closest match only: nothing found reaches relevance {gate.floor:.2f} for "
            f"{what!r} (best {best:.2f})"
        )
    said = [*sem.must_said, *(s for s in sem.specs_said if s not in " ".join(sem.must_said))]
    if said:
        parts.append("has " + ", ".join(inputs.shown(said)))
    if sem.prefer_said:
        parts.append("also " + ", ".join(inputs.shown(sem.prefer_said)))
    if sem.sheet_said:
        parts.append("its spec sheet lists " + ", ".join(inputs.shown(sem.sheet_said)))
    unsaid = [*sem.specs_unsaid, *sem.terms_unsaid]
    if unsaid:
        parts.append("does not say " + ", ".join(inputs.shown(unsaid)))
    instead = [t for t in sem.avoid_said if t in inputs.contrary]
    avoided = [t for t in sem.avoid_said if t not in inputs.contrary]
    if instead:
        asked = inputs.shown(form for form in inputs.forms if same_family(form, instead))
        parts.append(f"says {', '.join(inputs.shown(instead))}, not {', '.join(asked)}")
    if avoided:
        mentioned = ", ".join(inputs.shown(avoided))
        parts.append(f"mentions {mentioned} (you would rather avoid it)")
    parts.append(_price_words(item.price_usd, inputs.budget_usd))
    if item.released is not None:
        parts.append(f"released {item.released}")
    if view is not None:
        parts.append(_offer_words(view))
    if chosen.merged:
        parts.append(f"{len(chosen.merged)} near-identical listing(s) merged")
    return "; ".join(p for p in parts if p)


def _kind_of(item: Item, category: str | None, request: str) -> str | None:
    """The other kind of product an item is ("pen tablet" for a tablet, "Cat 6 cable" for a
    coaxial cable), if it is one."""
    noun = head(category) if category else None
    if noun is None:
        return None
    asked = [*tokens(category or ""), *tokens(request)]
    kind = other_kind_in((item.title, item.category), noun, asked)
    return standard_labels(kind) if kind else None


def _price_words(price: float | None, budget: float | None) -> str:
    if price is None:
        return "no listed price"
    if budget is None:
        return f"${price:,.2f}"
    return f"${price:,.2f}, ${budget - price:,.2f} under the ${budget:,.2f} budget"


def _offer_words(view: OfferView) -> str:
    cheapest = view.cheapest
    if not view.offers:
        return "no other shop lists it"
    if cheapest is None or cheapest.price_usd is None:
        return f"also listed on {len(view.offers)} other shop(s), without a price"
    if view.saving_usd is not None and view.saving_usd > 0:
        return (
            f"cheaper on {cheapest.platform} at ${cheapest.price_usd:,.2f} "
            f"[{cheapest.item_id}], saves ${view.saving_usd:,.2f}"
        )
    return f"cheapest of {len(view.offers) + 1} listings"


def _notes(part: SlotPicks) -> list[str]:
    notes = []
    if not part.gate.on:
        notes.append(f"relevance gate off: {part.gate.reason}")
    elif part.gate.sunk:
        notes.append(f"{part.gate.sunk} of {part.gate.scored} scored items fell below the floor")
    if part.gate.accessories:
        notes.append(
            f"{part.gate.accessories} candidates are accessories for a {part.category}, penalised"
        )
    if part.excluded:
        notes.append("excluded: " + ", ".join(f"{t} ({n})" for t, n in part.excluded.items()))
    if part.unmatched_excludes:
        notes.append("exclude terms matching no candidate: " + ", ".join(part.unmatched_excludes))
    if part.over_budget or part.unknown_price:
        notes.append(
            f"dropped for the budget: {part.over_budget} over, {part.unknown_price} with no price"
        )
    if not part.picks:
        notes.append("nothing left to pick: say so and suggest relaxing a constraint")
    return notes
