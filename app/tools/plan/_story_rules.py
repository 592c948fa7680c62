"""Story rules: what the shopper tells of the thing they have ("my old router DIED", "my
printer STOPPED WORKING") and the newness they ask ("a NEW one") explain the request; they
name nothing a title says, so their words are claimed before negations and keywords are read
("not working" is no exclusion). The thing itself stays for the product rules to read, unless
the message goes on to name the product it wants ("my tv remote stopped working, need
BATTERIES"): then the broken thing is only the story, save the product an accessory is for
("my PHONE screen cracked, need a screen protector" asks a phone's screen protector)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.catalog.product_nouns import singular
from app.language import lexicon
from app.tools.plan._lexicon_rules import is_product_noun
from app.tools.plan._text_rules import STOP_WORDS, SpanMask, tokens
from app.tools.plan.catalog_words import current_vocabulary

__all__ = ["Story", "StoryOwner", "claim_story", "interest_product", "only_newness"]

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
    r"\b(?:a|an|the|some|any|need|want|buy|get)\s+(?P<new>(?:"
    + lexicon.alternation("story_newness")
    + r"))\b(?!\s+(?:"
    + lexicon.alternation("story_new_names")
    + r")\b)"
)
"""Newness asked of what is bought: "a new one", "a brand new laptop", "i need new
headphones" (not "a new balance sneaker": "new" is part of a name there)."""
_GIFT = re.compile(
    r"\b(?:(?:"
    + lexicon.alternation("story_gift_occasions")
    + r")\s+)?(?:"
    + lexicon.alternation("story_gift")
    + r")\b"
)
"""A gift said of what is bought, with its occasion ("a BIRTHDAY gift"); it names the
product only when a word of a name follows."""
_ONLY_NEWNESS = re.compile(r"\s*(?:(?:" + lexicon.alternation("story_newness") + r")\s*)?")


_ACCESSORY_NOUNS = lexicon.word_set("accessory_nouns")
_INTEREST_PRODUCTS = lexicon.word_map("story_interest_products")
_INTEREST = re.compile(
    r"\b(?:"
    + lexicon.alternation("story_liking")
    + r")\s+(?P<interest>"
    + "|".join(map(re.escape, _INTEREST_PRODUCTS))
    + r")\b"
)
"""A person's interest told as such ("he likes photography"), which asks for a product where
none is named; the word alone ("trail running shoes", "camping pants") is no interest."""


@dataclass(frozen=True)
class StoryOwner:
    """The shopper's product an accessory they ask for is for: `owner` ("phone") of the
    story's thing, `accessory` the singular head noun of what they want ("protector")."""

    owner: str
    accessory: str


@dataclass(frozen=True)
class Story:
    """What a message tells around the product: the owners of the accessories asked after a
    story, and whether what is bought is a gift."""

    owners: tuple[StoryOwner, ...] = ()
    gift: bool = False


def claim_story(low: str, mask: SpanMask) -> Story:
    """Claim in `mask` the breakage told of the shopper's own thing, the word that says it is
    the one they have ("old", "current"), the newness asked of what they buy and that it is
    a gift."""
    owners: list[StoryOwner] = []
    gift = False
    for m in _OWNED.finditer(low):
        if mask.is_free(m.start("owned"), m.end("owned")):
            mask.take(m.start("owned"), m.end("owned"))
    for m in _BREAKAGE.finditer(low):
        if mask.is_free(m.start("broke"), m.end("broke")):
            mask.take(m.start("broke"), m.end("broke"))
            wanted = _wanted_product(low, m.end())
            if wanted:
                mask.take(m.start(), m.end("thing"))
                owner = _owner(m.group("thing").split(), wanted)
                owners += [StoryOwner(owner, singular(wanted[-1]))] if owner else []
    for m in _NEWNESS.finditer(low):
        if mask.is_free(m.start("new"), m.end("new")):
            mask.take(m.start("new"), m.end("new"))
    for m in _GIFT.finditer(low):
        after = next(iter(tokens(low, m.end(), len(low))), None)
        named_on = after is not None and after.start == m.end() + 1 and after.text not in STOP_WORDS
        if not named_on and mask.is_free(m.start(), m.end()):  # "gift wrap" is a product
            mask.take(m.start(), m.end())
            gift = True
    return Story(tuple(owners), gift)


def _wanted_product(low: str, start: int) -> list[str]:
    """The product nouns the words after a story name, before they point back at the broken
    thing or open a clause about it ("need a SCREEN PROTECTOR"; none in "need a new ONE that
    covers")."""
    wanted: list[str] = []
    for tok in tokens(low, start, len(low)):
        if not wanted and tok.text in _BACK_REFERENCES:
            return []
        if is_product_noun(tok.text) or (wanted and singular(tok.text) in _ACCESSORY_NOUNS):
            wanted.append(tok.text)
        elif wanted:
            break
    return wanted


def _owner(thing: list[str], wanted: list[str]) -> str | None:
    """The product an accessory is for in the broken thing's words: "PHONE screen" for a
    screen protector, "LAPTOP battery" for a battery, "PHONE" for a charger; none when the
    thing is an accessory of its own that the wanted one does not name ("tv remote" for
    batteries)."""
    wanted_words = {singular(w) for w in wanted}
    if singular(wanted[-1]) not in _ACCESSORY_NOUNS or not thing:
        return None
    last = singular(thing[-1])
    if last in _ACCESSORY_NOUNS and last not in wanted_words:
        return None
    for word in thing:
        base = singular(word)
        if is_product_noun(word) and base not in _ACCESSORY_NOUNS and base not in wanted_words:
            return word
    return None


def only_newness(text: str) -> bool:
    """Whether `text` (between a request's lead and its product) is blank or newness alone:
    "i need a NEW watchband" names the watchband as "i need a watchband" does."""
    return _ONLY_NEWNESS.fullmatch(text) is not None


def interest_product(low: str, words: Sequence[str]) -> tuple[str, str] | None:
    """The product the first interest `low` tells of asks for ("camera" of "he likes
    photography"), and that interest, when it is among `words` and the catalog's kinds (if
    it has a profile) name the product; else None."""
    known = current_vocabulary()
    for m in _INTEREST.finditer(low):
        product = _INTEREST_PRODUCTS[m.group("interest")]
        listed = not known.kinds or any(map(known.names_kind, (product, product.split()[-1])))
        if m.group("interest") in words and listed:
            return product, m.group("interest")
    return None
