"""The small typed values item_picker's stages hand to each other, one per stage boundary."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from app.catalog.item import Item
from app.catalog.standards import standard_labels
from app.tools.candidates import Candidate
from app.tools.terms import Spec, Term, make_term

BudgetSource = Literal["args", "slot", "bundle", "plan"]


class Entry(NamedTuple):
    """One candidate of the slot with its catalog item."""

    candidate: Candidate
    item: Item


@dataclass(frozen=True)
class AskedValues:
    """The values of one attribute a request names; `rivals`: for a list attribute (tags),
    the values that rule an item out (None: any other value does)."""

    wanted: frozenset[str]
    rivals: frozenset[str] | None = None


@dataclass(frozen=True)
class PickInputs:
    """Stage 1 → 2: what one slot is picked for, normalised, and its candidates in recall order.

    `request` is the text the slot was searched with; `category` anchors the relevance gate.
    """

    slot: str
    request: str
    category: str | None
    bundle: bool
    must: tuple[Term, ...]
    prefer: tuple[Term, ...]
    avoid: tuple[Term, ...]
    exclude: tuple[str, ...]
    specs: tuple[Spec, ...]
    budget_usd: float | None
    budget_source: BudgetSource | None
    max_picks: int
    entries: tuple[Entry, ...]
    attributes: Mapping[str, AskedValues] = field(default_factory=dict)
    """Attribute values the request names (colour, gender, size): a pick that states the
    attribute must have one of them."""
    price_target_usd: float | None = None
    """The plan's price said as approximate ("around $1500"), where the plan's budget is the
    slot's: the picks are ranked near it, not only under the ceiling."""
    budget_listed: tuple[float, str] | None = None
    """The plan's budget in the currency the shopper wrote it in: an item listed in that
    currency is compared in it (rupees with rupees), not through a rounded conversion."""
    forms: tuple[str, ...] = ()
    """The forms a product is one at a time that the shopper asked for ("inkjet", "ddr4")."""
    contrary: tuple[str, ...] = ()
    """The avoid terms that are alternatives of an asked form, not the shopper's words."""
    parts: Mapping[str, Term] = field(default_factory=dict)
    """Must-haves as they read beside the product ("rtx graphics card" -> "rtx", "16gb ram"
    -> "16gb"): a title that says that says the must-have."""
    shown_before: tuple[Item, ...] = ()
    """The picks the shopper saw and asked to see others than."""
    brands: tuple[str, ...] = ()
    """The asked words that are the brand of a candidate ("dell" in "a dell laptop"), as
    brand keys."""
    searched: str | None = None
    """The product the slot was searched for, as item_search typed it (None: unknown)."""
    in_stock: bool = False
    """The shopper asked for items in stock now: pre-orders are left out too."""

    @property
    def brand_wording(self) -> str | None:
        """The asked brands as a pick of none of them lists them unmet ("sony or bose"),
        said "not by": a title may name a brand it is not by ("Case for Apple iMac")."""
        return " or ".join(self.brands) if self.brands else None

    def form_terms(self) -> tuple[Term, ...]:
        """The asked forms that are words, not specs ("wireless", not "ddr4"), as terms."""
        return tuple(t for form in self.forms if (t := make_term(form)) and not t.specs)

    def shown(self, names: Iterable[str]) -> list[str]:
        """The terms named, as the shopper wrote them ("mic" for microphone), standards as
        people write them ("USB-C", "Wi-Fi 6"); specs and other names as they are."""
        wording = {t.text: t.wording for t in (*self.must, *self.prefer, *self.avoid)}
        return [standard_labels(wording.get(name) or name) for name in names]


class Pooled(NamedTuple):
    """A candidate that passed the hard filters, with its scaled recall, cheapness,
    freshness, nearness to a price said as approximate, and whether it names the asked
    product (`names_asked`: None when none is asked)."""

    item: Item
    candidate: Candidate
    recall: float
    cheapness: float
    freshness: float = 0.5
    nearness: float = 0.0
    named: bool | None = None


@dataclass(frozen=True)
class Filtered:
    """Stage 2 → 3: the survivors in recall order and what the hard filters removed."""

    pool: tuple[Pooled, ...]
    excluded: Mapping[str, int]
    unmatched_excludes: tuple[str, ...]
    over_budget: int
    unknown_price: int
    shown_before: int = 0
    off_attribute: int = 0
    """Candidates left out because an attribute they state is not the one asked."""
    not_in_stock: tuple[Entry, ...] = ()
    """Candidates left out as sold out, or as pre-orders when the shopper asked for stock."""
    other_products: int = 0
    """Candidates left out as not the asked product, when the filters left out every one
    that is: no other product stands in for one the shopper's constraints rule out."""
    relative_price: bool = False
    """Whether cheapness is relative to the other candidates (no budget, no price target)."""


@dataclass(frozen=True)
class Gate:
    """Stage 3 → 5: the relevance gate's verdict.

    `scores` holds the cross-encoder score of every item it scored (even when switched off
    by the candidates); `sunk` are the ids below its floor (empty when off); `accessories`
    are the ids that name the category only as what they are for or whose own category is
    an accessory type, penalised even when off;
    `budget` are the ids inside PICK_RERANK_K in scoring order, whose titles stage 4 embeds;
    `shelved` are the ids the catalog files as the asked product that would have sunk;
    `misfiled` those it files as another kind of the asked machine, sunk whatever their score.
    """

    on: bool
    reason: str | None
    query: str | None
    floor: float
    scores: Mapping[str, float] = field(default_factory=dict)
    sunk: frozenset[str] = frozenset()
    accessories: frozenset[str] = frozenset()
    budget: frozenset[str] = frozenset()
    shelved: frozenset[str] = frozenset()
    misfiled: frozenset[str] = frozenset()

    @property
    def none_relevant(self) -> bool:
        """Switched off because it scored candidates and none reached the floor: every pick
        is then only the closest match to what was asked."""
        return not self.on and bool(self.scores)

    def penalised(self, item_id: str) -> bool:
        """Whether the item gets the gate's penalty: below the floor or an accessory."""
        return item_id in self.sunk or item_id in self.accessories


@dataclass(frozen=True)
class Semantics:
    """Stage 4 → 5: one candidate's match against the shopper's terms and specs (each 0-1)."""

    must: float = 0.0
    prefer: float = 0.0
    avoid: float = 0.0
    spec: float = 0.0
    form: float = 0.0
    """The share of the asked forms ("wireless", "dual") that title or spec sheet states."""
    brand: float = 0.0
    """1 when the item is of a brand the shopper named, else 0."""
    must_said: tuple[str, ...] = ()
    prefer_said: tuple[str, ...] = ()
    avoid_said: tuple[str, ...] = ()
    specs_said: tuple[str, ...] = ()
    """How the title states each asked spec it meets ("16gb"; "26,800mah, more than 20000mah")."""
    specs_unsaid: tuple[str, ...] = ()
    """The asked specs it does not meet, as the shopper wrote them."""
    sheet_said: tuple[str, ...] = ()
    """The must and prefer terms its title does not say but its spec sheet lists ("hdmi")."""
    terms_unsaid: tuple[str, ...] = ()
    """The must-haves without a spec ("hdmi") and the asked forms ("wireless") its title does
    not state, unless it states another form of the same kind ("wired")."""
    named: bool | None = None
    """Whether the title or category names the slot's product with every word of a name of
    two or more ("hair dryer", not "Electric Dryer"); None for other slots."""
    noun_said: bool = False
    """Whether the title says the product's noun ("card" of a memory card), if not its name;
    never for a name that says a kind of the noun ("coaxial cable": any cable says "cable")."""


@dataclass(frozen=True)
class Weights:
    """The score weights in force for one call."""

    recall: float
    gate: float
    must: float
    prefer: float
    avoid: float
    cheap: float
    spec: float
    unnamed: float = 0.0
    form: float = 0.0
    brand: float = 0.0
    fresh: float = 0.0
    near: float = 0.0


@dataclass(frozen=True)
class Scored:
    """Stage 5 → 6: one candidate with its weighted score and the parts that made it."""

    pooled: Pooled
    score: float
    gate_score: float | None
    sunk: bool
    accessory: bool
    semantics: Semantics
    parts: Mapping[str, float]

    @property
    def item(self) -> Item:
        return self.pooled.item

    @property
    def penalised(self) -> bool:
        """Below the gate's floor or an accessory: only ever the closest match."""
        return self.sunk or self.accessory


@dataclass(frozen=True)
class Chosen:
    """A pick, with the near-duplicates merged into it."""

    scored: Scored
    merged: tuple[str, ...] = ()


@dataclass(frozen=True)
class Selection:
    """Stage 6 → 7: the picks of a slot and what the display rules held back."""

    picks: tuple[Chosen, ...]
    ranked: int
    merged: int
    below_ratio: int
    over_cap: int
