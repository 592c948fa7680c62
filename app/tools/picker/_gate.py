"""item_picker stage 3: the cross-encoder relevance gate and the rules that switch it off.

The gate scores "<must-haves> <category>" against the titles of the best-recalled survivors
(with the category the spec sheet implies where a title never names the product), accessories
last; an item below the floor sinks (penalised in stage 5), never dropped. When
none of them reaches the floor it scores the next ones once (titles with the asked size but
of another product can fill the first batch). It is off, and says why, when no reranker is
available, when the category contradicts the request the slot was searched with, or when no
scored candidate reaches the floor. Whatever the model says, an accessory sinks: an item
whose title names the category only as what it is for ("Laptop Riser", "screen protector
Mobile phone/Smartphone"), whose own category is an accessory type ("mobile phone case") or
whose description opens by naming an add-on ("Screen Protector, clear"); so does another
product made with the category's modifier ("Power Cord" for a power bank), another kind
named with the category's noun ("Graphics Tablet" for a tablet) and another product that the
noun only describes ("Triple-Monitor USB-C Docking Station"), and an item that never says
the product but names another kind while some candidate names it (a watch for sunglasses).
What the gate reads of each item is `_gate_document`'s.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import NamedTuple

from app.catalog.add_ons import describes_add_on, names_only_as_add_on_target
from app.catalog.articles import with_article
from app.catalog.item import Item
from app.catalog.product_kinds import other_kind_in
from app.catalog.product_nouns import (
    canonical,
    catalog_name,
    head,
    is_accessory_noun,
    listed_as,
    sold_for_another,
)
from app.catalog.product_nouns import tokens as hyphenated_words
from app.errors import ConfigError, DependencyDown, InvalidRequest
from app.language import lexicon
from app.recall.reranker import Reranker
from app.tools.picker._filter import of_asked_brand
from app.tools.picker._gate_document import gate_document
from app.tools.picker._model import Filtered, Gate, PickInputs, Pooled
from app.tools.picker._shelves import misfile, shelf_floor
from app.tools.search import (
    accessorized_product,
    accessory_asked,
    another_product,
    as_sold,
    is_named_target,
    names_as_compound_modifier,
    names_noun,
    names_only_as_feature,
    none_named,
    sibling_product,
    target_codes,
)
from app.tools.terms import find_specs, spec_said, tokens

log = logging.getLogger(__name__)
_CONNECTORS = lexicon.word_set("lexicon_connectors")


class GatePlan(NamedTuple):
    """What the gate will score: the query and the items, or why it stays off; the
    accessories it marks and the ids of its budget (what stage 4 embeds), either way; and
    the next items in scoring order, scored only when none of the targets reaches the floor."""

    query: str | None
    targets: tuple[Pooled, ...]
    off: str | None
    accessories: frozenset[str] = frozenset()
    budget: frozenset[str] = frozenset()
    spare: tuple[Pooled, ...] = ()
    noun: str | None = None
    also: tuple[str, ...] = ()
    """Other names of the product each item is scored under too, the best score counting."""

    def widened(self) -> GatePlan:
        """The plan with its spare items scored too and added to the budget."""
        ids = frozenset(p.item.item_id for p in self.spare)
        return self._replace(targets=self.targets + self.spare, budget=self.budget | ids, spare=())


def gate_query(inputs: PickInputs) -> str:
    """The gate's query: the category in the catalog's words (the request without one). The
    gate judges what an item is; must-haves are stage 4's, since the cross-encoder reads
    "gps tablet" as a request for a GPS and "touchscreen backlit laptop" as no laptop."""
    return catalog_name(inputs.category) if inputs.category else inputs.request


def contradiction(inputs: PickInputs) -> str | None:
    """Why the category cannot anchor the gate for this request, or None when it can.

    The category's noun must be a word of the request the slot was searched with, and
    the search must not have been for another product that merely names it ("laptop
    sleeve" when the category is "laptop"): the product item_search typed for the slot
    decides that; only candidates that carry none (older sessions) have the rule planner
    read the request ("laptop stylus" is a stylus unless the laptop must have one).
    """
    if not inputs.category or not inputs.request:
        return None
    noun = head(inputs.category)
    if noun is None:
        return None
    if not names_noun(inputs.request, inputs.category):
        return f"the request {inputs.request!r} does not mention {noun!r}"
    if inputs.searched is not None:
        read: str | None = inputs.searched if head(inputs.searched) != noun else None
    else:
        read = accessory_asked(inputs.category, inputs.request, (t.text for t in inputs.must))
    if read:
        noun = tokens(read)[-1]
        asked, filed = with_article(noun), with_article(inputs.category)
        return f"the request {inputs.request!r} is for {asked}, not {filed}"
    return None


def accessories(inputs: PickInputs, filtered: Filtered) -> frozenset[str]:
    """Ids of survivors that name the category's product only as what they are for ("Laptop
    Riser", "sleeve for 15in laptops", "screen protector Mobile phone/Smartphone"), whose own
    category is an accessory type ("mobile phone case"), whose description says they are
    an add-on, or that are another kind of it ("Pen Tablet"), when the request is for a
    product that is not an accessory itself; for an accessory, the product it is for, when
    another candidate names the accessory ("smartwatch" for smartwatch bands)."""
    return _accessories(inputs, filtered, contradiction(inputs))


def _accessories(inputs: PickInputs, filtered: Filtered, why: str | None) -> frozenset[str]:
    if not inputs.category or why is not None:
        return frozenset()
    noun = head(inputs.category)
    if noun is None:
        return frozenset()
    typed = not is_accessory_noun(noun)
    asked = (*tokens(inputs.category), *tokens(inputs.request))
    others = _other_products(inputs, filtered)
    return (
        others
        | _products_of_the_accessory(inputs, noun, filtered)
        | frozenset(
            p.item.item_id
            for p in filtered.pool
            if names_only_as_add_on_target(as_sold(p.item.title), noun)
            or names_only_as_feature(p.item.title, noun)
            or (typed and _accessory_category(p.item, asked))
            or sibling_product(p.item.title, inputs.category) is not None
            or names_as_compound_modifier(p.item.title, noun)
            or describes_add_on(p.item.description, noun)
            or other_kind_in((p.item.title, p.item.category), noun, asked) is not None
        )
    )


def _other_products(inputs: PickInputs, filtered: Filtered) -> frozenset[str]:
    """Ids of the items of another named kind (`another_product`) when some candidate names
    the asked product: a brand's watch is no pick for its sunglasses while sunglasses exist."""
    category, request = inputs.category or "", inputs.request
    kinds = {p.item.item_id: another_product(p.item, category, request) for p in filtered.pool}
    others = frozenset(i for i, kind in kinds.items() if kind is not None)
    return others if len(others) < len(kinds) else frozenset()


def _products_of_the_accessory(inputs: PickInputs, noun: str, filtered: Filtered) -> frozenset[str]:
    """Ids of the items that are the product an asked accessory is for, by name or by the
    model the request names, when another candidate names the accessory; with none that
    does, they are the closest matches."""
    category = inputs.category or ""
    codes = target_codes(category, (t.text for t in inputs.must))
    found = frozenset(
        p.item.item_id
        for p in filtered.pool
        if accessorized_product(p.item.title, category) is not None
        or is_named_target(p.item, codes)
    )
    if found and any(noun in map(canonical, hyphenated_words(p.item.title)) for p in filtered.pool):
        return found
    return frozenset()


def _accessory_category(item: Item, asked: Sequence[str]) -> bool:
    """Whether the item's own category, listed or read off its spec sheet, is sold for another
    product: an accessory type ("notebook case") or a service not asked for (a warranty)."""
    category = item.known_category
    return category is not None and sold_for_another(category, asked)


def plan_gate(
    inputs: PickInputs, filtered: Filtered, *, k: int, unavailable: str | None
) -> GatePlan:
    """Decide whether the gate runs and on which items: the first `k` survivors in scoring
    order, passing over accessories (they sink anyway). The request is read against the
    category once, for both the plan and the accessories."""
    why = contradiction(inputs)
    marked = _accessories(inputs, filtered, why)
    order = _scoring_order(inputs, filtered.pool, marked)
    budget = tuple(order[: max(k, 0)])
    plan = _plan_gate(inputs, filtered, budget, k=k, unavailable=unavailable, why=why)
    spare = (
        ()
        if plan.off
        else _spare(order, budget, marked, k=k, by_asked=bool(inputs.specs or inputs.brands))
    )
    return plan._replace(
        accessories=marked, budget=frozenset(p.item.item_id for p in budget), spare=spare
    )


def _spare(
    order: Sequence[Pooled],
    budget: Sequence[Pooled],
    accessories: AbstractSet[str],
    *,
    k: int,
    by_asked: bool,
) -> tuple[Pooled, ...]:
    """The next `k` items to score when too few of the first batch are relevant
    (`_wants_spare`): the next in scoring order, or, when asked specs or brands ordered the
    first batch, the best recalled left, so that a first batch of 500 GB hard drives for "a
    500gb ssd" gives way to the SSDs."""
    skipped = {p.item.item_id for p in budget} | accessories
    rest = [p for p in order if p.item.item_id not in skipped]
    if by_asked:
        rest.sort(key=lambda p: (-p.candidate.recall_score, p.candidate.rank))
    return tuple(rest[: max(k, 0)])


def _plan_gate(
    inputs: PickInputs,
    filtered: Filtered,
    budget: tuple[Pooled, ...],
    *,
    k: int,
    unavailable: str | None,
    why: str | None,
) -> GatePlan:
    if unavailable is not None:
        return GatePlan(None, (), f"no reranker: {unavailable}")
    if k <= 0:
        return GatePlan(None, (), "PICK_RERANK_K is 0")
    if not filtered.pool:
        return GatePlan(None, (), "no candidates to score")
    if not (inputs.category or inputs.request):
        return GatePlan(None, (), "nothing to anchor it: no category and no request")
    if why is not None:
        return GatePlan(None, (), f"category contradicts the request: {why}")
    return _judging(inputs, gate_query(inputs), budget)


def _judging(inputs: PickInputs, query: str, items: Sequence[Pooled]) -> GatePlan:
    """A plan that scores `items` for `query`, each document read against the category's
    noun."""
    noun = head(inputs.category or "")
    return GatePlan(query, tuple(items), None, noun=noun, also=other_names(inputs, query))


def other_names(inputs: PickInputs, query: str) -> tuple[str, ...]:
    """The product's names besides the gate's query: the shopper's where the query is the
    catalog's ("laptop charger" beside "laptop power adapter"), and the catalog's for the
    product with a word of the request before it ("a charger for my laptop": a laptop
    charger, "laptop power adapter"); with a connector the request names ("usb-c charger");
    and, when no candidate names the product, the names shops also list it as (a "rucksack"
    among backpacks)."""
    product = inputs.category
    if not product:
        return ()
    names = [product] if query == catalog_name(product) != product else []
    for word in tokens(inputs.request):
        compound = f"{word} {product}"
        if (alias := catalog_name(compound)) != compound:
            names.append(alias)
    kinds = _CONNECTORS - set(hyphenated_words(product))
    names += [f"{w} {product}" for w in hyphenated_words(inputs.request) if w in kinds]
    listed = listed_as(product)
    if listed and none_named((e.item for e in inputs.entries), product, inputs.request):
        names += listed
    return tuple(n for n in dict.fromkeys(names) if n != query)


def _scoring_order(
    inputs: PickInputs, pool: Sequence[Pooled], accessories: AbstractSet[str]
) -> list[Pooled]:
    """The order in which the gate and the semantic stage spend their budget of
    PICK_RERANK_K items: accessories last, titles that serve more of the asked specs ("64gb";
    more mAh, a newer USB as stage 4 credits them) and of a named brand first, then best
    recall."""

    def key(p: Pooled) -> tuple[bool, int, float, int]:
        stated = find_specs(p.item.title) if inputs.specs else ()
        carried = sum(1 for spec in inputs.specs if spec_said(spec, stated))
        carried += of_asked_brand(p.item, inputs.brands) if inputs.brands else 0
        accessory = p.item.item_id in accessories
        return (accessory, -carried, -p.candidate.recall_score, p.candidate.rank)

    return sorted(pool, key=key)


def finish_gate(
    plan: GatePlan, scores: Sequence[float] | None, *, floor: float, failure: str | None = None
) -> Gate:
    """The verdict from the scores: below the floor sinks; off when none reaches the floor."""
    if plan.off is not None:
        return Gate(False, plan.off, plan.query, floor)
    if failure is not None or scores is None:
        return Gate(False, f"reranker failed: {failure or 'no scores'}", plan.query, floor)
    if len(scores) != len(plan.targets):
        why = f"reranker returned {len(scores)} scores for {len(plan.targets)} titles"
        return Gate(False, f"reranker failed: {why}", plan.query, floor)
    by_id = {p.item.item_id: float(s) for p, s in zip(plan.targets, scores, strict=True)}
    if not any(s >= floor for s in by_id.values()):
        reason = f"no candidate reaches the floor {floor:.2f} for {plan.query!r}"
        return Gate(False, reason, plan.query, floor, by_id)
    sunk = frozenset(i for i, s in by_id.items() if s < floor)
    return Gate(True, None, plan.query, floor, by_id, sunk)


async def run_gate(
    inputs: PickInputs,
    filtered: Filtered,
    model: Reranker | None,
    *,
    k: int,
    floor: float,
    shelf: float = 0.0,
    unavailable: str | None = None,
) -> Gate:
    """Stage 3: plan, score without blocking the loop, and judge, then mark the accessories;
    a reranker that fails (a model that cannot load, a remote one down) switches the gate
    off for this call instead of failing it. An item the catalog files as the asked product
    scores at least `shelf` (`Gate.shelved` when that saved it from sinking)."""
    if model is None and unavailable is None:
        unavailable = "none configured"
    plan = plan_gate(inputs, filtered, k=k, unavailable=unavailable)
    product = inputs.category
    gate = await _score(plan, model, floor=floor, shelf=shelf, product=product)
    if plan.spare and _wants_spare(gate, inputs):
        spare = plan._replace(targets=plan.spare)
        second = await _score(spare, model, floor=floor, shelf=shelf, product=product)
        if second.scores:
            plan = plan.widened()
            known = {**gate.scores, **second.scores}
            shelved = gate.shelved | second.shelved
            gate = finish_gate(plan, [known[p.item.item_id] for p in plan.targets], floor=floor)
            gate = dataclasses.replace(gate, shelved=shelved)
    gate = misfile(gate, inputs, filtered.pool)
    return dataclasses.replace(gate, accessories=plan.accessories, budget=plan.budget)


def _wants_spare(gate: Gate, inputs: PickInputs) -> bool:
    """Whether the gate scores its spare batch: none of the first batch is relevant, or
    fewer than the picks asked for when asked specs or brands ordered it ("a tablet with
    1080p": monitors stating 1080p filled it, and one passed)."""
    if gate.none_relevant:
        return True
    relevant = sum(1 for score in gate.scores.values() if score >= gate.floor)
    return bool(inputs.specs or inputs.brands) and relevant < inputs.max_picks


async def judge_more(
    gate: Gate, inputs: PickInputs, items: Sequence[Pooled], model: Reranker | None, *, shelf: float
) -> Gate:
    """The gate with `items` it had not scored judged too (the weighted score can raise an
    item from beyond its budget into the picks); as it was when off or when scoring fails."""
    if not gate.on or not items:
        return gate
    plan = _judging(inputs, gate.query or inputs.request, items)
    more = await _score(plan, model, floor=gate.floor, shelf=shelf, product=inputs.category)
    sunk = frozenset(i for i, score in more.scores.items() if score < gate.floor)
    judged = dataclasses.replace(
        gate,
        scores={**gate.scores, **more.scores},
        sunk=gate.sunk | sunk,
        shelved=gate.shelved | more.shelved,
    )
    return misfile(judged, inputs, items)


async def _score(
    plan: GatePlan, model: Reranker | None, *, floor: float, shelf: float, product: str | None
) -> Gate:
    """The gate's scores for the plan's items, each the best under the query and the plan's
    other names of the product (`other_names`): the model tells "laptop charger" and "laptop
    power adapter" apart, and either is what was asked."""
    if plan.off is not None or model is None or plan.query is None:
        return finish_gate(plan, None, floor=floor)
    documents = [gate_document(p.item, plan.noun) for p in plan.targets]
    try:
        scores = await model.ascore(plan.query, documents)
        for name in plan.also:
            more = await model.ascore(name, documents)
            scores = [max(a, b) for a, b in zip(scores, more, strict=True)]
    except (ConfigError, DependencyDown, InvalidRequest) as exc:
        log.warning("item_picker: relevance gate off: %s", exc)
        return finish_gate(plan, None, floor=floor, failure=str(exc))
    floored, saved = shelf_floor(plan.targets, scores, product, shelf=shelf, floor=floor)
    gate = finish_gate(plan, floored, floor=floor)
    return dataclasses.replace(gate, shelved=saved) if saved else gate
