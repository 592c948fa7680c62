"""Add-ons: accessory types that never name a product nor modify one ("screen protector",
"lens hood"). Icecat writes an add-on's type before its target ("HP screen protector Mobile
phone/Smartphone") and sometimes only in the description, so the title alone reads as the
target product itself; item_picker sinks such items like other accessories."""

from __future__ import annotations

import re

from app.catalog.product_nouns import (
    canonical,
    head_positions,
    is_accessory_noun,
    is_accessory_position,
    singular,
    tokens,
)
from app.language import lexicon

__all__ = ["ADD_ON_NOUNS", "PART_NOUNS", "describes_add_on", "names_only_as_add_on_target"]

ADD_ON_NOUNS = lexicon.word_set("add_on_nouns")
"""Words that end only an accessory's name ("tripod Digital/film cameras", "dock station
Tablet"); "skin" and "film" are left out ("Cruzer Micro Skin" is a flash drive, "film
scanner" a scanner)."""

PART_NOUNS = lexicon.word_set("add_on_part_nouns")
"""Parts named after the product they fit ("Laptop Memory Kit", "Notebook Memory Module"):
the product noun before them is their target."""

_FITTED = frozenset({"internal"})
"""Words after a product noun that make it what a part is fitted into ("Laptop Internal UK
Keyboard"), when an accessory noun follows."""

_BEFORE = 3
_AFTER = 3
_JOINERS = frozenset({"with", "and", "&", "+", "plus", "or"})
_CLAUSE_END = re.compile(r"[.,;:!?(\n]")
_HAS_DIGIT = re.compile(r"\d")
_LABEL_WORDS = 4


def names_only_as_add_on_target(title: str, word: str) -> bool:
    """Whether every mention of `word` in the title is what an accessory is for, counting an
    add-on's type up to three words before it ("screen protector Mobile phone/Smartphone",
    "Laptop Sleeve Netbook") or after it ("Tablet Digitizer Pen Tether", not across "with")
    a part right after it ("Laptop Memory Kit") and a part fitted into it ("Laptop Internal
    UK Keyboard", not "print server Internal Gray Ethernet")."""
    toks = tokens(title)
    positions = head_positions(toks, word)
    return bool(positions) and all(
        is_accessory_position(toks, i)
        or _after_add_on(toks, i)
        or _before_add_on(toks, i)
        or _before_part(toks, i)
        or _before_fitted_part(toks, i)
        for i in positions
    )


def describes_add_on(description: str, word: str) -> bool:
    """Whether the description opens with a short label naming an add-on and not `word`
    ("PRS-3SCREENPRO- Screen Protector, clear" for a title that says only "Smartphone")."""
    first = _CLAUSE_END.split(description.strip(), maxsplit=1)[0]
    label = [t for t in tokens(first) if not _HAS_DIGIT.search(t)]
    if not 1 <= len(label) <= _LABEL_WORDS or singular(label[-1]) not in ADD_ON_NOUNS:
        return False
    return all(canonical(t) != word for t in label)


def _after_add_on(toks: list[str], i: int) -> bool:
    return any(singular(t) in ADD_ON_NOUNS for t in toks[max(0, i - _BEFORE) : i])


def _before_add_on(toks: list[str], i: int) -> bool:
    for t in toks[i + 1 : i + 1 + _AFTER]:
        if t in _JOINERS:
            return False
        if singular(t) in ADD_ON_NOUNS:
            return True
    return False


def _before_part(toks: list[str], i: int) -> bool:
    return i + 1 < len(toks) and toks[i + 1] in PART_NOUNS


def _before_fitted_part(toks: list[str], i: int) -> bool:
    if i + 1 >= len(toks) or toks[i + 1] not in _FITTED:
        return False
    for t in toks[i + 2 : i + 2 + _AFTER]:
        if t in _JOINERS:
            return False
        if is_accessory_noun(t):
            return True
    return False
