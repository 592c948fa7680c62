"""Story rules: what the shopper tells of the thing they have ("my old router DIED", "my
printer STOPPED WORKING") and the newness they ask ("a NEW one") explain the request; they
name nothing a title says, so their words are claimed before negations and keywords are read
("not working" is no exclusion). The thing itself stays for the product rules to read, unless
the message goes on to name the product it wants ("my tv remote stopped working, need
BATTERIES"): then the broken thing is only the story."""

from __future__ import annotations

import re

from app.language import lexicon
from app.tools.plan._lexicon_rules import is_product_noun
from app.tools.plan._text_rules import SpanMask, tokens

__all__ = ["claim_story", "only_newness"]

_BREAKAGE = re.compile(
    r"\bmy\s+(?P<thing>(?:[a-z0-9'-]+\s+){1,4}?)(?P<broke>(?:"
    + lexicon.alternation("story_breakage")
    + r"))\b"
)
"""A clause of the shopper's own thing breaking: "my (old) <up to four words> died"."""
_OWNED = re.compile(r"\bmy\s+(?P<owned>" + lexicon.alternation("story_owned_adjectives") + r")\b")
"""The word saying a thing is the one the shopper has: "my OLD laptop"."""
_BACK_REFERENCES = lexicon.word_set("story_back_references")
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
    for m in _OWNED.finditer(low):
        if mask.is_free(m.start("owned"), m.end("owned")):
            mask.take(m.start("owned"), m.end("owned"))
    for m in _BREAKAGE.finditer(low):
        if mask.is_free(m.start("broke"), m.end("broke")):
            mask.take(m.start("broke"), m.end("broke"))
            if _wants_another(low, m.end()):
                mask.take(m.start(), m.end("thing"))
    for m in _NEWNESS.finditer(low):
        if mask.is_free(m.start("new"), m.end("new")):
            mask.take(m.start("new"), m.end("new"))


def _wants_another(low: str, start: int) -> bool:
    """Whether the words after a story name a product before they point back at the broken
    thing or open a clause about it ("need BATTERIES"; not "need a new ONE that covers")."""
    for tok in tokens(low, start, len(low)):
        if tok.text in _BACK_REFERENCES:
            return False
        if is_product_noun(tok.text):
            return True
    return False


def only_newness(text: str) -> bool:
    """Whether `text` (between a request's lead and its product) is blank or newness alone:
    "i need a NEW watchband" names the watchband as "i need a watchband" does."""
    return _ONLY_NEWNESS.fullmatch(text) is not None
