"""What a shopping summary may say, gathered from the turn's tool results: the picks per slot
with their cheaper offers, and for a slot without picks why not (probe reasons, picker
counts). Also the check that keeps item ids in written text to the ones we can vouch for."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from app.catalog.articles import with_article
from app.catalog.currency import usd
from app.catalog.spelling import Respelling
from app.tools.base import ToolContext
from app.tools.picker import ItemPickerResult, Pick, PickOffer, SlotPicks
from app.tools.plan import ShoppingPlan
from app.tools.planner import PlannerResult
from app.tools.search import ItemSearchResult
from app.tools.terms import tokens

# An item id is `shop:id`; shop names are open (the catalog's), so the shape is general and a
# citation is judged by its shop: one of the catalog's (or of the ids the turn may cite).
_ITEM_ID = re.compile(
    r"\[?(?<![\w.:/-])([a-z][a-z0-9._-]{0,63}:[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)\]?"
)


@dataclass(frozen=True)
class SlotFacts:
    """One slot: its picks (best first), or the sentence that says why there are none; a
    caveat when the picks are not the asked product because the budget priced it out, or
    when none of them states an asked spec."""

    slot: str
    query: str
    picks: tuple[Pick, ...]
    why_none: str | None
    caveat: str | None = None


@dataclass(frozen=True)
class SummaryFacts:
    """Every slot of the turn, the ruled-out terms, the plan's budget (a bundle's cap), the
    words of the message read as other words, and the ids the text may cite."""

    slots: tuple[SlotFacts, ...]
    excluded: tuple[str, ...]
    budget_usd: float | None = None
    respelled: tuple[Respelling, ...] = ()
    limits: tuple[str, ...] = ()
    """What the plan holds that a shopper could loosen ("the budget", "a must-have")."""
    sold_out: bool = False
    """A slot without picks has the asked product, only not in stock now."""

    @property
    def picks(self) -> list[Pick]:
        return [p for s in self.slots for p in s.picks]

    def allowed_ids(self) -> set[str]:
        """The picks and their cheaper offers: the only items a summary may name."""
        ids = {p.item_id for p in self.picks}
        ids.update(o.item_id for p in self.picks if (o := cheaper_offer(p)) is not None)
        return ids


def gather_facts(ctx: ToolContext) -> SummaryFacts:
    """The facts of every slot searched or picked this turn, in plan (bundle) order."""
    searches = _searches(ctx)
    picked: dict[str, SlotPicks] = {}
    for result in _picker_results(ctx):
        picked.update({part.slot: part for part in result.slots})
    order = [b.slot for b in ctx.plan.bundle]
    slots = [*order, *searches, *picked]
    facts = []
    for slot in dict.fromkeys(s for s in slots if s in searches or s in picked):
        search, part = searches.get(slot), picked.get(slot)
        picks = tuple(part.picks) if part is not None else ()
        query = part.request if part is not None else search.query if search else slot
        why = None if picks else why_nothing(search, part)
        caveat = _caveat(search, part) if picks else None
        facts.append(SlotFacts(slot, query, picks, why, caveat))
    planned = ctx.last_results.get("planner")
    respelled = tuple(planned.respelled) if isinstance(planned, PlannerResult) else ()
    plan = ctx.plan
    # loosening a constraint finds nothing the catalog lacks altogether
    lacking = all(
        (s := searches.get(f.slot)) is not None and s.absent for f in facts if not f.picks
    )
    limits = () if lacking else limits_of(plan)
    sold_out = any(
        not f.picks and (p := picked.get(f.slot)) is not None and p.unavailable_ahead for f in facts
    )
    return SummaryFacts(
        tuple(facts), plan.exclude_terms, plan.budget_usd, respelled, limits, sold_out
    )


def limits_of(plan: ShoppingPlan) -> tuple[str, ...]:
    """The plan's constraints a shopper could loosen, in words."""
    held = {
        "the budget": plan.budget_usd is not None or plan.budget_min_usd is not None,
        "a must-have": bool(plan.must_have),
        "a ruled-out term": bool(plan.exclude),
        "the shop": bool(plan.platforms),
    }
    return tuple(name for name, on in held.items() if on)


def why_nothing(search: ItemSearchResult | None, part: SlotPicks | None) -> str:
    """Why a slot has no pick, from the picker's counts or the search's probe reasons."""
    if part is not None and part.candidates:
        told = unavailable(part)
        return f"{told}; {_picker_reasons(part)}" if told else _picker_reasons(part)
    if search is None:
        return "it was not searched"
    if search.price_only is not None:
        return search.price_only.sentence()
    if search.filtered_out:
        return _blocked_reasons(search)
    if search.absent:
        return f'this shop lists nothing called "{search.absent}"'
    if search.hits:
        return f"none of the {len(search.hits)} items found passed the picker's checks"
    return f'the catalog has nothing relevant for "{search.query}"'


def priced_out(search: ItemSearchResult | None) -> str | None:
    """The caveat for picks beside a budget that priced out every item of the asked product:
    the search found none under it, so what it kept is something else."""
    verdict = search.price_only if search is not None else None
    if verdict is None or verdict.product is None:
        return None
    return (
        f"I found no {verdict.product} within your budget: {verdict.sentence()}. "
        f"What comes closest under it may not be {with_article(verdict.product)}"
    )


def unstated(part: SlotPicks | None, *, named: bool = True, told: str = "") -> str | None:
    """The caveat for picks of which none states an asked spec ("wifi6" when the catalog has
    no such router) or, unless `named` is off, none says the product's name ("desk lamp"
    beside projector lamps): they are the closest matches, not what was asked; a spec that
    lower-ranked items state is told apart. Specs the `told` caveat already names, in any
    spelling ("wifi 6" for wifi6), are left out. Picks listed under another name of the
    product ("light" for a lamp) are said to be."""
    if part is None:
        return None
    if named and part.unnamed and part.listed_as:
        other = f'I found nothing called "{part.unnamed}"; these are listed as "{part.listed_as}"'
        return _then_unstated(other, part, told)
    asked = [f'"{part.unnamed}"'] if named and part.unnamed else []
    told_words = set(tokens(told))
    asked += [spec for spec in part.unstated if not set(tokens(spec)) <= told_words]
    if not asked:
        return None
    lower = [a for a in asked if a in part.stated_elsewhere]
    nowhere = [a for a in asked if a not in lower]
    said = [f"None of the items I found says {' or '.join(nowhere)}"] if nowhere else []
    if lower:
        said.append(
            f"{'none' if said else 'None'} of my picks says {' or '.join(lower)}, which "
            "items ranked lower on the rest of your request do"
        )
    return "; ".join([*said, "these come closest"])


def absent(search: ItemSearchResult | None, part: SlotPicks | None) -> str | None:
    """The caveat for picks of a product the catalog lists nowhere ("earrings" in an
    electronics shop): the shop has none, and what comes closest is something else."""
    if search is None or not search.absent or part is None or not part.unnamed:
        return None
    said = f'This shop lists nothing called "{search.absent}"; what comes closest is something else'
    return _then_unstated(said, part)


def _then_unstated(said: str, part: SlotPicks, told: str = "") -> str:
    """`said` about the product's name, then the asked specs none of the picks states."""
    rest = unstated(part.model_copy(update={"unnamed": None}), told=told)
    return f"{said}. {rest}" if rest else said


def _caveat(search: ItemSearchResult | None, part: SlotPicks | None) -> str | None:
    verdict = priced_out(search)
    found: list[str | None]
    if verdict is None and (none := absent(search, part)):
        found = [none]
    else:
        told = verdict or ""
        found = [unavailable(part), verdict, unstated(part, named=verdict is None, told=told)]
    return ". ".join(c for c in (*found, stock_unlisted(part)) if c) or None


def unavailable(part: SlotPicks | None) -> str | None:
    """The best matches the picker left out as sold out (or, when stock was asked, not in
    stock): what the shopper most likely meant, so the picks are not taken for it."""
    if part is None or not part.unavailable_ahead:
        return None
    titles = " and ".join(f'"{t}"' for t in part.unavailable_ahead)
    plural = len(part.unavailable_ahead) > 1
    return f"{titles} {'are' if plural else 'is'} {_left_out_as(part)}"


def _left_out_as(part: SlotPicks) -> str:
    """Why the picker left a listing out for its stock, in the answer's words."""
    return "not in stock now" if part.in_stock_asked else "sold out"


def stock_unlisted(part: SlotPicks | None) -> str | None:
    """When the shopper asked for stock, the picks whose listing does not say whether they
    are in stock (the shop lists none, or not for these): a pick promises nothing there."""
    if part is None or not part.in_stock_asked:
        return None
    unknown = [p for p in part.picks if p.availability == "unknown"]
    if not unknown:
        return None
    if len(unknown) == len(part.picks):
        which = "it is" if len(unknown) == 1 else "these are"
        return f"The shop does not say whether {which} in stock: check before you order"
    ids = ", ".join(f"[{p.item_id}]" for p in unknown)
    return f"The shop does not say whether {ids} {'is' if len(unknown) == 1 else 'are'} in stock"


def cheaper_offer(pick: Pick) -> PickOffer | None:
    """The cheapest offer elsewhere when it saves money, else None."""
    offer = next((o for o in pick.offers if o.cheapest), None)
    if offer is None or offer.price_usd is None or not (pick.saving_usd or 0) > 0:
        return None
    return offer


def check_item_ids(
    text: str, allowed: Iterable[str], shops: Iterable[str] | None = None
) -> tuple[str, list[str]]:
    """`text` with every item id outside `allowed` removed: a line that cites only unknown
    ids is dropped (it describes an item we cannot vouch for), else just the citation. An id
    is any `shop:id`, or with `shops` given (the catalog's) one of those shops or of an allowed
    id. Returns the cleaned text and the removed ids in order of appearance."""
    known = set(allowed)
    id_shops = None if shops is None else set(shops) | {i.split(":", 1)[0] for i in known}
    removed: list[str] = []
    kept_lines = []
    for line in text.splitlines():
        ids = [i for i in _ids_in(line) if id_shops is None or i.split(":", 1)[0] in id_shops]
        unknown = [i for i in ids if i not in known]
        removed += [i for i in unknown if i not in removed]
        if unknown and len(unknown) == len(ids):
            continue
        if unknown:
            line = _ITEM_ID.sub(functools.partial(_cite, unknown=set(unknown)), line)
            line = re.sub(r"\s{2,}", " ", re.sub(r"\s+([,.;:)])", r"\1", line)).rstrip()
        kept_lines.append(line)
    return "\n".join(kept_lines).strip(), removed


def _cite(match: re.Match[str], unknown: set[str]) -> str:
    return "" if match.group(1).rstrip(".") in unknown else match[0]


def cited_ids(text: str) -> list[str]:
    """Item ids (`shop:id`) cited in `text`, in order, without repeats."""
    return list(dict.fromkeys(_ids_in(text)))


def _ids_in(text: str) -> list[str]:
    return [m.group(1).rstrip(".") for m in _ITEM_ID.finditer(text)]


def _picker_reasons(part: SlotPicks) -> str:
    reasons = []
    if part.over_budget and part.budget_usd is not None:
        reasons.append(f"{part.over_budget} above the {usd(part.budget_usd)} budget")
    if part.unknown_price:
        reasons.append(f"{part.unknown_price} without a known price")
    for term, n in part.excluded.items():
        reasons.append(f"{n} mention {term!r}, which you ruled out")
    if part.shown_before:
        reasons.append(f"{part.shown_before} were shown before")
    if part.not_in_stock:
        reasons.append(f"{part.not_in_stock} are {_left_out_as(part)}")
    if part.off_attribute:
        reasons.append(f"{part.off_attribute} are not {' or '.join(part.attributes_asked)}")
    if part.other_products:
        reasons.append(f"{part.other_products} are other products than the {part.category}")
    if not reasons:
        return f"none of the {part.candidates} candidates was a good enough match"
    return f"of {part.candidates} candidates, " + "; ".join(reasons)


def _blocked_reasons(search: ItemSearchResult) -> str:
    counts: dict[str, int] = {}
    for blocked in search.filtered_out:
        counts[blocked.reason] = counts.get(blocked.reason, 0) + 1
    words = {
        "brand": "are of a brand you ruled out",
        "exclude_term": "mention a term you ruled out",
        "rating": "are rated too low",
        "price": "are above your budget",
        "price_floor": "are below your price range",
    }
    parts = [f"{n} {words.get(reason, reason)}" for reason, n in counts.items()]
    total = search.blocked_total or len(search.filtered_out)
    first = search.filtered_out[0]
    return (
        f"{total} relevant items were left out by your constraints ("
        + "; ".join(parts)
        + f"), e.g. {first.title[:60]!r}: {first.detail}"
    )


def _searches(ctx: ToolContext) -> dict[str, ItemSearchResult]:
    """The latest item_search result of each slot."""
    stored = ctx.slot_results.get("item_search", {})
    found = {s: r for s, r in stored.items() if isinstance(r, ItemSearchResult)}
    last = ctx.last_results.get("item_search")
    if isinstance(last, ItemSearchResult):
        found.setdefault(last.slot, last)
    return found


def _picker_results(ctx: ToolContext) -> list[ItemPickerResult]:
    """item_picker results of the turn, oldest first (later ones win per slot)."""
    stored = ctx.slot_results.get("item_picker", {}).values()
    found = [r for r in stored if isinstance(r, ItemPickerResult)]
    last = ctx.last_results.get("item_picker")
    if isinstance(last, ItemPickerResult) and last not in found:
        found.append(last)
    return found
