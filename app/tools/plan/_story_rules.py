"""Story rules: what the shopper tells of the thing they have ("my old router DIED", "my
printer STOPPED WORKING") and the newness they ask ("a NEW one") explain the request; they
name nothing a title says, so their words are claimed before negations and keywords are read
("not working" is no exclusion). The thing itself stays for the product rules to read."""

from __future__ import annotations

import re

from app.language import lexicon
from app.tools.plan._text_rules import SpanMask

__all__ = ["claim_story", "only_newness"]

_BREAKAGE = re.compile(
    r"\bmy\s+(?:(?P<owned>"
    + lexicon.alternation("story_owned_adjectives")
    + r")\s+)?(?:[a-z0-9'-]+\s+){1,4}?(?P<broke>(?:"
    + lexicon.alternation("story_breakage")
    + r"))\b"
)
"""A clause of the shopper's own thing breaking: "my (old) <up to four words> died"."""
_NEWNESS = re.compile(
    r"\b(?:a|an|the|some|any)\s+(?P<new>(?:"
    + lexicon.alternation("story_newness")
    + r"))\b(?!\s+(?:"
    + lexicon.alternation("story_new_names")
    + r")\b)"
)
"""Newness asked of what is bought: "a new one", "a brand new laptop" (not "a new balance
sneaker": "new" is part of a name there)."""
_ONLY_NEWNESS = re.compile(r"\s*(?:(?:" + lexicon.alternation("story_newness") + r")\s*)?")


def claim_story(low: str, mask: SpanMask) -> None:
    """Claim in `mask` the breakage told of the shopper's own thing, the word that says it is
    the one they have ("old", "current") and the newness asked of what they buy."""
    for m in _BREAKAGE.finditer(low):
        for group in ("owned", "broke"):
            if m.group(group) is not None and mask.is_free(m.start(group), m.end(group)):
                mask.take(m.start(group), m.end(group))
    for m in _NEWNESS.finditer(low):
        if mask.is_free(m.start("new"), m.end("new")):
            mask.take(m.start("new"), m.end("new"))


def only_newness(text: str) -> bool:
    """Whether `text` (between a request's lead and its product) is blank or newness alone:
    "i need a NEW watchband" names the watchband as "i need a watchband" does."""
    return _ONLY_NEWNESS.fullmatch(text) is not None
