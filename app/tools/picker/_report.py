"""item_picker stage 7: each slot's picks with reasons a shopper can check, what the filters
and the gate did, and the offers other shops list for them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from app.catalog.articles import with_article
from app.catalog.currency import listed_price, money, usd
from app.catalog.item import Item
from app.catalog.product_kinds import other_kind_in
from app.catalog.product_nouns import head, listed_as, tokens
from app.catalog.standards import standard_labels
from app.tools.compare import PriceCompareResult
from app.tools.picker._contrary import PLATFORMS, platforms_named, same_family
from app.tools.picker._filter import names_asked
from app.tools.picker._model import Chosen, Filtered, Gate, PickInputs, Selection
from app.tools.picker._result import GateReport, Pick, PickOffer, SlotPicks
from app.tools.search import (
    accessorized_product,
    another_product,
    names_product,
    none_named,
    sibling_product,
)
from app.tools.terms import spec_where, where_stated


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
        shown_before=filtered.shown_before,
        not_in_stock=len(filtered.not_in_stock),
        off_attribute=filtered.off_attribute,
        attributes_asked=sorted({v for a in inputs.attributes.values() for v in a.wanted}),
        other_products=filtered.other_products,
        in_stock_asked=inputs.in_stock,
        unavailable_ahead=_unavailable_ahead(inputs, filtered, selection),
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
        unnamed=(unnamed := _unnamed(inputs, selection)),
        listed_as=_listed_as(inputs, selection) if unnamed else None,
    )


def _unavailable_ahead(inputs: PickInputs, filtered: Filtered, selection: Selection) -> list[str]:
    """The titles of at most two unavailable items search ranked above every pick (above
    nothing when there is no pick: then the first two, of the asked product when other
    products were left out for it)."""
    ranks = [c.scored.pooled.candidate.rank for c in selection.picks]
    first = min(ranks, default=None)
    ahead = [e for e in filtered.not_in_stock if first is None or e.candidate.rank < first]
    if filtered.other_products:
        ahead = [e for e in ahead if names_asked(e.item, inputs)]
    return list(dict.fromkeys(e.item.title for e in ahead))[:2]


def _unnamed(inputs: PickInputs, selection: Selection) -> str | None:
    """The slot's product when picks exist and none names it ("desk lamp" beside projector
    lamps)."""
    product = inputs.category
    if not product or not selection.picks:
        return None
    items = (c.scored.item for c in selection.picks)
    return product if none_named(items, product, inputs.request) else None


def _listed_as(inputs: PickInputs, selection: Selection) -> str | None:
    """The name shops also list the product as that the most picks say ("light" for a lamp),
    None when none says one."""
    items = [c.scored.item for c in selection.picks]
    names = listed_as(inputs.category) if inputs.category else ()
    said = {n: sum(names_product(i, n, inputs.request) for i in items) for n in names}
    best = max(said, key=lambda n: said[n], default=None)
    return best if best is not None and said[best] else None


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
    """The unstated specs and terms that a candidate the gate kept, and which names the asked
    product, states in its title or on its spec sheet: the picks outranked it on the rest of
    the request, so the catalog is not short of them (an Xbox headset is no Xbox controller)."""
    if not unsaid:
        return []
    product = inputs.category
    kept = [
        p.item
        for p in filtered.pool
        if not gate.penalised(p.item.item_id)
        and (not product or names_product(p.item, product, inputs.request))
    ]
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
        price=item.price,
        currency=item.currency,
        attributes=dict(item.attributes),
        availability=item.availability,
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
            f"closest match only: {with_article(kind)}, not {with_article(what)}"
            if kind
            else f"closest match only: an accessory for {with_article(what)}, not one"
        )
    if gate.on and scored.gate_score is not None:
        if item.item_id in gate.misfiled:
            parts.append(
                f"closest match only: the catalog files it as "
                f"{(item.product_type or '').lower()}, not {with_article(what)}"
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
    brand = inputs.brand_wording
    unsaid = [t for t in (*sem.specs_unsaid, *sem.terms_unsaid) if t != brand]
    if unsaid:
        parts.append("does not say " + ", ".join(inputs.shown(unsaid)))
    if (others := platforms_named(item.title)) and any(t in PLATFORMS for t in unsaid):
        parts.append(f"made for {', '.join(others)}")
    if brand in sem.terms_unsaid:
        parts.append(f"not by {brand}")
    instead = [t for t in sem.avoid_said if t in inputs.contrary]
    avoided = [t for t in sem.avoid_said if t not in inputs.contrary]
    if instead:
        asked = inputs.shown(form for form in inputs.forms if same_family(form, instead))
        parts.append(f"says {', '.join(inputs.shown(instead))}, not {', '.join(asked)}")
    if avoided:
        mentioned = ", ".join(inputs.shown(avoided))
        parts.append(f"mentions {mentioned} (you would rather avoid it)")
    parts.append(_price_words(item, inputs))
    if item.released is not None:
        parts.append(f"released {item.released}")
    if view is not None:
        parts.append(_offer_words(view))
    if chosen.merged:
        parts.append(f"{len(chosen.merged)} near-identical listing(s) merged")
    return "; ".join(p for p in parts if p)


def _kind_of(item: Item, category: str | None, request: str) -> str | None:
    """The other kind of product an item is ("pen tablet" for a tablet, "Cat 6 cable" for a
    coaxial cable, "gaming mouse" for a gaming keyboard), if it is one."""
    noun = head(category) if category else None
    if noun is None:
        return None
    asked = [*tokens(category or ""), *tokens(request)]
    kind = other_kind_in((item.title, item.category), noun, asked)
    kind = kind or sibling_product(item.title, category or "")
    kind = kind or accessorized_product(item.title, category or "")
    kind = kind or another_product(item, category or "", request)
    return standard_labels(kind) if kind else None


def _price_words(item: Item, inputs: PickInputs) -> str:
    """The price as the shop lists it and what it leaves of the budget, in the currency the
    shopper gave the budget in when the shop lists in it too ("INR 1,001 under the INR
    5,000 budget"), else in dollars with the budget as said beside ("$181.51 under the
    $206.00 (≈ EUR 200) budget")."""
    price, budget = item.price_usd, inputs.budget_usd
    if price is None:
        return "no listed price"
    shown = listed_price(item.price, item.currency, price)
    if budget is None:
        return shown
    of = " left for it of the bundle's budget" if inputs.budget_source == "bundle" else " budget"
    amount, code, paid = budget, "USD", price
    listed = inputs.budget_listed
    if listed is not None and item.price is not None and listed[1] == item.currency:
        (amount, code), paid = listed, item.price
    elif listed is not None:
        of = f" (≈ {money(*listed)}){of}"
    return f"{shown}, {money(amount - paid, code)} under the {money(amount, code)}{of}"


def _offer_words(view: OfferView) -> str:
    cheapest = view.cheapest
    if not view.offers:
        return "no other shop lists it"
    if cheapest is None or cheapest.price_usd is None:
        return f"also listed on {len(view.offers)} other shop(s), without a price"
    if view.saving_usd is not None and view.saving_usd > 0:
        return (
            f"cheaper on {cheapest.platform} at {usd(cheapest.price_usd)} "
            f"[{cheapest.item_id}], saves {usd(view.saving_usd)}"
        )
    return f"cheapest of {len(view.offers) + 1} listings"
