"""Changes a follow-up asks relative to the first pick shown ("cheaper", "bigger", "more
ram"), as typed plan fields with a note saying how each was read, and the amounts of a part
a pick's title states (answers about "the most ram" read them too)."""

from __future__ import annotations

import math
import re
from typing import Any

from app.agent.events import PickView
from app.catalog.currency import money, to_usd
from app.catalog.garment_sizes import stepped_size
from app.config.params.planner import PLANNER_SIZE_STEP
from app.language import lexicon
from app.tools.terms import find_specs

__all__ = [
    "BIGGER",
    "CHEAPER",
    "ELSEWHERE",
    "MORE_OF",
    "MOST_UNITS",
    "PRICIER",
    "SMALLER",
    "more_of_part",
    "part_noun",
    "part_unit",
    "relative_garment_size",
    "relative_price",
    "relative_size",
    "stated_amounts",
    "stated_gb",
]

CHEAPER = re.compile(r"\b(?:" + lexicon.alternation("follow_ups_cheaper") + r")\b")
PRICIER = re.compile(r"\b(?:" + lexicon.alternation("follow_ups_pricier") + r")\b")
ELSEWHERE = re.compile(r"\b(?:" + lexicon.alternation("follow_ups_elsewhere") + r")\b")
"""A price asked of another shop ("is it cheaper elsewhere?") is about the same item."""
BIGGER = re.compile(r"\b(?:bigger|larger)\b")
SMALLER = re.compile(r"\b(?:smaller|more\s+compact)\b")
"""A larger or smaller size asked of the first pick ("something bigger" after a 55" TV)."""
MORE_OF = re.compile(
    r"\bmore\s+(?P<part>" + lexicon.alternation("follow_ups_more_of") + r")\b", re.IGNORECASE
)
"""More memory or storage asked of the first pick ("something with more ram" after a 4 GB
notebook)."""
MOST_UNITS = {part: units[0] for part, units in lexicon.word_lists("follow_ups_most_units").items()}
"""Parts besides memory and storage a "which has the biggest" question may ask, to the unit
their amount is stated in ("screen": inch)."""
_PARTS_OF = lexicon.word_sets("follow_ups_parts_of")
_AMOUNT = re.compile(r"\d")


def relative_price(low: str, pick: PickView) -> tuple[dict[str, Any], str | None]:
    """The ceiling ("cheaper") or floor ("more expensive") a relative price means beside the
    first pick, in its shop's currency (a whole unit away from a whole price: INR 3,675 under
    INR 3,676), and a note saying so; none when an amount is stated, both are asked, another
    shop is asked about or the pick has no price."""
    cheaper, pricier = bool(CHEAPER.search(low)), bool(PRICIER.search(low))
    price = pick.price_usd
    if cheaper == pricier or _AMOUNT.search(low) or ELSEWHERE.search(low) or price is None:
        return {}, None
    sign = -1 if cheaper else 1
    amount = in_usd = round(price + sign * 0.01, 2)
    currency = "USD"
    listed = pick.price
    if listed and pick.currency is not None and pick.currency != "USD":
        unit = 1.0 if float(listed).is_integer() else 0.01
        amount, currency = listed + sign * unit, pick.currency
        in_usd = to_usd(amount, currency) or round(price * amount / listed, 2)
    said = money(amount, currency)
    if cheaper:
        change = {"budget_usd": in_usd, "budget_amount": round(amount, 2)}
        return change | {"currency": currency}, (
            f"read 'cheaper' as under {said}, below the last first pick"
        )
    return {"floor_usd": in_usd}, (
        f"read 'more expensive' as over {said}, above the last first pick"
    )


def relative_size(low: str, title: str) -> tuple[dict[str, Any], str | None]:
    """The size a "bigger" or "smaller" means beside the first pick's screen size (a whole
    inch and PLANNER_SIZE_STEP above or below it: the next size class), and a note saying
    so; none when an amount is stated, both are asked or the title has none."""
    inches = [s.value for s in find_specs(title) if s.unit == "inch"]
    bigger, smaller = bool(BIGGER.search(low)), bool(SMALLER.search(low))
    if bigger == smaller or _AMOUNT.search(low) or not inches or (smaller and min(inches) < 2):
        return {}, None
    step = 1.0 + PLANNER_SIZE_STEP.get()
    if bigger:
        top = max(inches)
        least = f"at least {max(int(top) + 1, math.ceil(top * step))} inch"
        return {"size": least}, f"read 'bigger' as {least}, above the last first pick"
    low_end = min(inches)
    most = f"at most {min(int(low_end) - 1, math.floor(low_end / step))} inch"
    return {"size": most}, f"read 'smaller' as {most}, below the last first pick"


def relative_garment_size(low: str, pick: PickView) -> tuple[dict[str, Any], str | None]:
    """The garment size a "bigger" or "smaller" means beside the first pick's (its size
    attribute, else a size its title ends with: "Classic Varsity Top - Large"): the next one
    up or down, as its word; none when the pick has no garment size or none is next."""
    bigger, smaller = bool(BIGGER.search(low)), bool(SMALLER.search(low))
    if bigger == smaller or _AMOUNT.search(low):
        return {}, None
    stated = pick.attributes.get("size") or pick.title.rsplit("-", 1)[-1]
    name = stepped_size(stated.strip().lower(), 1 if bigger else -1)
    if name is None:
        return {}, None
    said = "bigger" if bigger else "smaller"
    return {"size": name}, f"read '{said}' as size {name}, next to the last first pick's"


def more_of_part(low: str, title: str) -> tuple[dict[str, Any], str | None]:
    """ "More ram" (memory, storage, space) as more than the first pick's amount of that part
    ("over 4gb ram"), in place of the words read for it, and a note saying so; none when
    an amount is stated or the title states none."""
    asked = MORE_OF.search(low)
    if asked is None or _AMOUNT.search(low):
        return {}, None
    word = asked.group("part").lower()
    sizes = stated_gb(title, word)
    if not sizes:
        return {}, None
    unit = part_noun(word)
    note = f"read 'more {word}' as more than {max(sizes):g}gb {unit}, above the last first pick"
    term = f"over {max(sizes):g}gb {unit}"
    return {"part": term, "vague": ("more", word)}, note


def part_noun(part: str) -> str:
    """The part as an answer names it ("space" is storage)."""
    return "storage" if part == "space" else part


def part_unit(part: str) -> str:
    """The unit a part's amount is stated in ("screen": inch; memory and storage: gb)."""
    return MOST_UNITS.get(part, "gb")


def stated_amounts(title: str, part: str) -> list[float]:
    """The amounts of a part a title states, in `part_unit(part)` (27.0 of '68.6 cm (27")'
    for "screen"; 16.0 of "16 GB DDR4-SDRAM" for "ram")."""
    unit = MOST_UNITS.get(part)
    if unit is None:
        return stated_gb(title, part)
    return [value for value, said in (s.key for s in find_specs(title)) if said == unit]


def stated_gb(title: str, part: str) -> list[float]:
    """The amounts in GB a title states of a part as shoppers name it ("ram": "16 GB
    DDR4-SDRAM"; "storage": SSD, HDD, eMMC or flash)."""
    parts = _PARTS_OF.get(part, _PARTS_OF["storage"])
    sized = ((s.key, s.part) for s in find_specs(title))  # "1 TB" is 1000 GB
    return [value for (value, unit), part_of in sized if unit == "gb" and part_of in parts]
