"""Contrary variants: a form the shopper asked for rules its alternatives down ("over-ear"
headphones, not in-ear ones; "wireless", not wired). item_picker weighs a title that says
an alternative like one that says an avoided term, and its reason names what it is instead."""

from __future__ import annotations

from collections.abc import Iterable

from app.catalog.product_nouns import head, is_accessory_noun, singular
from app.language import lexicon
from app.tools.plan import COLOUR_NAMES
from app.tools.terms import Term, make_term, term_in, tokens

FAMILIES: tuple[frozenset[str], ...] = tuple(
    frozenset(family) for family in lexicon.word_groups("picker_contrary_families")
)
"""Forms of which a product is one at a time, as normalised terms read them."""

TRAITS = lexicon.word_set("picker_contrary_traits")
"""Traits an item has or lacks, with no alternative to name: a pick that does not state an
asked one says so, as it does of an asked form."""

_PLATFORM_ORDER = lexicon.words("picker_platforms")
PLATFORMS = frozenset(_PLATFORM_ORDER)
"""Devices an accessory is made for ("xbox", "iphone"): checked like a trait when the
product asked is made for one device."""
_PLATFORM_BOUND = lexicon.word_set("picker_platform_bound")
"""Products made for one device that are no accessory nouns ("controller", "game")."""


_DRIVES = lexicon.word_set("picker_contrary_drives")
"""Products a "portable" one of is an external one ("a portable ssd")."""


def asked_forms(asked: Iterable[Term], *, product: str | None = None) -> tuple[str, ...]:
    """The forms asked as terms or in the product's name, in its words or in words that
    imply them ("inkjet" of "inkjet printer", wireless of "bluetooth headphones", external
    of "portable ssd"), in a stable order."""
    said = {term.text for term in asked}
    if "portable" in said and set((product or "").lower().split()) & _DRIVES:
        said.add("external")
    return tuple(
        form
        for family in FAMILIES
        for form in sorted(family)
        if form in said or _names(product, form)
    )


def _names(product: str | None, form: str) -> bool:
    term = make_term(form)
    return bool(product) and term is not None and term_in(product, term)


def contrary_terms(forms: Iterable[str]) -> tuple[str, ...]:
    """The alternatives of every asked form that no other asked form also names ("over ear"
    -> in ear, on ear), in a stable order."""
    said = set(forms)
    out: list[str] = []
    for family in FAMILIES:
        if family & said:
            out += sorted(family - said)
    return tuple(out)


def is_form(term: str) -> bool:
    """Whether the term names one of the forms a product is one at a time ("wireless")."""
    return any(term in family for family in FAMILIES)


def is_checked(term: str, product: str | None = None) -> bool:
    """Whether an asked word is a form, a trait, a colour or, for a product made for one
    device (an accessory, a controller), a platform: a pick's reason says it lacks it ("a
    red bluetooth speaker"; "an xbox controller"; a monitor "for my macbook" fits any Mac
    with the right port)."""
    if term in TRAITS or term in COLOUR_NAMES or is_form(term):
        return True
    noun = head(product) if product and term in PLATFORMS else None
    return noun is not None and (is_accessory_noun(noun) or singular(noun) in _PLATFORM_BOUND)


def same_family(asked: str, said: Iterable[str]) -> bool:
    """Whether the asked form and every form said belong to one family ("wireless" and
    "wired"; not "over ear" and "wired")."""
    return any({asked, *said} <= family for family in FAMILIES)


def platforms_named(title: str) -> list[str]:
    """The devices a title names in its own words, the most specific ("PlayStation 2
    DualShock Controller": playstation 2), in the lexicon's order: what a pick lacking the
    asked one is for."""
    said = set(tokens(title))
    named = [p for p in _PLATFORM_ORDER if set(p.split()) <= said]
    return [p for p in named if not any(q != p and set(p.split()) < set(q.split()) for q in named)]
