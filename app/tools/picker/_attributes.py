"""Attribute values a request asks for, learned from the candidates' own attributes: a word
of the request that is a value some candidate states ("red" colour, "women" gender, "large"
size) must be the value of every pick that states that attribute. Items that do not state
it stay: unknown is not a mismatch."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from app.catalog.item import Item
from app.language import lexicon
from app.tools.picker._model import Entry

__all__ = ["asked_attributes", "fits_attributes"]

_ALSO_FITS = lexicon.word_sets("picker_also_fits")
"""English shopping language: a unisex product fits either gender, a kids' one either child."""
_MAX_VALUE_WORDS = 3


def asked_attributes(request: str, entries: Sequence[Entry]) -> dict[str, frozenset[str]]:
    """attribute name -> the values of it the request names as whole words ("men's" names
    men); a value several attributes share is left alone, as it says nothing sure."""
    low = request.lower()
    values: dict[str, set[str]] = {}
    for entry in entries:
        for name, value in entry.item.attributes.items():
            values.setdefault(name, set()).add(value.lower())
    owners: dict[str, set[str]] = {}
    for name, vals in values.items():
        for value in vals:
            owners.setdefault(value, set()).add(name)
    asked: dict[str, frozenset[str]] = {}
    for name, vals in values.items():
        named = {v for v in vals if len(owners[v]) == 1 and _names(low, v)}
        if named:
            asked[name] = frozenset(named)
    return asked


def fits_attributes(item: Item, asked: Mapping[str, frozenset[str]]) -> bool:
    """Whether every asked attribute the item states is one of the asked values."""
    for name, wanted in asked.items():
        stated = item.attributes.get(name)
        if stated is None:
            continue
        value = stated.lower()
        if value not in wanted and not any(value in _ALSO_FITS.get(w, ()) for w in wanted):
            return False
    return True


def _names(low: str, value: str) -> bool:
    words = value.split()
    if not words or len(words) > _MAX_VALUE_WORDS or not any(c.isalpha() for c in value):
        return False
    pattern = r"\b" + r"\s+".join(map(re.escape, words)) + r"(?:'?s)?\b"
    return re.search(pattern, low) is not None
