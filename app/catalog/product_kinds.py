"""Other kinds: a word before a product noun that makes it another product ("Graphics Tablet"
is a drawing device, not a tablet computer; "Baby Monitor" is no display), or one after it
("Speaker Phone"). The cross-encoder
scores them as the noun itself, so item_search and item_picker read the word instead."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence

from app.catalog.product_nouns import head_positions, singular, tokens
from app.catalog.standards import canonical_standards
from app.language import lexicon

__all__ = [
    "KINDS_AFTER",
    "OTHER_KINDS",
    "RIVAL_KINDS",
    "card_words",
    "names_kind",
    "other_kind",
    "other_kind_in",
    "rival_kind",
]

OTHER_KINDS: dict[str, frozenset[str]] = lexicon.word_sets("other_kinds_before")
"""Per product noun, the words (singular) that make a noun after them another kind."""

KINDS_AFTER: dict[str, frozenset[str]] = lexicon.word_sets("other_kinds_after")
"""Per product noun, the words right after it that make it another kind ("Speaker Phone" is
a speakerphone, not a speaker; "(PC) Game" and "PC CD-Rom" are software)."""


RIVAL_KINDS: dict[str, tuple[frozenset[str], ...]] = lexicon.kinds_by_noun("rival_kinds")
RIVAL_KINDS |= {
    noun: RIVAL_KINDS[same] for noun, same in lexicon.word_map("rival_kind_shares").items()
}
"""Per product noun, kinds of which one item is one, each by the words that name it: an
HDMI cable is no coaxial cable, though the cross-encoder scores it 0.99 as one, a printer
stand no TV stand, a cordless phone no Android phone, a computer case no phone case, a car
charger no wall charger, a hard drive no optical drive, a digital camera no surveillance
camera and a shoulder strap no smartwatch strap."""


_KIND_PARENT = lexicon.word_map("kind_nouns")
"""A kind word asked as the product itself ("an ssd") -> the noun whose kinds it is one of
(drive): that family's rival kinds hold for it too."""

_WEAK_KIND_WORDS = lexicon.word_sets("weak_kind_words")
"""Words that name a kind only where the title names no rival one: "Coax VGA Monitor
Cable" is a VGA cable built of coax, no coaxial cable."""


def other_kind(text: str, noun: str, asked: Iterable[str] = ()) -> str | None:
    """The other kind every mention of `noun` in `text` names ("graphics tablet"), or None
    when one mention is the product itself or the asked words name a kind of that family
    ("a pen tablet" accepts a "Graphics Tablet"); or the rival kind the text names when the
    asked words name one it does not ("hdmi cable" for a coaxial cable)."""
    asked = tuple(asked)
    rival = rival_kind(text, noun, asked)
    if rival is not None:
        return rival
    before, after = OTHER_KINDS.get(noun, frozenset()), KINDS_AFTER.get(noun, frozenset())
    if any(singular(w) in before | after for w in asked):
        return None
    toks = tokens(text)
    positions = head_positions(toks, noun)
    kinds = [_kind_at(toks, i, before, after) for i in positions]
    if not kinds or any(k is None for k in kinds):
        return None
    return kinds[0]


def rival_kind(text: str, noun: str, asked: Iterable[str]) -> str | None:
    """The kind of `noun` the text names ("hdmi cable") when the asked words name a rival
    kind (coaxial) that the text never names; a kind named after "with" is a feature ("HDMI
    Cable with Ethernet"); a standard counts by its family ("usb-c" names usb), a microSD
    card as an SD card too (it comes with an adapter), though an SD card is no microSD; a
    kind asked as the product ("ssd") rules out its rivals (an HDD) the same way."""
    kinds = RIVAL_KINDS.get(noun, ())
    if not kinds:
        parent = _KIND_PARENT.get(noun)
        return rival_kind(text, parent, (*asked, noun)) if parent else None
    asked_words = _asked_words(tuple(asked))
    wanted = [kind for kind in kinds if kind.intersection(asked_words)]
    if not wanted:
        return None
    toks = tokens(_kind_words(text.lower()))
    named = _with_families([t for i, t in enumerate(toks) if i == 0 or toks[i - 1] != "with"])
    named += [word for t in named for word in card_words(t)]
    weak = _WEAK_KIND_WORDS.get(noun, frozenset())
    strong = [t for t in named if t not in weak]
    if any(kind.intersection(strong) for kind in wanted):
        return _adapter(toks, kinds, wanted, noun)
    others = [t for t in strong if any(t in kind for kind in kinds if kind not in wanted)]
    if others:
        return f"{others[0]} {noun}"
    if any(kind.intersection(named) for kind in wanted):
        return None
    return next((f"{t} {noun}" for t in named for kind in kinds if t in kind), None)


def _adapter(
    toks: list[str], kinds: Sequence[frozenset[str]], wanted: Sequence[frozenset[str]], noun: str
) -> str | None:
    """ "A to B" with one end of an asked kind and the other of a rival one ("HDMI to
    DisplayPort Cable" for an hdmi cable): an adapter, no cable of the asked kind."""

    def kind_in(words: list[str]) -> tuple[str, frozenset[str]] | None:
        found = ((w, k) for w in words for k in kinds if k.intersection(_with_families([w])))
        return next(found, None)

    for i in range(1, len(toks) - 1):
        if toks[i] != "to":
            continue
        # an end may carry a version or a size word ("DisplayPort 1.2 to", "to Mini DisplayPort")
        first, second = kind_in(toks[max(0, i - 3) : i][::-1]), kind_in(toks[i + 1 : i + 3])
        if first is None or second is None or first[1] == second[1]:
            continue
        if (first[1] in wanted) != (second[1] in wanted):
            return f"{first[0]} to {second[0]} {noun}"
    return None


def card_words(word: str) -> tuple[str, ...]:
    """The words a memory card's one-word name says: "microSDHC" says micro SD (a microSD
    card, sold with an adapter, is an SD card too), "SDXC" SD."""
    if word.startswith("microsd"):
        return ("micro", "sd")
    return ("sd",) if word in {"sdhc", "sdxc"} else ()


@functools.lru_cache(maxsize=1024)
def names_kind(product: str) -> bool:
    """Whether a product's name says a kind of its noun ("coaxial cable", "sd card"; not
    "memory card"), which a title of that kind says too."""
    words = tokens(canonical_standards(product.lower()))
    kinds = RIVAL_KINDS.get(singular(words[-1]), ()) if words else ()
    return any(w in kind for w in words[:-1] for kind in kinds)


@functools.lru_cache(maxsize=1024)
def _asked_words(asked: tuple[str, ...]) -> frozenset[str]:
    """The asked words with standards in their one name and families ("usb c" -> usb-c,
    usb): read once per request, not once per title the gate checks."""
    return frozenset(_with_families(tokens(_kind_words(" ".join(asked).lower()))))


_MICRO_SD = re.compile(r"\bmicro[\s-]+sd")


def _kind_words(low: str) -> str:
    """Lower-case `low` with standards in their one name and a card's "micro sd" as one word
    ("Micro SDXC" is a microsdxc card, no SD card)."""
    return _MICRO_SD.sub("microsd", canonical_standards(low))


def _with_families(words: list[str]) -> list[str]:
    """The words, then the family of each hyphenated one ("usb-c" -> usb, "dvd-rw" -> dvd)."""
    return words + [w.split("-")[0] for w in words if "-" in w]


def _kind_at(toks: list[str], i: int, before: frozenset[str], after: frozenset[str]) -> str | None:
    if i > 0 and singular(toks[i - 1]) in before:
        return f"{toks[i - 1]} {toks[i]}"
    if i + 1 < len(toks) and singular(toks[i + 1]) in after:
        return f"{toks[i]} {toks[i + 1]}"
    return None


def other_kind_in(texts: Iterable[str | None], noun: str, asked: Iterable[str] = ()) -> str | None:
    """The other kind of product named by the first of the texts (a title, a catalog
    category) that names `noun` only as one ("graphics tablets"), or None."""
    words = tuple(asked)
    return next((k for text in texts if text and (k := other_kind(text, noun, words))), None)
