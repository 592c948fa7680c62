"""The rule planner's fold: the plan being rebuilt, in mutable form, that each message's
reading (and each follow-up's typed change) is applied to in order."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

from app.catalog.model_codes import query_codes
from app.catalog.product_nouns import is_accessory_noun, singular
from app.config.params.planner import PLANNER_MAX_KEYWORDS
from app.language import lexicon
from app.tools.plan._amount_rules import same_measure
from app.tools.plan._budget_rules import BudgetMention
from app.tools.plan._bundle_slots import (
    new_slot,
    part_named,
    refined_part,
    same_request,
    slot_of,
    with_words,
)
from app.tools.plan._lexicon_rules import (
    CONNECTORS,
    FORM_PRODUCTS,
    PART_HOSTS,
    RIVAL_FACETS,
    SIZED_PARTS,
)
from app.tools.plan._lift_rules import Lift
from app.tools.plan._message_rules import MessageReading, ProductReading
from app.tools.plan._negation_rules import Finding
from app.tools.plan.plan_change import PlanChange
from app.tools.plan.shopping_plan import BundleSlot, Constraint, ShoppingPlan

_PRINTING = lexicon.word_set("plan_printing_products")
"""Products whose "black and white" is their print, not their colour."""
_MONOCHROME_WORDS = lexicon.word_set("plan_monochrome_words")


@dataclass
class PlanState:
    """The plan being rebuilt, in mutable form."""

    shopping: bool = False
    category: str | None = None
    head: str | None = None
    keywords: list[str] = field(default_factory=list)
    must_have: list[str] = field(default_factory=list)
    prefer: list[str] = field(default_factory=list)
    exclude: dict[str, Constraint] = field(default_factory=dict)
    avoid: dict[str, Constraint] = field(default_factory=dict)
    budget_usd: float | None = None
    budget_min_usd: float | None = None
    budget_amount: float | None = None
    budget_target_usd: float | None = None
    currency: str = "USD"
    cheap: bool = False
    cheapest: bool = False
    in_stock: bool = False
    gift: bool = False
    bundle: list[BundleSlot] = field(default_factory=list)
    said_now: set[str] = field(default_factory=set)
    """The terms of the message being applied: a later one never replaces them."""

    @classmethod
    def seed(cls, previous: ShoppingPlan | None) -> PlanState:
        if previous is None:
            return cls()
        category = previous.category
        return cls(
            shopping=previous.is_shopping,
            category=category,
            head=singular(category.split()[-1]) if category else None,
            keywords=list(previous.keywords),
            must_have=list(previous.must_have),
            prefer=list(previous.prefer),
            exclude={c.term: c for c in previous.exclude},
            avoid={c.term: c for c in previous.avoid},
            budget_usd=previous.budget_usd,
            budget_min_usd=previous.budget_min_usd,
            budget_amount=previous.budget_amount,
            budget_target_usd=previous.budget_target_usd,
            currency=previous.currency,
            cheap=previous.cheap,
            cheapest=previous.cheapest,
            in_stock=previous.in_stock,
            gift=previous.gift,
            bundle=list(previous.bundle),
        )

    def apply(self, reading: MessageReading) -> None:
        """Fold one message into the state: products, constraints in text order, budget."""
        if not reading.not_shopping:
            self.shopping = True
        self.said_now = set()
        part = self._part_named(reading)
        if part is None:
            self._apply_products(reading)
        self.cheap = self.cheap or reading.cheap
        self.cheapest = self.cheapest or reading.cheapest
        if reading.in_stock is not None:
            self.in_stock = reading.in_stock
        self.gift = self.gift or reading.gift
        if reading.monochrome is not None and self.head in _PRINTING:
            self._ask_monochrome(reading.monochrome)
        events: list[Finding | Lift] = [*reading.findings, *reading.lifts]
        for event in sorted(events, key=lambda e: e.start):
            if isinstance(event, Lift):
                self._lift(event)
            else:
                self._constrain(event)
        if part is not None:
            self._refine_part(part, reading)
        if reading.audiences:
            self._add_keywords(list(reading.audiences))
        self._fit_product_to_form()
        if reading.budget_cleared:
            self._drop_budget()
        if reading.budget is not None and part is None:
            self._set_budget(reading.budget)
        if reading.floor is not None:
            self._set_floor(reading.floor.floor_usd, with_ceiling=reading.budget is not None)

    def change(self, change: PlanChange) -> None:
        """Make a follow-up's typed change: a ceiling, a floor, a size bound, a part's amount."""
        if change.budget_usd is not None:
            self.budget_usd, self.budget_min_usd = change.budget_usd, None
            self.budget_amount = change.budget_amount or change.budget_usd
            self.budget_target_usd = None
            self.currency = change.currency
        if change.floor_usd is not None:
            self._set_floor(change.floor_usd, with_ceiling=False)
        if change.size:
            self._add_keywords([change.size])
        if change.part:
            self._give_part(change.part, frozenset(change.vague))

    def _give_part(self, term: str, vague: frozenset[str]) -> None:
        """Put the part's amount where the vague words were read ("more ram" in the
        must-haves), else among the keywords."""
        names = ("must_have", "keywords", "prefer")
        said = [n for n in names if any(set(k.split()) <= vague for k in getattr(self, n))]
        for name in names:
            setattr(self, name, [k for k in getattr(self, name) if not set(k.split()) <= vague])
        self._drop_remeasured([term])
        target: list[str] = getattr(self, said[0] if said else "keywords")
        if term not in target:
            target.append(term)

    def _set_floor(self, floor_usd: float, *, with_ceiling: bool) -> None:
        """A lone floor joins the ceiling in force; when it sits at or above it, a ceiling
        stated with it wins, else the newer floor does and the old ceiling goes."""
        if self.budget_usd is None or floor_usd < self.budget_usd:
            self.budget_min_usd = floor_usd
        elif not with_ceiling:
            self._drop_ceiling()
            self.budget_min_usd = floor_usd

    def _drop_budget(self) -> None:
        """No ceiling, target or floor: the budget was dropped or belonged to another product."""
        self._drop_ceiling()
        self.budget_min_usd = None

    def _drop_ceiling(self) -> None:
        self.budget_usd, self.budget_amount, self.currency = None, None, "USD"
        self.budget_target_usd = None

    def _set_budget(self, mention: BudgetMention) -> None:
        self.budget_usd = mention.budget_usd
        self.budget_min_usd = mention.floor_usd
        self.budget_amount = mention.amount
        self.budget_target_usd = mention.target_usd
        self.currency = mention.currency

    def _apply_products(self, reading: MessageReading) -> None:
        products = tuple(self._for_planned(p) for p in reading.products)
        described: list[str] = []  # a phrase typed alone, said of the planned product
        if self.category is not None and any(
            p.typed_alone and p.head != self.head for p in products
        ):
            described = [w for p in products for w in p.category.split()]
            products = ()
        if reading.claimed_product and self.category is not None:
            products = ()
        sized = self._sized_part(reading)
        if sized is not None:
            self._drop_remeasured([sized])
            self.must_have = [*(m for m in self.must_have if m != sized), sized]
            part_words = set(reading.products[0].keywords)
            self._add_keywords([k for k in reading.keywords if k not in part_words])
            return
        if not products:
            self._add_keywords([*reading.keywords, *described])
            self.bundle = [with_words(part, reading.keywords) for part in self.bundle]
            return
        category = self.category
        if reading.continues_bundle and category is not None and self._adds_to_bundle(products):
            if not self.bundle:
                self.bundle = [
                    new_slot(
                        category, self.head or category, self.keywords, self.must_have, None, []
                    )
                ]
            for product in products:
                slot = slot_of(product, self.bundle)
                if not any(same_request(slot, s) for s in self.bundle):
                    self.bundle.append(slot)
            self._add_keywords(reading.keywords)
            return
        lead = products[0]
        if reading.continues_bundle and reading.budget is None and lead.budget is not None:
            self._set_budget(lead.budget)
        if self.head is not None and lead.head != self.head:
            if not self._head_is_required():
                self.keywords, self.must_have, self.prefer = [], [], []
                self.cheap = self.cheapest = False
                if reading.opens_request:  # "i want a tv" after "a webcam under $60"
                    self._drop_budget()
            self.bundle = []
        swapped = self._swapped_connectors(lead)
        if swapped:
            self.keywords = [k for k in self.keywords if k not in swapped]
        if (
            self.head != lead.head
            or self.category is None
            or len(lead.category.split()) >= len(self.category.split())
            or swapped
        ):
            self.category = lead.category
        self.head = lead.head
        if len(products) > 1:
            slots: list[BundleSlot] = []
            for product in products:
                slots.append(slot_of(product, slots))
            self.bundle = slots
        self._add_keywords(reading.keywords)

    def _for_planned(self, product: ProductReading) -> ProductReading:
        """An accessory said to be for the planned product, named as that product's ("a
        tablet", then "and a case for it": a tablet case, not a camera case; `_host`)."""
        if not product.for_planned or self.head is None or self.head == product.head:
            return product
        if len(product.category.split()) > 1 or not is_accessory_noun(product.category):
            return product
        return dataclasses.replace(product, category=f"{self._host()} {product.category}")

    def _host(self) -> str | None:
        """What "it" names: the planned product, or the one an accessory planned is for ("a
        laptop stand", then "a keyboard for it": a laptop keyboard)."""
        words = (self.category or "").split()
        if len(words) > 1 and self.head is not None and is_accessory_noun(self.head):
            return " ".join(words[:-1])
        return self.head

    def _ask_monochrome(self, evidence: str) -> None:
        """Black-and-white print asked of a printer: colour avoided, where the colours were
        searched ("a printer", "black and white only" ranked a Color Laser first)."""
        self.keywords = [k for k in self.keywords if k not in _MONOCHROME_WORDS]
        self.avoid["color"] = Constraint(term="color", evidence=evidence.strip())

    def _swapped_connectors(self, lead: ProductReading) -> frozenset[str]:
        """The planned product's connectors that a message naming the same product with
        another connector replaces ("an hdmi cable", then "a usb c cable": no hdmi)."""
        if self.head != lead.head or self.category is None:
            return frozenset()
        old = CONNECTORS & {*self.category.split(), *self.keywords}
        new = CONNECTORS & {*lead.category.split(), *lead.keywords}
        return old if new and not new & old else frozenset()

    def _part_named(self, reading: MessageReading) -> int | None:
        """The bundle part a message is about (`part_named`), when the plan has a bundle."""
        return part_named(self.bundle, reading) if not reading.continues_bundle else None

    def _refine_part(self, index: int, reading: MessageReading) -> None:
        """Give one bundle part the message's words, must-haves and budget; the other parts
        and the bundle's budget stay."""
        self.bundle[index], musts = refined_part(self.bundle[index], reading)
        self.must_have += [m for m in musts if m not in self.must_have]

    def _sized_part(self, reading: MessageReading) -> str | None:
        """The requirement a message that only sizes a part of the product makes ("16gb ram",
        "an i7 processor" after "a laptop": "16gb ram", "core-i7 processor"); None when it
        asks for something else, adds to a bundle, or opens as a request of its own ("now i
        need a 1tb ssd")."""
        if self.head is None or self.bundle or reading.continues_bundle or reading.opens_request:
            return None
        if len(reading.products) != 1:
            return None
        part = reading.products[0]
        sized = any(c.isdigit() for k in part.keywords for c in k)
        if self.head not in PART_HOSTS or part.head not in SIZED_PARTS or not sized:
            return None
        return " ".join([*part.keywords, part.category])

    def _fit_product_to_form(self) -> None:
        """A form the product cannot take names the product that can ("earbuds", then "over
        ear instead": over-ear headphones)."""
        if self.head is None or self.bundle:
            return
        asked = {*self.keywords, *self.must_have, *self.prefer}
        renamed = next((p for form, p in FORM_PRODUCTS.get(self.head, ()) if form in asked), None)
        if renamed is not None:
            self.category, self.head = renamed, singular(renamed)

    def _adds_to_bundle(self, products: Sequence[ProductReading]) -> bool:
        """Whether "and a <product>" starts or grows a bundle: not when it names only the
        product already planned, with no bundle yet ("a keyboard", then "and a keyboard")."""
        return bool(self.bundle) or any(p.head != self.head for p in products)

    def _head_is_required(self) -> bool:
        """Whether the current product was only asked for as a requirement or a preference
        ("with mouse"): then a later product ("keyboard") keeps them instead of starting over."""
        words = {singular(w) for term in (*self.must_have, *self.prefer) for w in term.split()}
        return self.head in words

    def _add_keywords(self, new: Sequence[str]) -> None:
        cap = PLANNER_MAX_KEYWORDS.get()
        ruled_out = {w for term in (*self.exclude, *self.avoid) for w in term.split()}
        fresh = [k for k in new if k not in self.keywords and k not in ruled_out]
        self._drop_remeasured(fresh)
        keep = set([*fresh, *self.keywords][:cap])
        self.keywords = [k for k in [*self.keywords, *fresh] if k in keep]

    def _constrain(self, finding: Finding) -> None:
        term, evidence = finding.term, finding.evidence.strip()
        # a term sits in one table, ordered by its last statement, so replay is idempotent
        self.exclude.pop(term, None)
        self.avoid.pop(term, None)
        if finding.kind in ("exclude", "avoid"):
            table = self.exclude if finding.kind == "exclude" else self.avoid
            table[term] = Constraint(term=term, evidence=evidence)
            self._drop_positive(term)
            return
        self._drop_remeasured([term])
        if finding.kind == "must_have" and query_codes(term):
            self._drop_earlier_codes()
        target = self.must_have if finding.kind == "must_have" else self.prefer
        if term in target:
            target.remove(term)
        target.append(term)

    def _drop_earlier_codes(self) -> None:
        """Forget model codes asked by earlier messages: a new code asks for another model
        ("an rtx 2060 laptop", then "an rtx 2070 one")."""
        self.must_have = [m for m in self.must_have if m in self.said_now or not query_codes(m)]

    def _drop_remeasured(self, terms: Sequence[str]) -> None:
        """Forget amounts of earlier messages that these terms size anew ("32 inch" after
        "27 inch"; "4tb" after a drive's "2tb"), and a colour or audience they name anew
        ("blue" after "red", "women" after "men"; a bundle's slots keep their own)."""

        one_part = self.head is not None and self.head not in PART_HOSTS

        def kept(old: str) -> bool:
            if old in self.said_now:
                return True
            return not any(
                same_measure(old, new, one_part=one_part)
                or (not self.bundle and any(old in f and new in f for f in RIVAL_FACETS))
                for new in terms
            )

        self.keywords = [k for k in self.keywords if kept(k)]
        self.must_have = [m for m in self.must_have if kept(m)]
        self.prefer = [p for p in self.prefer if kept(p)]
        self.said_now.update(terms)

    def _drop_positive(self, term: str) -> None:
        words = set(term.split())
        self.must_have = [t for t in self.must_have if t != term]
        self.prefer = [t for t in self.prefer if t != term]
        self.keywords = [k for k in self.keywords if k != term and k not in words]

    def _lift(self, lift: Lift) -> None:
        for table in (self.exclude, self.avoid):
            for term in [t for t in table if lift.covers(t)]:
                del table[term]

    def plan(self, previous: ShoppingPlan | None) -> ShoppingPlan:
        """The frozen plan; `platforms` is carried over untouched (no rule sets it)."""
        return ShoppingPlan(
            is_shopping=self.shopping,
            category=self.category,
            keywords=tuple(self.keywords),
            must_have=tuple(self.must_have),
            prefer=tuple(self.prefer),
            exclude=tuple(self.exclude.values()),
            avoid=tuple(self.avoid.values()),
            budget_usd=self.budget_usd,
            budget_min_usd=self.budget_min_usd,
            budget_amount=self.budget_amount,
            budget_target_usd=self.budget_target_usd,
            currency=self.currency,
            cheap=self.cheap,
            cheapest=self.cheapest,
            in_stock=self.in_stock,
            gift=self.gift,
            bundle=tuple(self.bundle),
            platforms=previous.platforms if previous is not None else (),
        )
