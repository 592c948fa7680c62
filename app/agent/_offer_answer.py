"""Answers about the last picks: a price question about one ("is the second one cheaper
elsewhere?"), its price where it was picked and its offers on the other platforms, from
price_compare; how much a count of each costs ("make it 2"); which fits best, how they
compare, which states the most RAM and which costs least ("which one is best?", "compare the
first two", "which one is the cheapest?");
whether they say a trait ("is it wireless?") or are in stock, by their listings' stock."""

from __future__ import annotations

from collections.abc import Sequence

from app.agent._relative_changes import part_noun, part_unit, stated_amounts
from app.agent.events import PickView
from app.catalog.currency import listed_price, usd
from app.catalog.item import Item
from app.language import lexicon
from app.tools.compare import ComparedItem, Offer, PriceCompareResult
from app.tools.terms import make_term, where_stated

_UNIT_SHOWN = {"gb": "GB", "mah": "mAh"}
"""How an answer writes a canonical unit ("16 GB"); others as they are ("27 inch")."""
_LISTED = 3
"""How many other offers the answer lists beside the cheapest."""
_STOCK_QUESTIONS = lexicon.word_set("follow_ups_stock")
"""Traits asked of a pick that its listing's stock answers ("in stock", "sold out")."""
_STOCK = {
    "in_stock": "in stock",
    "out_of_stock": "out of stock",
    "preorder": "available to pre-order",
    "unknown": "the shop does not say whether it is in stock",
}


def offers_answer(pick: PickView, result: PriceCompareResult) -> str:
    """The pick's price and platform, then the cheapest offer elsewhere when it saves money,
    and the other platforms that list it; or that no other platform does."""
    compared = next(
        (i for g in result.products for i in g.items if i.item_id == pick.item_id), None
    )
    price = _money(pick.price_usd)
    head = f"[{pick.item_id}] {pick.title} is {price} on {pick.platform}"
    if compared is None or not compared.offers:
        return f"{head}; no other platform I search lists it."
    cheaper = _cheapest(compared) if (compared.saving_usd or 0) > 0 else None
    lines = [f"{head}."]
    if cheaper is not None:
        lines.append(
            f"Cheaper on {cheaper.platform}: [{cheaper.item_id}] at "
            f"{_money(cheaper.price_usd)}, saves {_money(compared.saving_usd)}."
        )
    elif pick.price_usd is not None:
        lines.append("That is the lowest price I found for it.")
    others = [o for o in compared.offers if o is not cheaper][:_LISTED]
    if others:
        listed = ", ".join(f"{o.platform} [{o.item_id}] {_money(o.price_usd)}" for o in others)
        lines.append(f"Also listed on {listed}.")
    return "\n".join(lines)


def count_answer(picks: list[PickView], count: int) -> str:
    """What `count` of each last pick cost at its listed price, citing each; a pick without
    a price says so. Stock is not known, which the answer says."""
    lines = [f"What {count} of each of my picks cost:" if len(picks) > 1 else f"What {count} cost:"]
    for pick in picks:
        total = (
            f"{_money(pick.price_usd)} each, {_money(pick.price_usd * count)} for {count}"
            if pick.price_usd is not None
            else "without a listed price"
        )
        lines.append(f"- [{pick.item_id}] {pick.title} on {pick.platform}: {total}.")
    lines.append(f"I can't see stock: check that the shop has {count} before you order.")
    return "\n".join(lines)


def best_answer(picks: list[PickView]) -> str:
    """The first pick as the best fit (the picker ranks by the whole request), with its
    reasons (which state its price), then the cheapest other pick when it costs less."""
    first = picks[0]
    lines = [
        f"[{first.item_id}] {first.title} fits your request best ({first.platform}): "
        f"{first.reason}."
    ]
    cheaper = _cheaper_than(first, picks[1:])
    if cheaper is not None:
        lines.append(
            f"If price matters most, [{cheaper.item_id}] {cheaper.title} costs less "
            f"({cheaper.platform}): {cheaper.reason}."
        )
    return "\n".join(lines)


def compare_answer(picks: list[PickView]) -> str:
    """The picks side by side, in the order ranked: shop and reasons (price included) of
    each, then which costs least."""
    lines = ["Side by side, in the order I ranked them:"]
    lines += [f"- [{p.item_id}] {p.title} ({p.platform}): {p.reason}." for p in picks]
    priced = [p for p in picks if p.price_usd is not None]
    if len(priced) > 1:
        low = min(priced, key=lambda p: p.price_usd or 0.0)
        lines.append(f"[{low.item_id}] costs least.")
    return "\n".join(lines)


def most_answer(part: str, picks: Sequence[PickView]) -> str:
    """Which pick's title states the most of a part ("ram", "storage", "screen"), then each
    other pick's amount, citing each; a title that states none says so."""
    noun, unit = part_noun(part), part_unit(part)
    amounts = {p.item_id: max(stated_amounts(p.title, part), default=None) for p in picks}
    said = [a for a in amounts.values() if a is not None]
    if not said:
        return f"None of my picks' titles states its {noun}: check each maker's page."
    top, shown = max(said), _UNIT_SHOWN.get(unit, unit)
    most = "largest" if unit == "inch" else "most"  # "the largest screen", "the most ram"
    if len(said) == len(picks) > 1 and min(said) == top:
        return f"My picks all state the same {noun}: {top:g} {shown}."
    lines = [
        f"[{p.item_id}] {p.title} states the {most} {noun}: {top:g} {shown} ({p.platform})."
        for p in picks
        if amounts[p.item_id] == top
    ]
    for pick in picks:
        amount = amounts[pick.item_id]
        if amount != top:
            told = f"{amount:g} {shown}" if amount is not None else f"does not say its {noun}"
            lines.append(f"- [{pick.item_id}] {pick.title}: {told}.")
    return "\n".join(lines)


def price_rank_answer(picks: Sequence[PickView], *, cheapest: bool) -> str:
    """Which pick costs least (or most) as listed, then each other pick's price in that
    order, citing each; a pick without a price comes last and says so."""
    priced = sorted(
        (p for p in picks if p.price_usd is not None),
        key=lambda p: p.price_usd or 0.0,
        reverse=not cheapest,
    )
    if not priced:
        return "None of my picks lists a price: check each shop's page."
    first, most = priced[0], "least" if cheapest else "most"
    if len(priced) == len(picks) > 1 and {p.price_usd for p in priced} == {first.price_usd}:
        return f"My picks all cost the same: {_price(first)}."
    lines = [f"[{first.item_id}] {first.title} costs {most}: {_price(first)} ({first.platform})."]
    unpriced = [p for p in picks if p.price_usd is None]
    lines += [f"- [{p.item_id}] {p.title}: {_price(p)}." for p in (*priced[1:], *unpriced)]
    return "\n".join(lines)


def _price(pick: PickView) -> str:
    return listed_price(pick.price, pick.currency, pick.price_usd)


def trait_answer(trait: str, picks: Sequence[tuple[PickView, Item | None]]) -> str:
    """Whether each pick's listing says the trait: its title, its spec sheet, or neither, citing
    each; what a listing does not say it may still have, which the answer says. A question
    of stock is answered from the listing's stock."""
    if trait in _STOCK_QUESTIONS:
        return _stock_answer(picks)
    term = make_term(trait)
    said = {"title": f"says {trait}", "sheet": f"its spec sheet lists {trait}"}
    lines = []
    unsaid = False
    for pick, item in picks:
        where = where_stated(item, term) if item is not None and term is not None else None
        unsaid = unsaid or where is None
        told = said[where] if where is not None else f"does not say {trait}"
        lines.append(f"[{pick.item_id}] {pick.title}: {told}.")
    lines = _one_or_listed(lines, f"Whether my picks say {trait}:")
    if unsaid:
        lines.append("What a listing does not say it may still have: check the maker's page.")
    return "\n".join(lines)


def _stock_answer(picks: Sequence[tuple[PickView, Item | None]]) -> str:
    """Each pick's stock as its listing gives it, citing each."""
    lines = [
        f"[{pick.item_id}] {pick.title}: {_STOCK[item.availability if item else 'unknown']}."
        for pick, item in picks
    ]
    return "\n".join(_one_or_listed(lines, "Whether my picks are in stock:"))


def _one_or_listed(lines: list[str], heading: str) -> list[str]:
    """One pick's line as it is; several as a list under `heading`."""
    return [heading, *(f"- {line}" for line in lines)] if len(lines) > 1 else lines


def _cheaper_than(first: PickView, others: list[PickView]) -> PickView | None:
    if first.price_usd is None:
        return None
    cheaper = [p for p in others if p.price_usd is not None and p.price_usd < first.price_usd]
    return min(cheaper, key=lambda p: p.price_usd or 0.0, default=None)


def _cheapest(compared: ComparedItem) -> Offer | None:
    return next((o for o in compared.offers if o.item_id == compared.cheapest_offer_id), None)


def _money(amount: float | None) -> str:
    return "without a listed price" if amount is None else usd(amount)
