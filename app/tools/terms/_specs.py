"""Normalised text for item_picker and the specs it states: numbers with units ("16 inch",
"1tb", '15.6"', "6 ft" beside "1.8 m") and named standards (usb-c, cat6), and whether a title's
specs serve an asked one (the same amount, a size class, more for a minimum, less for a
maximum, a newer standard)."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from app.catalog.short_names import to_short_names
from app.catalog.specs import Quantity, comparable, in_metres, quantities, same_part
from app.catalog.standards import canonical_standards, newer_than, standards_in
from app.language import lexicon

_DASHES = str.maketrans({"–": "-", "—": "-", "”": '"', "“": '"', "″": '"', "’": "'"})
_SPACES = re.compile(r"\s+")
_TOKEN = re.compile(r"[a-z0-9]+(?:\.[0-9]+)?")


_SPELLINGS = lexicon.word_map("picker_specs_spellings")
"""Spellings shoppers and titles both use (British and American, hyphenated and split,
clipped), to one form."""
_SPELLING = re.compile(r"\b(" + "|".join(_SPELLINGS) + r")\b")
_PACK_COUNT = re.compile(
    r"\bpack of (?P<after>\d+)\b|\b(?P<before>\d+)[\s-]?(?:"
    + lexicon.alternation("picker_specs_pack_count")
    + r")\b"
)
"""How many a pack holds, written after it or in pieces ("Pack of 3", "3PK", "3 pcs")."""
_GENDERS = re.compile(r"(?<![\w/])([mf])/([mf])(?![\w/])")
_GENDER = {"m": "male", "f": "female"}
"""Connector genders as catalogs abbreviate them ("HD15 M/F" is male to female)."""


def normalise(text: str | None) -> str:
    """Lower case, typographic dashes and quotes to ASCII, one space between words, one
    name per standard ("USB Type-C" -> usb-c, "Cat 6" -> cat6), short product names
    ("solid state drive" -> ssd), one spelling ("cancelling" -> canceling), pack counts
    before the word ("pack of 3", "3 pcs" -> 3 pack), connector genders in words ("m/f" ->
    male to female)."""
    if not text:
        return ""
    low = _SPACES.sub(" ", text.translate(_DASHES).lower()).strip()
    low = _SPELLING.sub(lambda m: _SPELLINGS[m.group(1)], low)
    low = _PACK_COUNT.sub(lambda m: f"{m.group('after') or m.group('before')} pack", low)
    low = _GENDERS.sub(lambda m: f"{_GENDER[m.group(1)]} to {_GENDER[m.group(2)]}", low)
    return to_short_names(canonical_standards(low))


@functools.lru_cache(maxsize=65_536)
def tokens(text: str | None) -> tuple[str, ...]:
    """Letter-and-digit tokens of the normalised text ("15.6" stays one token)."""
    return tuple(_TOKEN.findall(normalise(text)))


@dataclass(frozen=True, order=True)
class Spec:
    """A spec a title must state: a number with a canonical unit, or a named standard (its
    name as the unit, value 0); `text` is how the shopper wrote it; `at_least` when a larger
    amount serves too ("at least 24 inch"); `part` the part an amount of bytes sizes, when
    said (ram, ssd, hdd, video...: `same_part`)."""

    value: float
    unit: str
    text: str = ""
    at_least: bool = False
    part: str | None = field(default=None, compare=False)
    alternatives: tuple[Spec, ...] = field(default=(), compare=False)
    """The amounts any of which serves, for a spec asked as "1440p or 4k"."""
    at_most: bool = False
    """When a smaller amount serves too ("no bigger than 13 inch")."""
    below: bool = False
    """When only a smaller amount serves ("under 24 inches": no 24" monitor)."""
    above: bool = False
    """When only a larger amount serves ("over 50 inch": no 50" TV)."""
    range_from: float | None = field(default=None, compare=False)
    """In a title, the smaller end of a range it states ('for 32"-60" screens'), of which
    `value` is the larger: any amount within serves."""

    @property
    def wording(self) -> str:
        """The spec as the shopper asked it: "27 inch", "27 inch or more" for a minimum, "13
        inch or less" for a maximum."""
        if self.above:
            return f"more than {self.text}"
        if self.at_least:
            return f"{self.text} or more"
        if self.below:
            return f"less than {self.text}"
        return f"{self.text} or less" if self.at_most else self.text

    @property
    def key(self) -> tuple[float, str]:
        """What two specs must share to be the same: value and unit, terabytes counted as
        the 1000 gigabytes catalogs also write ("1tb" is "1000 GB")."""
        return comparable(self.value, self.unit)

    @property
    def measure(self) -> tuple[float, str]:
        """What two specs compare in: a length in metres whichever system wrote it ("6 ft"
        beside "1.8 m"), any other amount by its key."""
        metres = in_metres(self.value, self.unit)
        return self.key if metres is None else (metres, "m")


@functools.lru_cache(maxsize=65_536)
def find_specs(text: str | None) -> tuple[Spec, ...]:
    """Every spec in `text`: numbers with canonical units in order, then named standards
    (memoised: the gate's order and stage 4 read the same titles every turn)."""
    low = normalise(text)
    said = quantities(low)
    found = [
        Spec(
            q.value,
            q.unit,
            q.text,
            q.at_least,
            q.part,
            at_most=q.at_most,
            below=q.below,
            above=q.above,
        )
        for q in said
    ]
    found.extend(_ranges(low, said))
    found.extend(Spec(0.0, name, name) for name in standards_in(low))
    return tuple(found)


_RANGE_UNITS = lexicon.word_set("picker_specs_range_units")
"""Sizes and lengths, which titles state as ranges ("for 37 - 70 inch TVs")."""
_RANGE_START = re.compile(
    r"(?<![\w.-])(\d+(?:\.\d+)?)\s*(?:"
    + lexicon.alternation("picker_specs_range_start")
    + r")?\s*(?:-|to)\s*$"
)


def _ranges(low: str, said: Sequence[Quantity]) -> list[Spec]:
    """The ranges a text states ('32"-60"', "37 - 70 inch", "25 to 40-inch"): a size or
    length whose smaller end, unit or none, stands just before it; a number that ends a
    name ("usb-3.0 - 6 ft") or has decimals the larger end lacks begins none."""
    out = []
    for q in said:
        start, end = q.reach
        begun = _RANGE_START.search(low[max(0, start - 20) : start])
        if q.unit not in _RANGE_UNITS or begun is None:
            continue
        smaller = float(begun.group(1))
        decimals = "." in begun.group(1) and q.value != int(q.value)
        if q.value / 10 <= smaller < q.value and ("." not in begun.group(1) or decimals):
            text = low[start - len(begun.group(0)) : end].strip()
            out.append(Spec(q.value, q.unit, text, range_from=smaller))
    return out


AT_LEAST_UNITS = frozenset({"mah"})
"""Units where more serves the shopper too: a 26,800 mAh power bank holds the 20,000 asked."""

NOMINAL_UNITS = frozenset({"inch"})
"""Units whose whole number names a size class: a shopper's "15 inch" laptop or bag is the
15.6" one catalogs list, a "13 inch" the 13.3"."""


def spec_said(asked: Spec, title_specs: Sequence[Spec]) -> str | None:
    """How a title states an asked spec: the asked text when it says it; a size in the asked
    whole-number class ('15.6", a 15 inch size'); a length in the other system ("1.8 m,
    about 6 ft"); for an asked minimum or a unit where more also serves, the smallest larger
    amount it states ("26,800mah, more than 20000mah"), for a maximum the largest smaller
    one; for a standard, the nearest newer one of its line ("usb-3.2-gen2, newer than
    usb-3.0"); None when it does not. An amount said of another part serves no asked part
    ("32 GB eMMC" is no "32gb ram"). Of alternatives ("1440p or 4k"), the first the title
    states."""
    if asked.alternatives:
        return next(filter(None, (spec_said(a, title_specs) for a in asked.alternatives)), None)
    title_specs = _of_part(title_specs, asked)
    if asked.above:
        larger = _more_of(title_specs, asked)
        return (
            f"{min(larger, key=lambda s: s.measure).text}, more than {asked.text}"
            if larger
            else None
        )
    if asked.below:
        smaller = _less_of(title_specs, asked)
        return (
            f"{max(smaller, key=lambda s: s.measure).text}, less than {asked.text}"
            if smaller
            else None
        )
    if any(s.key == asked.key for s in title_specs):
        return asked.text
    converted = _converted_length(title_specs, asked)
    if converted is not None:
        return f"{converted.text}, about {asked.text}"
    if asked.unit in NOMINAL_UNITS and asked.value == int(asked.value):
        within = [s for s in title_specs if s.unit == asked.unit and int(s.value) == asked.value]
        if within:
            return f"{within[0].text}, a {asked.text} size"
    spanning = _spanning(title_specs, asked)
    if spanning is not None:
        return f"{spanning.text}, {asked.text} within it"
    if asked.at_least or asked.unit in AT_LEAST_UNITS:
        larger = _more_of(title_specs, asked)
        if larger:
            return f"{min(larger, key=lambda s: s.measure).text}, more than {asked.text}"
    if asked.at_most:
        smaller = _less_of(title_specs, asked)
        if smaller:
            return f"{max(smaller, key=lambda s: s.measure).text}, less than {asked.text}"
    ahead = [(n, s) for s in title_specs if (n := newer_than(s.unit, asked.unit)) is not None]
    if ahead:
        return f"{min(ahead)[1].text}, newer than {asked.text}"
    return None


def spec_stated(title_specs: Sequence[Spec], asked: Spec) -> bool:
    """Whether a title states the asked spec: the same amount or length, more for an asked
    minimum, less for a maximum; any of its alternatives."""
    if asked.alternatives:
        return any(spec_stated(title_specs, a) for a in asked.alternatives)
    title_specs = _of_part(title_specs, asked)
    if asked.above:
        return bool(_more_of(title_specs, asked))
    if asked.below:
        return bool(_less_of(title_specs, asked))
    if any(s.key == asked.key for s in title_specs):
        return True
    if _converted_length(title_specs, asked) is not None or _spanning(title_specs, asked):
        return True
    if asked.at_most:
        return bool(_less_of(title_specs, asked))
    return asked.at_least and bool(_more_of(title_specs, asked))


def spec_nearness(asked: Spec, title_specs: Sequence[Spec]) -> float:
    """How near a title that misses an asked bound comes to it, from 0 to below 1: for a
    minimum the share of it its largest smaller amount reaches (160 GB of "at least 1tb":
    0.16), for a maximum the asked amount over its smallest larger one; 0 for other specs."""
    if asked.alternatives:
        return max((spec_nearness(a, title_specs) for a in asked.alternatives), default=0.0)
    limit, unit = asked.measure
    amounts = [s.measure[0] for s in _of_part(title_specs, asked) if s.measure[1] == unit]
    if limit <= 0:
        return 0.0
    if asked.at_least or asked.above or asked.unit in AT_LEAST_UNITS:
        return max((a / limit for a in amounts if 0 < a < limit), default=0.0)
    if asked.at_most or asked.below:
        return max((limit / a for a in amounts if a > limit), default=0.0)
    return 0.0


def _spanning(title_specs: Sequence[Spec], asked: Spec) -> Spec | None:
    """The range of the title's that holds the asked amount ('32"-60"' holds "55 inch")."""
    return next(
        (
            s
            for s in title_specs
            if s.range_from is not None
            and s.unit == asked.unit
            and s.range_from <= asked.value <= s.value
        ),
        None,
    )


def _of_part(title_specs: Sequence[Spec], asked: Spec) -> Sequence[Spec]:
    """The title's specs that may size the asked one's part (`same_part`: "1 TB HDD" is no
    "1tb ssd", but serves "1tb storage"); when the title names that part's amount, an
    amount whose part goes unsaid is another part's ("4 GB DDR2-SDRAM 320 GB" has 4 GB of
    RAM, not 320)."""
    if asked.part is None:
        return title_specs
    sized = [s for s in title_specs if same_part(asked.part, s.part)]
    return [s for s in sized if s.part is not None] or sized


def _converted_length(title_specs: Sequence[Spec], asked: Spec) -> Spec | None:
    """The title's length, written in another unit, that converts to within
    `_CONVERTED_SLACK` of the asked one ("1.8 m" for "6 ft", "3 m" for "10 feet")."""
    length, unit = asked.measure
    if unit != "m" or length <= 0:
        return None
    near = [
        s
        for s in title_specs
        if s.unit != asked.unit
        and s.measure[1] == "m"
        and abs(s.measure[0] - length) <= _CONVERTED_SLACK * length
    ]
    return min(near, key=lambda s: abs(s.measure[0] - length), default=None)


_CONVERTED_SLACK = 0.1
"""How far a length converted between feet and metres may stray: catalogs round a 6 ft
cable to 1.8 m or 2 m, a 10 ft one to 3 m."""


def _more_of(title_specs: Sequence[Spec], asked: Spec) -> list[Spec]:
    """The title's amounts above the asked one in its measure ("1tb" is more than "512gb",
    "5 m" than "10 ft"); none when the title also states a smaller one, which may be the part
    asked about ("8 GB DDR4-SDRAM 256 GB SSD" has no 16gb or more of RAM)."""
    same = [s for s in title_specs if s.measure[1] == asked.measure[1]]
    if any(s.measure[0] < asked.measure[0] for s in same):
        return []
    return [s for s in same if s.measure[0] > asked.measure[0]]


def _less_of(title_specs: Sequence[Spec], asked: Spec) -> list[Spec]:
    """The title's amounts below an asked maximum in its measure, by size class for whole
    inches ('13.3"' is no more than "13 inch", '23.8"' under "24 inches"); none when the title
    also states a larger one, which may be the part asked about."""
    same = [s for s in title_specs if s.measure[1] == asked.measure[1]]
    nominal = asked.unit in NOMINAL_UNITS and asked.value == int(asked.value)

    def within(spec: Spec) -> bool:
        value, limit = (
            (int(spec.value), asked.value) if nominal else (spec.measure[0], asked.measure[0])
        )
        return value < limit or (value == limit and not asked.below)

    if not all(within(s) for s in same):
        return []
    return [s for s in same if within(s) and s.measure != asked.measure]
