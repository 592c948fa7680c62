"""item_picker's typed result: picks with their reasons, what the filters and the gate did
per slot, per-stage timings, and the text the model reads."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from app.catalog.articles import with_article
from app.catalog.schema import Availability
from app.tools.base import ToolResult
from app.tools.picker._model import BudgetSource


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
    price: float | None = Field(None, description="As the shop lists it, in `currency`.")
    currency: str | None = None
    attributes: dict[str, str] = Field(
        default_factory=dict, description="The listing's attributes (size, colour, ...)."
    )
    availability: Availability = "unknown"
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
    shown_before: int = Field(
        0, description="Left out: picks shown before, as the shopper asked for other options."
    )
    not_in_stock: int = Field(
        0, description="Left out: sold out, or pre-orders when the shopper asked for stock."
    )
    off_attribute: int = Field(
        0, description="Left out: they state another value of an asked attribute (colour)."
    )
    attributes_asked: list[str] = Field(
        default_factory=list, description="The attribute values asked ('red'), sorted."
    )
    other_products: int = Field(
        0,
        description="Left out as other products than the one asked, since every candidate "
        "that names it was left out for one of the reasons above.",
    )
    in_stock_asked: bool = Field(False, description="The shopper asked for items in stock.")
    unavailable_ahead: list[str] = Field(
        default_factory=list,
        description="Titles of left-out unavailable items that search ranked above every pick "
        "(at most two): what the shopper most likely meant, and cannot have now.",
    )
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
    listed_as: str | None = Field(
        None,
        description="When no pick names the product, the other name a pick is listed under "
        "('light' for a lamp).",
    )


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


def _notes(part: SlotPicks) -> list[str]:
    notes = []
    if not part.gate.on:
        notes.append(f"relevance gate off: {part.gate.reason}")
    elif part.gate.sunk:
        notes.append(f"{part.gate.sunk} of {part.gate.scored} scored items fell below the floor")
    if part.gate.accessories:
        notes.append(
            f"{part.gate.accessories} candidates are accessories for "
            f"{with_article(part.category or 'the product')}, penalised"
        )
    if part.excluded:
        notes.append("excluded: " + ", ".join(f"{t} ({n})" for t, n in part.excluded.items()))
    if part.unmatched_excludes:
        notes.append("exclude terms matching no candidate: " + ", ".join(part.unmatched_excludes))
    if part.over_budget or part.unknown_price:
        notes.append(
            f"dropped for the budget: {part.over_budget} over, {part.unknown_price} with no price"
        )
    if part.shown_before:
        notes.append(f"left out {part.shown_before} picks shown before, as asked")
    if part.not_in_stock:
        kind = "not in stock" if part.in_stock_asked else "sold out"
        notes.append(f"left out {part.not_in_stock} {kind}")
    if not part.picks:
        notes.append("nothing left to pick: say so and suggest relaxing a constraint")
    return notes
