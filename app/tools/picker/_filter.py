"""item_picker stages 1 and 2: prepare one slot's inputs from the plan and its candidates, then
drop what the shopper ruled out or cannot afford.

An item with an unknown price is dropped when a budget is set: a pick promises to fit the
budget, and an unknown price cannot keep that promise. The count is reported instead.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet

from app.catalog.currency import usd_rates
from app.catalog.item import Item
from app.catalog.product_nouns import category_words, head, listed_as, singular
from app.recall.filters import brand_key
from app.tools.candidates import DEFAULT_SLOT, Candidate
from app.tools.picker._attributes import asked_attributes, fits_attributes
from app.tools.picker._contrary import asked_forms, contrary_terms
from app.tools.picker._model import BudgetSource, Entry, Filtered, PickInputs, Pooled
from app.tools.picker._twins import same_product
from app.tools.plan import (
    COLOUR_NAMES,
    COMPONENT_MAKERS,
    PART_HOSTS,
    BundleSlot,
    ShoppingPlan,
    beside_product,
)
from app.tools.search import names_product
from app.tools.terms import Spec, Term, make_term, make_terms, mentions, normalise, where_stated


def prepare(
    plan: ShoppingPlan,
    slot: str,
    candidates: Sequence[Candidate],
    items: Mapping[str, Item],
    *,
    budget_usd: float | None = None,
    share_usd: float | None = None,
    shown_before: AbstractSet[str] = frozenset(),
    max_picks: int | None = None,
    cap: int = 3,
    bundle_call: bool = False,
) -> PickInputs:
    """Stage 1: the slot's category, terms, specs and budget (argument, else the slot's, else
    its share of a bundle's, else the plan's) and its candidates in recall order (unknown or
    repeated ids skipped); the alternatives of an asked form ("in ear" for "over-ear") join
    the avoid terms."""
    part = _bundle_slot(plan, slot)
    if part is not None:
        category: str | None = part.category
        keywords: tuple[str, ...] = part.keywords
    elif slot == DEFAULT_SLOT:
        category, keywords = plan.category, plan.keywords
    else:
        category, keywords = None, ()
    bundle = bundle_call or (part is not None and len(plan.bundle) > 1)
    must = make_terms(_own_must_haves(plan, part))
    keyword_terms = make_terms(keywords)
    prefer = make_terms([*plan.prefer, *(t.wording for t in keyword_terms if t.words)])
    specs = _distinct_specs([*keyword_terms, *must, *prefer])
    forms = asked_forms([*must, *prefer, *keyword_terms], product=category)
    contrary = contrary_terms(forms)
    budget, source = _budget(plan, part, budget_usd, share_usd)
    entries = _entries(candidates, items)
    request = entries[0].candidate.query if entries else plan.query_text()
    searched = entries[0].candidate.product if entries else None
    picks = min(max_picks, cap) if max_picks is not None else (1 if bundle else cap)
    return PickInputs(
        slot=slot,
        request=normalise(request),
        category=normalise(category) or None,
        bundle=bundle,
        must=must,
        prefer=prefer,
        avoid=make_terms([*plan.avoid_terms, *contrary]),
        forms=forms,
        contrary=contrary,
        parts=_parts(must, category),
        exclude=tuple(dict.fromkeys(t for t in map(_clean, plan.exclude_terms) if t)),
        specs=specs,
        budget_usd=budget,
        budget_source=source,
        price_target_usd=plan.budget_target_usd if source == "plan" else None,
        budget_listed=_listed_budget(plan) if source == "plan" else None,
        attributes=asked_attributes(normalise(request), entries),
        max_picks=max(1, picks),
        entries=entries,
        shown_before=tuple(items[i] for i in sorted(shown_before) if i in items),
        brands=_asked_brands(prefer, entries, category),
        searched=normalise(searched) if searched else None,
        in_stock=plan.in_stock,
    )


def _asked_brands(
    prefer: Sequence[Term], entries: Sequence[Entry], category: str | None
) -> tuple[str, ...]:
    """The preferred words that are a candidate's brand ("dell", "sony"), as brand keys; a
    colour is none, though a brand may bear its name ("midnight green" earbuds), nor the
    maker of a computer's chips ("an intel quad core tablet" asks an Intel processor)."""
    host = bool(set((category or "").lower().split()) & PART_HOSTS)
    brands = {brand_key(e.item.brand) for e in entries} - {None}
    named = (t.text for t in prefer if t.words and t.text not in COLOUR_NAMES)
    keys = (brand_key(t) for t in named if not (host and t in COMPONENT_MAKERS))
    return tuple(k for k in keys if k is not None and k in brands)


def _own_must_haves(plan: ShoppingPlan, part: BundleSlot | None) -> tuple[str, ...]:
    """The plan's must-haves less those another bundle part claims as its own ("16000 dpi"
    is the mouse's in "a laptop and a mouse with at least 16000 dpi", not the laptop's)."""
    if part is None:
        return plan.must_have
    others = {m for b in plan.bundle if b.slot != part.slot for m in b.must_have}
    return tuple(m for m in plan.must_have if m in part.must_have or m not in others)


def _parts(must: Sequence[Term], category: str | None) -> dict[str, Term]:
    """The must-haves that read otherwise beside the product, as they read there."""
    out = {}
    for term in must:
        if term.either:
            continue
        beside = make_term(beside_product(term.text, category))
        if beside is not None and beside.text != term.text:
            out[term.text] = beside
    return out


def hard_filter(inputs: PickInputs, *, dup_threshold: float = 1.0) -> Filtered:
    """Stage 2: drop items an exclude term names (title, brand or category, whole words, not
    when negated), sold-out listings (pre-orders too when stock was asked), items over budget
    or of unknown price when a budget is set, and picks the shopper asked to see others than,
    with their listings elsewhere (`same_product` at `dup_threshold`); when that leaves out
    every candidate naming the asked product, leave out the other products too (`Filtered.
    other_products`); scale the recall scores, cheapness and freshness over the survivors."""
    excluded = dict.fromkeys(inputs.exclude, 0)
    over = unknown = shown = off = 0
    stock: list[Entry] = []
    unavailable = {"out_of_stock", "preorder"} if inputs.in_stock else {"out_of_stock"}
    kept: list[Entry] = []
    for entry in inputs.entries:
        if any(same_product(entry.item, s, threshold=dup_threshold) for s in inputs.shown_before):
            shown += 1
            continue
        if inputs.attributes and not fits_attributes(entry.item, inputs.attributes):
            off += 1
            continue
        if entry.item.availability in unavailable:
            stock.append(entry)
            continue
        term = excluded_by(entry.item, inputs.exclude)
        if term is not None:
            excluded[term] += 1
            continue
        price = entry.item.price_usd
        if inputs.budget_usd is not None:
            if price is None:
                unknown += 1
                continue
            if _over_budget(entry.item, price, inputs):
                over += 1
                continue
        kept.append(entry)
    named = [names_asked(e.item, inputs) for e in kept]
    others = 0
    if kept and not any(n is not False for n in named) and _left_out_named(kept, inputs):
        others, kept, named = len(kept), [], []
    recall = _min_max([e.candidate.recall_score for e in kept], higher_is_better=True)
    prices = [e.item.price_usd for e in kept]
    # a price to be near: being cheaper is no merit
    near_price = inputs.price_target_usd is not None
    cheap = [0.0] * len(kept) if near_price else cheapness(prices, inputs.budget_usd)
    fresh = freshness([e.item.released for e in kept])
    near = nearness(prices, inputs.price_target_usd)
    pool = tuple(
        Pooled(e.item, e.candidate, r, c, f, n, a)
        for e, r, c, f, n, a in zip(kept, recall, cheap, fresh, near, named, strict=True)
    )
    return Filtered(
        pool=pool,
        excluded=excluded,
        unmatched_excludes=tuple(t for t, n in excluded.items() if n == 0),
        over_budget=over,
        unknown_price=unknown,
        shown_before=shown,
        off_attribute=off,
        not_in_stock=tuple(stock),
        other_products=others,
        relative_price=inputs.budget_usd is None and not near_price,
    )


def names_asked(item: Item, inputs: PickInputs) -> bool | None:
    """Whether the item names the asked product (`names_product`), a name shops also list
    it as ("Throw Pillows" for a cushion), or its noun with the spec sheet saying the rest
    of its name; None without one."""
    product = inputs.category
    if not product or not category_words(product):
        return None
    names = (product, *listed_as(product))
    return any(names_product(item, n, inputs.request) for n in names) or _named_on_sheet(
        item, product, inputs.request
    )


def _named_on_sheet(item: Item, product: str, request: str) -> bool:
    """Whether the title names the product's noun and the spec sheet states each other word
    of its name: a "portable speaker Red" whose sheet lists Bluetooth is a bluetooth speaker."""
    noun = head(product)
    others = [w for w in category_words(product) if w != noun]
    if noun is None or not others or not names_product(item, noun, request):
        return False
    return all((t := make_term(w)) is not None and where_stated(item, t) for w in others)


def _left_out_named(kept: Sequence[Entry], inputs: PickInputs) -> bool:
    """Whether a candidate the filters left out names the asked product: then the others
    kept stand in for nothing ("something cheaper" than the one red saree: a red lipstick
    is no cheaper saree)."""
    ids = {e.item.item_id for e in kept}
    return any(names_asked(e.item, inputs) for e in inputs.entries if e.item.item_id not in ids)


def excluded_by(item: Item, terms: Sequence[str]) -> str | None:
    """The first exclude term the item's title, brand or category names (negations ignored)."""
    for term in terms:
        forms = _forms(term)
        for text in (item.title, item.brand, item.category):
            if text and any(mentions(text, form) for form in forms):
                return term
    return None


def cheapness(
    prices: Sequence[float | None],
    budget: float | None,
    *,
    among: Sequence[float] | None = None,
) -> list[float]:
    """0-1 per price: 1 - price/budget with a budget, else the log price between the
    cheapest and dearest of `among` (the prices themselves unless given; cheapest 1,
    clipped): prices span orders of magnitude, and one $3,900 printer had left a $36 and an
    $840 one 0.2 apart. An unknown price is 0."""
    if budget is not None:
        return [0.0 if p is None else min(1.0, max(0.0, 1.0 - p / budget)) for p in prices]
    scale = [_log_price(p) for p in (among if among is not None else prices) if p is not None]
    if not scale:
        return [0.0] * len(prices)
    low, high = min(scale), max(scale)
    if high - low <= 1e-12:
        return [0.0 if p is None else 1.0 for p in prices]
    return [
        0.0 if p is None else min(1.0, max(0.0, (high - _log_price(p)) / (high - low)))
        for p in prices
    ]


def _log_price(price: float) -> float:
    return math.log1p(max(price, 0.0))


def nearness(prices: Sequence[float | None], target: float | None) -> list[float]:
    """0-1 per price: 1 - |price - target| / target, at least 0 ("around $1500" serves a
    $1,450 laptop, not a $330 one); 0 for an unknown price and for every price without one."""
    if target is None:
        return [0.0] * len(prices)
    return [0.0 if p is None else max(0.0, 1.0 - abs(p - target) / target) for p in prices]


def freshness(years: Sequence[int | None]) -> list[float]:
    """0-1 per release year, min-max within the years (newest 1); an unknown year is 0.5,
    neither new nor old."""
    known = [float(y) for y in years if y is not None]
    scaled = iter(_min_max(known, higher_is_better=True))
    return [0.5 if y is None else next(scaled) for y in years]


def _min_max(values: Sequence[float], *, higher_is_better: bool) -> list[float]:
    if not values:
        return []
    low, high = min(values), max(values)
    if high - low <= 1e-12:
        return [1.0] * len(values)
    if higher_is_better:
        return [(v - low) / (high - low) for v in values]
    return [(high - v) / (high - low) for v in values]


def _bundle_slot(plan: ShoppingPlan, slot: str) -> BundleSlot | None:
    return next((b for b in plan.bundle if b.slot == slot), None)


def _budget(
    plan: ShoppingPlan, part: BundleSlot | None, asked: float | None, share: float | None
) -> tuple[float | None, BudgetSource | None]:
    if asked is not None:
        return asked, "args"
    if part is not None and part.budget_usd is not None:
        return part.budget_usd, "slot"
    if share is not None:
        return share, "bundle"
    if plan.budget_usd is not None:
        return plan.budget_usd, "plan"
    return None, None


def _listed_budget(plan: ShoppingPlan) -> tuple[float, str] | None:
    """The plan's ceiling in its written currency: the amount as written, or, where the
    planner allowed headroom ("around ₹1000"), the dollar ceiling converted back."""
    if plan.budget_usd is None or plan.budget_amount is None or plan.currency == "USD":
        return None
    rate = usd_rates().get(plan.currency)
    if rate is None:
        return None
    if abs(plan.budget_amount * rate - plan.budget_usd) <= 0.005:
        return plan.budget_amount, plan.currency
    return plan.budget_usd / rate, plan.currency


def _over_budget(item: Item, price_usd: float, inputs: PickInputs) -> bool:
    """Over the ceiling: in the listed currency when the budget was said in it, else in USD."""
    listed = inputs.budget_listed
    if listed is not None and item.currency == listed[1] and item.price is not None:
        return item.price > listed[0]
    return inputs.budget_usd is not None and price_usd > inputs.budget_usd


def _entries(candidates: Sequence[Candidate], items: Mapping[str, Item]) -> tuple[Entry, ...]:
    seen: set[str] = set()
    out: list[Entry] = []
    for candidate in sorted(candidates, key=lambda c: c.rank):
        item = items.get(candidate.item_id)
        if item is None or candidate.item_id in seen:
            continue
        seen.add(candidate.item_id)
        out.append(Entry(candidate, item))
    return tuple(out)


def _distinct_specs(terms: Sequence[Term]) -> tuple[Spec, ...]:
    out: dict[tuple[float, str], Spec] = {}
    for term in terms:
        for spec in term.specs:
            out.setdefault(spec.key, spec)
    return tuple(out.values())


def _clean(term: str) -> str:
    return normalise(term.replace("-", " "))


def _forms(term: str) -> tuple[str, ...]:
    """The term and its last word in singular, plural and past-participle form ("nuts" ~
    "nut"; "without print" rules out "printed")."""
    words = term.split()
    if not words:
        return ()
    last = singular(words[-1])
    stems = {words[-1], last, last + "s"}
    if last.isalpha() and len(last) >= 3 and not last.endswith("ed"):
        stems.add(last + ("d" if last.endswith("e") else "ed"))
    return tuple(" ".join([*words[:-1], w]) for w in sorted(stems))


def of_asked_brand(item: Item, brands: Sequence[str]) -> bool:
    """Whether the item is of one of the named brands (brand keys): its brand field, or, when
    it has none, the maker its title starts with."""
    if item.brand:
        return brand_key(item.brand) in brands
    first = normalise(item.title).split()[:1]
    return bool(first) and first[0] in brands
