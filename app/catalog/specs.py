"""Numbers with units as shoppers and catalogs write them ("16gb", "15.6 inch", '15.6"', "1 TB",
"20,100mAh"): one reading shared by the picker's spec matching and the lexical index, whose
tokenizer would otherwise split "1 TB" into a dropped "1" and "tb"."""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass

from app.language import lexicon

__all__ = [
    "BYTE_UNITS",
    "SPEC",
    "UNITS",
    "Quantity",
    "as_spec_words",
    "comparable",
    "in_metres",
    "joined_by_or",
    "quantities",
    "same_part",
    "spec_word",
    "spec_words_fingerprint",
    "with_spec_words",
    "with_unit_shorthands_spelled",
    "without_quantities",
]

from app.language.lexicon import units

_UNIT_ALIASES = units()
UNITS = {alias: unit for unit, aliases in _UNIT_ALIASES.items() for alias in aliases}
"""Every written unit to its canonical unit ("inches" -> inch, '"' -> inch, "lbs" -> lb)."""
_UNIT_ALTERNATION = "|".join(
    re.escape(u) for u in sorted(UNITS, key=len, reverse=True) if u not in ('"', "''")
)
_GB_SHORTHAND = r"g(?=\s+(?:of\s+)?(?:" + lexicon.alternation("specs_gb_shorthand") + r")\b)"
"""'G' for gigabytes, read only before the part it sizes ("16g of ram", "240g ssd"); elsewhere
it is grams or a network generation ("4g lte")."""
_TB_SHORTHAND = r"t(?=\s+(?:" + lexicon.alternation("specs_tb_shorthand") + r")\b)"
"""'T' for terabytes, read only before the drive it sizes ("1t ssd")."""
SPEC = re.compile(
    r"(?<![a-z0-9.])(?<!\d,)(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*(?:-\s*)?"
    rf"(?:(?:{_UNIT_ALTERNATION})(?![a-z0-9])|{_GB_SHORTHAND}|{_TB_SHORTHAND}|\"|'')",
    re.IGNORECASE,
)
"""A number and its unit: "16gb", "15.6 inch", "15.6-inch", '15.6"', "4k", "1080p",
"20,100mah" (thousands separated by commas), "16g ram", "1t ssd"."""
_SHORTHANDS = {"g": "gb", "t": "tb"}
_COUNTED_UNITS = lexicon.word_set("specs_counted_units")
_NAME_NUMBER = re.compile(r"(?:[a-z]-|gen\s?)$")
"""A number that ends a name or a generation ("rj-45", "usb-c gen 2"): before a counted
unit it counts nothing."""
_PORT_KINDS = "|".join(map(re.escape, sorted(lexicon.words("specs_port_kinds"), key=len)[::-1]))
_PORTS = "|".join(sorted((re.escape(w) for w, u in UNITS.items() if u == "port"), key=len)[::-1])
_KIND_COUNT = re.compile(
    rf"(?<![a-z0-9.-])(\d{{1,2}})\s*(?:x\s*)?"
    rf"(?P<kind>(?:{_PORT_KINDS})(?:[\s-]+(?:{_PORT_KINDS}))?)"
    rf"(?P<kind_end>(?:[\s-]+(?:\d(?:\.\d)?|gen\s*\d|type-?[ac]))*)\s+(?:{_PORTS})(?![a-z0-9])"
)
"""A count of ports of a kind, the kind (and its version) between ("4 usb ports", "4 x USB
3.0 ports", "8 gigabit ethernet ports"): `part` holds the kind as written ("usb 3.0"), which
a lexical query keeps beside the count's one word."""
_INCH_MARKS = frozenset(w for w, unit in UNITS.items() if unit == "inch" and not w.isalpha())
"""The marks written for inches ('"', "''"), spelled as the word in a request."""
_AT_MOST_BEFORE = re.compile(r"\b(?:" + lexicon.alternation("specs_at_most_before") + r")\s+$")
_AT_MOST_AFTER = re.compile(
    r"\s+or\s+(?:"
    + lexicon.alternation("specs_at_most_after")
    + r")\b|\s+and\s+(?:under|below|less|smaller)\b"
)
"""A shopper's maximum written around a quantity: "at most 14 inch", "no bigger than 13
inch", "not over 50 inch", "6 ft or shorter"; "under 24 inches" or "less than 2 m" asks for
less than the amount itself."""
_AT_LEAST_BEFORE = re.compile(
    r"(?<!\bno\s)(?<!\bnot\s)\b(?:" + lexicon.alternation("specs_at_least_before") + r")\s+$"
)
_AT_LEAST_AFTER = re.compile(lexicon.alternation("specs_at_least_after"))
"""A shopper's minimum written around a quantity: "at least 24 inch", "16gb or more",
"20000mah+" ("no more than 24 inch" is no minimum); "over 50 inch" or "more than 16gb" asks
for more than the amount itself."""
_VIDEO_LINES = (480.0, 720.0, 1080.0, 1440.0, 2160.0)
_PIXELS = re.compile(r"(?<![\d.])\d{3,4}\s*[x×]\s*(\d{3,4})(?![\d.])")
"""A screen's size in pixels ("2560 x 1440"): it states the video line of its height (1440p)."""
_EQUIVALENT = {"tb": ("gb", 1000.0), "k": ("p", 540.0)}
"""Units written in another canonical unit, as catalogs also write them: "1 TB" is "1000 GB",
"4K" is 2160p ("3840 x 2160")."""


@dataclass(frozen=True)
class Quantity:
    """A number with its canonical unit, as written at `start`:`end` of the text; `at_least`
    when the text asks for that much or more, `at_most` for that much or less; `reach`: its
    span with any such cue."""

    value: float
    unit: str
    text: str
    start: int
    end: int
    at_least: bool
    reach: tuple[int, int]
    part: str | None = None
    """The part of a product the amount sizes, when words after it say ("16 GB DDR4" ->
    ram, "512 GB SSD" -> ssd, "8 GB GDDR6" -> video): the same 32 GB is not both."""
    named_first: bool = False
    """When the word before the amount names its part ("ram 2gb")."""
    at_most: bool = False
    below: bool = False
    """When the text asks for less than the amount itself ("under 24 inches"): a maximum."""
    above: bool = False
    """When the text asks for more than the amount itself ("over 50 inch"): a minimum."""


def _written_unit(match: re.Match[str]) -> str:
    """The unit of a `SPEC` match as written ("gb", "g", '"')."""
    return match.group(0)[len(match.group(1)) :].strip(" -")


_OR = re.compile(r"\s+or\s+")


def joined_by_or(low: str, first: Quantity, second: Quantity) -> bool:
    """Whether `second` follows `first` after an "or" alone and both are amounts of one
    measure ("1440p or 4k", "8gb or 16gb"): alternatives, either of which serves."""
    if _OR.fullmatch(low, first.end, second.start) is None:
        return False
    return comparable(first.value, first.unit)[1] == comparable(second.value, second.unit)[1]


def quantities(low: str) -> list[Quantity]:
    """Every number with a known unit in lower-case `low`, in order ("p" only for video lines,
    also read off a pixel size; ports and cores only counted in whole numbers)."""
    found: list[Quantity] = []
    for match in SPEC.finditer(low):
        raw_unit = _written_unit(match)
        unit = _SHORTHANDS.get(raw_unit.lower()) or UNITS.get(raw_unit)
        if unit is None:
            continue
        value = float(match.group(1).replace(",", ""))
        if unit == "p" and value not in _VIDEO_LINES:
            continue
        start, end = match.start(), match.end()
        if unit in _COUNTED_UNITS and (
            "." in match.group(1) or _NAME_NUMBER.search(low, max(0, start - 4), start)
        ):
            continue
        found.append(_bounded(low, value, unit, match.group(0).strip(), start, end))
    taken = [(q.start, q.end) for q in found]
    for match in _KIND_COUNT.finditer(low):
        start, end = match.span()
        if not any(a < end and start < b for a, b in taken):
            kind = " ".join(low[match.start("kind") : match.end("kind_end")].split())
            count = float(match.group(1))
            found.append(_bounded(low, count, "port", match.group(0), start, end, part=kind))
    for match in _PIXELS.finditer(low):
        height = float(match.group(1))
        if height in _VIDEO_LINES:
            span = match.span()
            found.append(Quantity(height, "p", match.group(0), *span, False, span))
    found.sort(key=lambda q: q.start)
    return _with_parts(low, found)


def _bounded(
    low: str, value: float, unit: str, text: str, start: int, end: int, part: str | None = None
) -> Quantity:
    """The quantity written at `start`:`end`, with the minimum or maximum its cues ask."""
    before = _AT_LEAST_BEFORE.search(low, max(0, start - 24), start)
    after = _AT_LEAST_AFTER.match(low, end)
    at_least = before is not None or after is not None
    if not at_least:
        before = _AT_MOST_BEFORE.search(low, max(0, start - 24), start)
        after = _AT_MOST_AFTER.match(low, end)
    at_most = not at_least and (before is not None or after is not None)
    strict = before is not None and before.group("above" if at_least else "below") is not None
    reach = (before.start() if before else start, after.end() if after else end)
    return Quantity(
        value,
        unit,
        text,
        start,
        end,
        at_least,
        reach,
        part=part,
        at_most=at_most,
        below=at_most and strict,
        above=at_least and strict,
    )


def _with_parts(low: str, found: list[Quantity]) -> list[Quantity]:
    """The amounts of bytes with the part each sizes: the words after it ("16gb ram"), or a
    part named just before it that no earlier amount took ("ram 2gb rom 16gb": 2 GB of RAM,
    where "16gb ram 512gb" leaves "ram" to the 16gb)."""
    stops = [q.start for q in found[1:]] + [len(low)]
    sized, took_after = [], False
    for q, stop in zip(found, stops, strict=False):
        if q.unit not in BYTE_UNITS:
            sized.append(q)
            continue
        before = None if took_after else _part_before(low, q.start)
        part = before or _part_after(low, q.end, stop)
        took_after = before is None and part is not None
        sized.append(dataclasses.replace(q, part=part, named_first=before is not None))
    return sized


_PART_FAMILIES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (row["part"], re.compile(row["pattern"])) for row in lexicon.table("specs_byte_parts")
)
"""The parts an amount of bytes may size, each by the words that name it after the amount;
"storage" (or a tablet's "rom") names any of the kinds of storage, and "memory" RAM or
storage (a card's, a phone's)."""
_STORAGE_KINDS = lexicon.word_set("specs_storage_kinds")
_MEMORY_PARTS = _STORAGE_KINDS | lexicon.word_set("specs_memory_parts")
"""What an amount of "memory" may size: RAM or any storage."""
_PART_WORD = re.compile(r"[a-z0-9.+]+|[,;/|(]")
BYTE_UNITS = lexicon.word_set("specs_byte_units")
"""The canonical units of an amount of bytes, as memory and storage are sized."""
_PART_REACH = 3
"""How many words after an amount may name its part ("8 GB DDR4-SDRAM", "512 GB PCIe NVMe
SSD"), up to the next amount or a comma."""
_CARD_AFTER = re.compile(r"\s*[- ]?(?:card|stick)\b")


def _part_after(low: str, start: int, stop: int) -> str | None:
    """The part the words after an amount of bytes name, within `_PART_REACH` words."""
    position = start
    for _ in range(_PART_REACH):
        match = _PART_WORD.search(low, position, stop)
        if match is None or match.group(0) in ",;/|(":
            return None
        word, position = match.group(0).strip("."), match.end()
        family = _family_of(word)
        if family is not None:
            memory_card = word == "memory" and _CARD_AFTER.match(low, position, stop)
            return "card" if memory_card else family
    return None


def _family_of(word: str) -> str | None:
    """The part family a word names ("ddr4" -> ram, "nvme" -> ssd), if any."""
    return next((family for family, pattern in _PART_FAMILIES if pattern.fullmatch(word)), None)


_PART_BEFORE = re.compile(r"(?<![a-z0-9.+])([a-z0-9.+]+)\s*:?\s*$")


def _part_before(low: str, start: int) -> str | None:
    """The part the one word right before an amount names ("ram 2gb", "storage: 64gb")."""
    match = _PART_BEFORE.search(low, max(0, start - 16), start)
    if match is None:
        return None
    return _family_of(match.group(1).strip("."))


def same_part(asked: str | None, stated: str | None) -> bool:
    """Whether an amount said of the `stated` part may serve one asked of the `asked` part:
    the same part, a part unsaid on either side, storage of any kind, or memory of RAM or
    storage."""
    if asked is None or stated is None or asked == stated:
        return True
    pair = {asked, stated}
    if "memory" in pair:
        return pair <= _MEMORY_PARTS
    return pair <= _STORAGE_KINDS | {"storage"} and "storage" in pair


def with_unit_shorthands_spelled(text: str) -> str:
    """`text` with each byte amount written by its shorthand letter spelt in its unit ("16g
    ram" -> "16gb ram", "1t ssd" -> "1tb ssd"), so the amount reads alike once its part
    is split off, and each inch mark as the word ('a 65" tv' -> "a 65 inch tv")."""
    out, last = [], 0
    for match in SPEC.finditer(text):
        written = _written_unit(match)
        unit = _SHORTHANDS.get(written.lower())
        if unit is not None:
            out.append(text[last : match.end()] + unit[1:])
            last = match.end()
        elif written in _INCH_MARKS:
            out.append(f"{text[last : match.start()]}{match.group(1)} inch")
            last = match.end()
    out.append(text[last:])
    return "".join(out)


def without_quantities(low: str) -> str:
    """Lower-case `low` with every quantity, and the cue of an asked minimum or maximum,
    blanked out by as many spaces, so offsets stay put: the words a term keeps beside its
    specs ("at least 16gb ram" -> "ram")."""
    out = list(low)
    for quantity in quantities(low):
        start, end = quantity.reach
        out[start:end] = " " * (end - start)
    return "".join(out)


def comparable(value: float, unit: str) -> tuple[float, str]:
    """An amount in the unit catalogs also write it in, rounded for comparing ("1 tb" ->
    (1000.0, "gb")): two quantities are the same when these are equal."""
    to_unit, factor = _EQUIVALENT.get(unit, (unit, 1.0))
    return round(value * factor, 3), to_unit


_METRES = {row["unit"]: float(row["metres"]) for row in lexicon.table("specs_length_metres")}
"""Lengths shoppers and catalogs write in either system: a "6 ft" cable is listed as "1.8 m"."""


def in_metres(value: float, unit: str) -> float | None:
    """A length in metres, for comparing lengths written in feet, metres or centimetres; None
    for other units (inches name screen size classes, millimetres jacks and lenses)."""
    factor = _METRES.get(unit)
    return None if factor is None else round(value * factor, 4)


def spec_word(quantity: Quantity) -> str | None:
    """The one-word form of a whole-number quantity in its canonical unit ("1 TB" -> 1000gb,
    "64 GB" -> 64gb); None for fractions, which a lexical tokenizer splits at the point."""
    value, unit = comparable(quantity.value, quantity.unit)
    return f"{int(value)}{unit}" if value >= 1 and value == int(value) else None


def with_spec_words(low: str) -> str:
    """Lower-case `low` with each quantity's one-word form added after it where the text does
    not already spell it; every word stays (for lexical documents)."""

    def add(quantity: Quantity) -> str:
        word = spec_word(quantity)
        return quantity.text if word in (None, quantity.text) else f"{quantity.text} {word}"

    return _rewrite(low, add)


def as_spec_words(low: str) -> str:
    """Lower-case `low` with each whole-number quantity replaced by its one-word form (for
    lexical queries: "ssd 1 tb" -> "ssd 1000gb")."""

    def one_word(quantity: Quantity) -> str:
        word = spec_word(quantity) or quantity.text
        return f"{quantity.part} {word}" if quantity.unit == "port" and quantity.part else word

    return _rewrite(low, one_word)


def spec_words_fingerprint() -> str:
    """A short hash of the units and equivalences, for index versions built with them."""
    table = SPEC.pattern + _PIXELS.pattern + repr(sorted(UNITS.items()))
    table += repr(sorted(_COUNTED_UNITS)) + _NAME_NUMBER.pattern + _KIND_COUNT.pattern
    table += repr(sorted(_EQUIVALENT.items()))
    return hashlib.sha256(table.encode()).hexdigest()[:8]


def _rewrite(low: str, replace: Callable[[Quantity], str]) -> str:
    out, last = [], 0
    for quantity in quantities(low):
        out.append(low[last : quantity.start])
        out.append(low[quantity.start : quantity.end].replace(quantity.text, replace(quantity)))
        last = quantity.end
    out.append(low[last:])
    return "".join(out)
