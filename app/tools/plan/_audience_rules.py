"""Audience rules: the person a shopper buys for ("a kurta for my DAD") says who the product
is for, not what it is: it asks the audience the catalog's attributes list for them ("men"),
and where they list none, nothing (a laptop for my grandma is a laptop)."""

from __future__ import annotations

import re
from typing import NamedTuple

from app.language import lexicon
from app.tools.plan._text_rules import SpanMask
from app.tools.plan.catalog_words import current_vocabulary

__all__ = ["AudienceReading", "claim_audience"]


class AudienceReading(NamedTuple):
    """Whether a message named someone it buys for, and the audiences the catalog lists for
    the first of them (none where it lists none; a son is men's or boys')."""

    said: bool
    audiences: tuple[str, ...] = ()


def _audiences_of() -> dict[str, tuple[str, ...]]:
    """relation -> the audiences it may belong to, in the lexicon's order."""
    out: dict[str, tuple[str, ...]] = {}
    for audience, words in lexicon.word_sets("audience_relations").items():
        for word in words:
            out[word] = (*out.get(word, ()), audience)
    return out


_AUDIENCE_OF = _audiences_of()
_RELATION = re.compile(
    r"\bfor\s+(?:my|our|his|her|their|an?)\s+(?P<who>"
    + "|".join(sorted(map(re.escape, _AUDIENCE_OF), key=len, reverse=True))
    + r")s?\b"
)


def claim_audience(low: str, mask: SpanMask) -> AudienceReading:
    """Claim every "for my <relation>" ("for a teenager") in `mask`: whether there was one,
    and the audiences the first names that the catalog in use lists among its attribute
    values."""
    listed = current_vocabulary().attribute_values
    said, found = False, tuple[str, ...]()
    for m in _RELATION.finditer(low):
        if not mask.is_free(m.start(), m.end()):
            continue
        mask.take(m.start(), m.end())
        said = True
        if not found:
            found = tuple(a for a in _AUDIENCE_OF[m.group("who")] if a in listed)
    return AudienceReading(said, found)
