"""Attribute values a request asks for, learned from the candidates' own attributes: a word
of the request that is a value some candidate states ("red" colour, "women" gender, "large"
size) must be the value of every pick that states that attribute. Items that do not state
it stay: unknown is not a mismatch. A list attribute (Shopify's tags: "Pot, Plants") is a
bag of facets, not one value: only a rival of the asked value in it (another audience or
colour) rules an item out."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from app.catalog.garment_sizes import is_size_code, names_of_size
from app.catalog.item import Item
from app.catalog.product_nouns import singular
from app.language import lexicon
from app.tools.picker._model import AskedValues, Entry

__all__ = ["asked_attributes", "fits_attributes"]

_ALSO_FITS = lexicon.word_sets("picker_also_fits")
"""English shopping language: a unisex product fits either gender, a kids' one either child."""
_RIVAL_GROUPS = (
    frozenset({*_ALSO_FITS, *(w for words in _ALSO_FITS.values() for w in words)}),
    lexicon.word_set("lexicon_colour_names"),
)
"""Facets of which an item is one at a time: its audience, its colour."""
_MAX_VALUE_WORDS = 3
_LIST_SEPARATOR = re.compile(r"\s*[,;|]\s*")


def asked_attributes(request: str, entries: Sequence[Entry]) -> dict[str, AskedValues]:
    """attribute name -> the values of it the request names as whole words ("men's" names
    men); a value several attributes share is left alone, as it says nothing sure."""
    low = request.lower()
    values: dict[str, set[str]] = {}
    lists: set[str] = set()
    for entry in entries:
        for name, value in entry.item.attributes.items():
            parts = _parts(value)
            values.setdefault(name, set()).update(parts)
            lists |= {name} if len(parts) > 1 else set()
    owners: dict[str, set[str]] = {}
    for name, vals in values.items():
        for value in vals:
            owners.setdefault(value, set()).add(name)
    asked: dict[str, AskedValues] = {}
    for name, vals in values.items():
        named = frozenset(v for v in vals if len(owners[v]) == 1 and _names(low, v))
        if named and name in lists:
            rivals = frozenset(r for g in _RIVAL_GROUPS if named & g for r in g) - named
            asked |= {name: AskedValues(named, rivals)} if rivals else {}
        elif named:
            asked[name] = AskedValues(named)
    return asked


def fits_attributes(item: Item, asked: Mapping[str, AskedValues]) -> bool:
    """Whether every asked attribute the item states is one of the asked values (for a list
    attribute: holds one of them, or no rival of them)."""
    for name, values in asked.items():
        stated = item.attributes.get(name)
        if stated is None:
            continue
        parts = _parts(stated)
        if any(p in values.wanted or _also_fits(p, values.wanted) for p in parts):
            continue
        if values.rivals is None or parts & values.rivals:
            return False
    return True


def _also_fits(value: str, wanted: frozenset[str]) -> bool:
    return any(value in _ALSO_FITS.get(w, ()) for w in wanted)


def _parts(value: str) -> set[str]:
    """An attribute's values, lower-cased: one, or the items of a list ("Pot, Plants")."""
    return {p for p in _LIST_SEPARATOR.split(value.lower().strip()) if p}


def _names(low: str, value: str) -> bool:
    """Whether the request says the value or another name of its size ("size l" names
    Large), its last word singular too ("a 5 year old girl" names Girls, "a watch for a
    man" Men); never as the letter after an apostrophe ("men's" names no size S)."""
    names = names_of_size(value) or (value,)
    return any(_says(low, name, sized=is_size_code(name)) for name in names)


def _says(low: str, value: str, *, sized: bool) -> bool:
    words = value.split()
    if not words or len(words) > _MAX_VALUE_WORDS or not any(c.isalpha() for c in value):
        return False
    last = "|".join(map(re.escape, dict.fromkeys((words[-1], singular(words[-1])))))
    said = r"".join(re.escape(w) + r"\s+" for w in words[:-1]) + rf"(?:{last})"
    if sized:  # a size code only beside the word size: "size l", "size: xl", "xl size"
        said = rf"(?:size\s*:?\s*{said}|{said}\s+size)"
    return re.search(rf"(?<![\w'’]){said}(?:'?s)?\b", low) is not None
