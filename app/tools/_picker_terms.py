"""Text machinery of item_picker: normalised terms, specs (numbers with units: "16 inch",
"1tb", '15.6"'; named standards: usb-c, cat6) split from words, and a whole-word matcher
that ignores a term the text negates ("gluten free", "no gluten", "without gluten")."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from app.catalog.item import Item
from app.catalog.product_nouns import other_names, singular
from app.catalog.short_names import to_short_names
from app.catalog.specs import comparable, quantities, same_part, without_quantities
from app.catalog.standards import (
    TIERS_OF_LINE,
    canonical_standards,
    newer_than,
    standards_in,
    without_standards,
)
from app.tools._text_rules import NUMBER_WORDS, SETUP_WORDS

Stated = Literal["title", "sheet"]
"""Where an item states a term: its title (with the brand) or its spec sheet."""

_DASHES = str.maketrans({"–": "-", "—": "-", "”": '"', "“": '"', "″": '"', "’": "'"})
_SPACES = re.compile(r"\s+")
_TOKEN = re.compile(r"[a-z0-9]+(?:\.[0-9]+)?")

_NEGATED_BEFORE = re.compile(r"(?:\bno|\bnon|\bwithout|\bzero|\bfree\s+(?:of|from))[\s-]*$")
_NEGATED_AFTER = re.compile(r"^[\s-]*free\b")


_SPELLINGS = {
    "cancelling": "canceling",
    "colour": "color",
    "grey": "gray",
    "wi-fi": "wifi",
    "wi fi": "wifi",
    "touch screen": "touchscreen",
    "mic": "microphone",
    "mics": "microphones",
}
"""Spellings shoppers and titles both use (British and American, hyphenated and split,
clipped), to one form."""
_SPELLING = re.compile(r"\b(" + "|".join(_SPELLINGS) + r")\b")
_PACK_COUNT = re.compile(
    r"\bpack of (?P<after>\d+)\b|\b(?P<before>\d+)[\s-]?(?:pk|pcs|pieces|packs)\b"
)
"""How many a pack holds, written after it or in pieces ("Pack of 3", "3PK", "3 pcs")."""


def normalise(text: str | None) -> str:
    """Lower case, typographic dashes and quotes to ASCII, one space between words, one
    name per standard ("USB Type-C" -> usb-c, "Cat 6" -> cat6), short product names
    ("solid state drive" -> ssd), one spelling ("cancelling" -> canceling), pack counts
    before the word ("pack of 3", "3 pcs" -> 3 pack)."""
    if not text:
        return ""
    low = _SPACES.sub(" ", text.translate(_DASHES).lower()).strip()
    low = _SPELLING.sub(lambda m: _SPELLINGS[m.group(1)], low)
    low = _PACK_COUNT.sub(lambda m: f"{m.group('after') or m.group('before')} pack", low)
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

    @property
    def wording(self) -> str:
        """The spec as the shopper asked it: "27 inch", or "27 inch or more" for a minimum."""
        return f"{self.text} or more" if self.at_least else self.text

    @property
    def key(self) -> tuple[float, str]:
        """What two specs must share to be the same: value and unit, terabytes counted as
        the 1000 gigabytes catalogs also write ("1tb" is "1000 GB")."""
        return comparable(self.value, self.unit)


@dataclass(frozen=True)
class Term:
    """A shopper's term: its normalised text, the words left once specs are split off, and
    the specs."""

    text: str
    words: tuple[str, ...]
    specs: tuple[Spec, ...]
    wording: str = field(default="", compare=False)
    """The shopper's words for it ("mic" where `text` says microphone), for reasons."""


@functools.lru_cache(maxsize=65_536)
def find_specs(text: str | None) -> tuple[Spec, ...]:
    """Every spec in `text`: numbers with canonical units in order, then named standards
    (memoised: the gate's order and stage 4 read the same titles every turn)."""
    low = normalise(text)
    found = [Spec(q.value, q.unit, q.text, q.at_least, q.part) for q in quantities(low)]
    found.extend(Spec(0.0, name, name) for name in standards_in(low))
    return tuple(found)


AT_LEAST_UNITS = frozenset({"mah"})
"""Units where more serves the shopper too: a 26,800 mAh power bank holds the 20,000 asked."""

NOMINAL_UNITS = frozenset({"inch"})
"""Units whose whole number names a size class: a shopper's "15 inch" laptop or bag is the
15.6" one catalogs list, a "13 inch" the 13.3"."""


def spec_said(asked: Spec, title_specs: Sequence[Spec]) -> str | None:
    """How a title states an asked spec: the asked text when it says it; a size in the asked
    whole-number class ('15.6", a 15 inch size'); for an asked minimum or a unit where more
    also serves, the smallest larger amount it states ("26,800mah, more than 20000mah"); for
    a standard, the nearest newer one of its line ("usb-3.2-gen2, newer than usb-3.0"); None
    when it does not. An amount said of another part serves no asked part ("32 GB eMMC" is
    no "32gb ram"). Of alternatives ("1440p or 4k"), the first the title states."""
    if asked.alternatives:
        return next(filter(None, (spec_said(a, title_specs) for a in asked.alternatives)), None)
    title_specs = _of_part(title_specs, asked)
    if any(s.key == asked.key for s in title_specs):
        return asked.text
    if asked.unit in NOMINAL_UNITS and asked.value == int(asked.value):
        within = [s for s in title_specs if s.unit == asked.unit and int(s.value) == asked.value]
        if within:
            return f"{within[0].text}, a {asked.text} size"
    if asked.at_least or asked.unit in AT_LEAST_UNITS:
        larger = _more_of(title_specs, asked)
        if larger:
            return f"{min(larger, key=lambda s: s.key).text}, more than {asked.text}"
    ahead = [(n, s) for s in title_specs if (n := newer_than(s.unit, asked.unit)) is not None]
    if ahead:
        return f"{min(ahead)[1].text}, newer than {asked.text}"
    return None


def _states(title_specs: Sequence[Spec], asked: Spec) -> bool:
    """Whether a title states the asked spec: the same amount, or more for an asked minimum;
    any of its alternatives."""
    if asked.alternatives:
        return any(_states(title_specs, a) for a in asked.alternatives)
    title_specs = _of_part(title_specs, asked)
    if any(s.key == asked.key for s in title_specs):
        return True
    return asked.at_least and bool(_more_of(title_specs, asked))


def _of_part(title_specs: Sequence[Spec], asked: Spec) -> Sequence[Spec]:
    """The title's specs that may size the asked one's part (`same_part`: "1 TB HDD" is no
    "1tb ssd", but serves "1tb storage")."""
    if asked.part is None:
        return title_specs
    return [s for s in title_specs if same_part(asked.part, s.part)]


def _more_of(title_specs: Sequence[Spec], asked: Spec) -> list[Spec]:
    """The title's amounts above the asked one in its unit ("1tb" is more than "512gb"); none
    when the title also states a smaller one, which may be the part asked about ("8 GB
    DDR4-SDRAM 256 GB SSD" has no 16gb or more of RAM)."""
    same = [s for s in title_specs if s.key[1] == asked.key[1]]
    if any(s.key[0] < asked.key[0] for s in same):
        return []
    return [s for s in same if s.key[0] > asked.key[0]]


_BUILT_IN = re.compile(r"^(?:built in|integrated|inbuilt) (?=\S)")
"""What a must-have part needs not say: a laptop's "built-in speakers" are its speakers."""


def make_term(text: str) -> Term | None:
    """`text` normalised, with its numeric specs split from its words ("built-in" dropped
    before a part, the "of" of "64gb of ram" with its amount, "support" beside a feature);
    None when blank."""
    clean = _BUILT_IN.sub("", normalise(text.replace("-", " ")))
    if not clean:
        return None
    specs = find_specs(clean)
    rest = without_standards(without_quantities(clean))
    words = tuple(w for w in tokens(rest) if w)
    if specs and words[:1] == ("of",):
        words = words[1:]
    if len(specs) > 1 and set(words) == {"or"} and len({s.key[1] for s in specs}) == 1:
        specs, words = (_either(specs),), ()
    words = tuple(w for w in words if w not in _SUPPORT_WORDS) or words
    return Term(clean, words, specs, " ".join(text.lower().split()))


def _either(specs: Sequence[Spec]) -> Spec:
    """One spec asked as alternatives of one measure ("1440p or 4k"), worded as asked."""
    first = specs[0]
    text = " or ".join(s.text for s in specs)
    return Spec(first.value, first.unit, text, first.at_least, first.part, tuple(specs))


_SUPPORT_WORDS = frozenset({"support", "supports", "supported", "supporting"})
"""Words beside a feature that titles leave out ("usb support", "support 4g lte", "lumbar
support"): a title says the feature alone ("USB", "4G LTE"); a term of them only keeps them."""


def make_terms(texts: tuple[str, ...] | list[str]) -> tuple[Term, ...]:
    """Distinct terms of `texts`, first occurrence kept, blanks dropped."""
    out: dict[str, Term] = {}
    for text in texts:
        term = make_term(text)
        if term is not None and term.text not in out:
            out[term.text] = term
    return tuple(out.values())


@functools.lru_cache(maxsize=4096)
def _word_pattern(phrase: str) -> re.Pattern[str]:
    words = r"[\s-]+".join(re.escape(w) for w in phrase.split())
    return re.compile(rf"(?<![0-9a-z]){words}(?![0-9a-z])")


def mentions(text: str | None, phrase: str) -> bool:
    """True when `phrase` occurs in `text` as whole words and at least once not negated
    ("gluten free", "gluten-free", "no gluten", "without gluten", "non-gluten", "free of
    gluten" do not mention gluten)."""
    return any(not negated for negated in _occurrences(text, phrase))


def negated_only(text: str | None, phrase: str) -> bool:
    """True when `phrase` occurs in `text` as whole words, but only in negated forms."""
    found = _occurrences(text, phrase)
    return bool(found) and all(found)


def _occurrences(text: str | None, phrase: str) -> list[bool]:
    """For each whole-word occurrence of `phrase` in `text`: whether it is negated."""
    low = normalise(text)
    phrase = normalise(phrase.replace("-", " "))
    if not low or not phrase:
        return []
    out = []
    for match in _word_pattern(phrase).finditer(low):
        before, after = low[: match.start()], low[match.end() :]
        out.append(bool(_NEGATED_BEFORE.search(before) or _NEGATED_AFTER.match(after)))
    return out


def has_words(text: str | None, words: tuple[str, ...]) -> bool:
    """True when every word occurs in `text` as a whole word, singular or plural, or as a
    word that implies it ("bluetooth" says wireless), not negated; a bare number counts the
    word after it and occurs only beside it, a unit between them allowed ("4 bays" in
    "4-Bay", "512 ssd" in "512 GB SSD", not in "2-bay 4 tb")."""
    low = normalise(text)
    return all(
        any(_counted_in(low, count, form) for form in _forms(word))
        if count
        else any(mentions(text, form) for form in _forms(word))
        for count, word in _counted(words)
    )


def _counted_in(low: str, count: str, word: str) -> bool:
    """Whether normalised `low` counts the word: "2 usb", "2-port usb", "2 x usb" or "dual
    usb"."""
    unit = r"(?:(?:[a-z]{1,3}|port)[\s-]+)?"
    counts = "|".join(re.escape(c) for c in (count, SETUP_WORDS.get(count)) if c)
    pattern = rf"(?<![0-9a-z.])(?:{counts})[\s-]*{unit}{re.escape(word)}(?![0-9a-z])"
    return re.search(pattern, low) is not None


_IMPLIED_BY = {
    "wireless": ("bluetooth", "cordless", "wifi", "wifi4", "wifi5", "wifi6", "wifi6e", "wifi7"),
    "laptop": ("so-dimm", "sodimm"),
    "scan": ("multifunction", "multifunctional", "mfp", "scanner"),
    "microphone": ("headset", "headsets"),
    **TIERS_OF_LINE,
}
"""Words a title says a word with beside its other names (a notebook is a laptop): a
Bluetooth speaker or a Wi-Fi camera is wireless, SO-DIMM is laptop memory, a
multifunction printer scans, a headset has a microphone, a Core i7 is an Intel Core."""


def _forms(word: str) -> set[str]:
    one = singular(word)
    names = (one, *other_names(one))
    return {word, *names, *(n + "s" for n in names), *_IMPLIED_BY.get(one, ())}


def _counted(words: tuple[str, ...]) -> list[tuple[str, str]]:
    """(count, word) pairs: a number (in digits or words) joins the word after it, and the
    ports of "two usb ports" go with the count; other words stand alone."""
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(words):
        count = NUMBER_WORDS.get(words[i], words[i])
        if count.isdigit() and i + 1 < len(words) and not words[i + 1].isdigit():
            out.append((count, words[i + 1]))
            i += 2
            if i < len(words) and singular(words[i]) == "port" and singular(out[-1][1]) != "port":
                i += 1
        else:
            out.append(("", words[i]))
            i += 1
    return out


def term_in(text: str | None, term: Term) -> bool:
    """True when the title says the term: all its specs (an asked minimum or more), and its
    words as a phrase or each one on its own (not negated)."""
    if not term.words and not term.specs:
        return False
    stated = find_specs(text) if term.specs else ()
    if not all(_states(stated, s) for s in term.specs):
        return False
    phrase = " ".join(term.words)
    return not phrase or mentions(text, phrase) or has_words(text, term.words)


def where_stated(item: Item, term: Term) -> Stated | None:
    """Where the item states the term: its title or brand first, else the features its spec
    sheet lists ("hdmi" on an HP monitor's sheet), else nowhere."""
    if term_in(f"{item.title} {item.brand or ''}", term):
        return "title"
    if term_in(", ".join(item.features), term):
        return "sheet"
    return None


def spec_where(item: Item, asked: Spec) -> Stated | None:
    """Where the item states an asked spec: its title first, else the features its spec
    sheet lists ("wifi6" on a router's sheet), else nowhere."""
    if spec_said(asked, find_specs(item.title)):
        return "title"
    if item.features and spec_said(asked, find_specs(", ".join(item.features))):
        return "sheet"
    return None


def jaccard(a: str, b: str) -> float:
    """Jaccard similarity of the two titles' token sets (0 when both are empty)."""
    sa, sb = set(tokens(a)), set(tokens(b))
    if not sa and not sb:
        return 0.0
    return len(sa & sb) / len(sa | sb)
