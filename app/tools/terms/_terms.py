"""Shoppers' terms for item_picker: the words of a term with its specs split off ("16gb ram",
"1440p or 4k"), whether a title or spec sheet states it, and a whole-word matcher that
ignores a term the text negates ("gluten free", "no gluten", "without gluten")."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from app.catalog.item import Item
from app.catalog.product_nouns import other_names, singular
from app.catalog.specs import joined_by_or, quantities, without_quantities
from app.catalog.standards import (
    TIERS_OF_LINE,
    without_standards,
)
from app.language import lexicon
from app.tools.plan import NUMBER_WORDS, SETUP_WORDS
from app.tools.terms._specs import Spec, find_specs, normalise, spec_said, spec_stated, tokens

Stated = Literal["title", "sheet"]
"""Where an item states a term: its title (with the brand) or its spec sheet."""

_NEGATED_BEFORE = re.compile(r"(?:\bno|\bnon|\bwithout|\bzero|\bfree\s+(?:of|from))[\s-]*$")
_NEGATED_AFTER = re.compile(r"^[\s-]*free\b")


@dataclass(frozen=True)
class Term:
    """A shopper's term: its normalised text, the words left once specs are split off, and
    the specs."""

    text: str
    words: tuple[str, ...]
    specs: tuple[Spec, ...]
    wording: str = field(default="", compare=False)
    """The shopper's words for it ("mic" where `text` says microphone), for reasons."""
    either: tuple[str, ...] = ()
    """Words any one of which states the term, for a term titles name by its makers'
    lines ("graphics card": GeForce, Radeon, RTX...)."""


_DISCRETE_GPU = frozenset(
    f"{kind} {part}".strip()
    for kind in ("", *lexicon.words("terms_gpu_kinds"))
    for part in lexicon.words("terms_gpu_parts")
) | {"dedicated graphics", "discrete graphics"}
_GPU_LINES = lexicon.words("picker_terms_gpu_lines")
"""A computer's graphics card as titles name one: by the maker's line, where "Intel UHD
Graphics" is none."""


_BUILT_IN = re.compile(
    r"^(?:"
    + lexicon.alternation("picker_terms_built_in")
    + r") (?=\S)|(?<=\S) (?:built in|inbuilt)$"
)
"""What a must-have part needs not say: a laptop's "built-in speakers" are its speakers, a
clock radio's "bluetooth built-in" its Bluetooth."""


def make_term(text: str) -> Term | None:
    """`text` normalised, with its numeric specs split from its words ("built-in" dropped
    before a part, the "of" of "64gb of ram" with its amount, "support" beside a feature);
    None when blank."""
    clean = _BUILT_IN.sub("", normalise(text.replace("-", " ")))
    if not clean:
        return None
    if clean in _DISCRETE_GPU:
        return Term(clean, (), (), " ".join(text.lower().split()), either=_GPU_LINES)
    specs = find_specs(clean)
    rest = without_standards(without_quantities(clean))
    words = tuple(w for w in tokens(rest) if w)
    if len(specs) > 1 and "or" in words and _alternatives(clean):
        specs, words = (_either(specs),), tuple(w for w in words if w != "or")
    if specs and words[:1] == ("of",):
        words = words[1:]
    words = tuple(w for w in words if w not in _SUPPORT_WORDS) or words
    return Term(clean, words, specs, " ".join(text.lower().split()))


def _alternatives(clean: str) -> bool:
    """Whether the text's amounts are written one after another joined by "or", all of one
    measure ("1440p or 4k", "8gb or 16gb ram")."""
    found = quantities(clean)
    return bool(found) and all(joined_by_or(clean, a, b) for a, b in itertools.pairwise(found))


def _either(specs: Sequence[Spec]) -> Spec:
    """One spec asked as alternatives of one measure ("1440p or 4k"), worded as asked; the
    part the last one names sizes each ("8gb or 16gb ram": 8 GB of RAM too)."""
    part = specs[-1].part
    specs = [s if s.part is not None else dataclasses.replace(s, part=part) for s in specs]
    first = specs[0]
    text = " or ".join(s.text for s in specs)
    either = Spec(first.value, first.unit, text, first.at_least, first.part, tuple(specs))
    return dataclasses.replace(either, at_most=first.at_most, below=first.below, above=first.above)


_SUPPORT_WORDS = lexicon.word_set("picker_terms_support_words")
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
    """Whole words; a number is no part of a decimal ("11" is not in "11.9 cm"; "3" is in
    "3.0")."""
    words = r"[\s-]+".join(re.escape(w) for w in phrase.split())
    before = r"(?<![0-9][.,])" if phrase[:1].isdigit() else ""
    after = r"(?![.,]0*[1-9])" if phrase[-1:].isdigit() else ""
    return re.compile(rf"(?<![0-9a-z]){before}{words}(?![0-9a-z]){after}")


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


_IMPLIED_BY: dict[str, Iterable[str]] = {**lexicon.word_sets("terms_implied_by"), **TIERS_OF_LINE}
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
    if term.either:
        return any(has_words(text, (word,)) for word in term.either)
    if not term.words and not term.specs:
        return False
    stated = find_specs(text) if term.specs else ()
    if not all(spec_stated(stated, s) for s in term.specs):
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
