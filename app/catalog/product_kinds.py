"""Other kinds: a word before a product noun that makes it another product ("Graphics Tablet"
is a drawing device, not a tablet computer; "Baby Monitor" is no display). The cross-encoder
scores them as the noun itself, so item_search and item_picker read the word instead."""

from __future__ import annotations

from collections.abc import Iterable

from app.catalog.product_nouns import head_positions, singular, tokens

OTHER_KINDS: dict[str, frozenset[str]] = {
    "tablet": frozenset({"graphic", "drawing", "pen", "digitizer", "writing", "signature"}),
    "monitor": frozenset({"baby", "heart", "pressure", "glucose"}),
    "keyboard": frozenset({"piano", "midi", "musical"}),
}
"""Per product noun, the words (singular) that make a noun after them another kind."""


def other_kind(text: str, noun: str, asked: Iterable[str] = ()) -> str | None:
    """The other kind every mention of `noun` in `text` names ("graphics tablet"), or None
    when one mention is the product itself or the asked words name a kind of that family
    ("a pen tablet" accepts a "Graphics Tablet")."""
    kinds = OTHER_KINDS.get(noun)
    if kinds is None or any(singular(w) in kinds for w in asked):
        return None
    toks = tokens(text)
    positions = head_positions(toks, noun)
    if not positions or not all(i > 0 and singular(toks[i - 1]) in kinds for i in positions):
        return None
    first = positions[0]
    return f"{toks[first - 1]} {toks[first]}"


def other_kind_in(texts: Iterable[str | None], noun: str, asked: Iterable[str] = ()) -> str | None:
    """The other kind of product named by the first of the texts (a title, a catalog
    category) that names `noun` only as one ("graphics tablets"), or None."""
    words = tuple(asked)
    return next((k for text in texts if text and (k := other_kind(text, noun, words))), None)
