"""The noun phrase after a cue ("not X", "with X"), split into list items: it stops at
punctuation, a function word or claimed text, and "and" joins items only when allowed,
because "no sugar and low carb" is not "no low carb"."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.catalog.model_codes import is_model_pair
from app.catalog.product_nouns import is_accessory_noun, singular
from app.language import lexicon
from app.tools.plan._lexicon_rules import (
    AMBIGUOUS_HEADS,
    ATTRIBUTE_NOUNS,
    PLAIN_ADJECTIVES,
    WITH_GUARD,
    is_color_label,
    is_gerund,
    is_product_noun,
)
from app.tools.plan._text_rules import SpanMask, Token, clause_end, tokens

BOUNDARY_WORDS = lexicon.word_set("phrase_boundary_words")
"""Words that end a phrase: conjunctions, prepositions, pronouns, auxiliaries, fillers."""

LEADING_ARTICLES = lexicon.word_set("phrase_leading_articles")
"""Skipped before an item: articles and praise that names nothing ("without A bag", "no ANY
sugar", "with a GOOD mic")."""
_HARD_BREAK = set('.;:!?()[]\n"')
_JOINED_BY_TO = lexicon.word_set("phrase_joined_by_to")
_GENERIC_TAILS = lexicon.word_set("phrase_generic_tails")
"""Words that end a list item without naming anything ("an optical zoom FEATURE")."""
AndMode = Literal["never", "single", "always"]


@dataclass(frozen=True)
class Phrase:
    """One item of a phrase list, with the offsets of its first and last word."""

    words: tuple[str, ...]
    start: int
    end: int

    @property
    def text(self) -> str:
        """The item as one lower-cased string."""
        return " ".join(self.words)


def collect_phrases(
    low: str,
    start: int,
    mask: SpanMask,
    *,
    max_words: int,
    and_mode: AndMode = "single",
    stops: frozenset[str] = frozenset(),
    allow_digit_start: bool = False,
    share_modifiers: bool = False,
    cut_at_product: bool = False,
    closed_lists: bool = False,
) -> list[Phrase]:
    """The list items at `start`; with `closed_lists` (negations) items after a bare comma
    count only if a conjunction closes the list ("no sugar, colors OR flavors", but not "no
    preservatives, certified organic"), and an item stops at a number."""
    limit = clause_end(low, start)
    taken = mask.first_taken_after(start)
    if taken is not None:
        limit = min(limit, taken)
    toks = tokens(low, start, limit)
    items: list[Phrase] = []
    closed = 1
    i = 0
    while i < len(toks):
        while i < len(toks) and toks[i].text in LEADING_ARTICLES:
            i += 1
        labelled = i < len(toks) and _labels_color(toks, i)
        if labelled:
            i += 1
            if i < len(toks) and _gap_breaks(low, toks[i - 1], toks[i]):
                break
        if i >= len(toks) or not _can_start(toks[i].text, stops, allow_digit_start or labelled):
            break
        j = i
        while j < len(toks) and j - i < max_words:
            if j > i and (_gap_breaks(low, toks[j - 1], toks[j]) or _ends(toks, j)):
                break
            if j > i and closed_lists and toks[j].text[0].isdigit() and not _model_number(toks, j):
                break
            j += 1
        items.append(_phrase(toks[i:j], cut_at_product and not items))
        i = _next_item(low, toks, j, and_mode, stops)
        if i < 0 or _another_product(low, toks, i, start):
            break
        if (
            toks[i - 1].text in {"and", "or", "nor", "and/or"}
            or "&" in low[toks[j - 1].end : toks[i].start]
        ):
            closed = len(items) + 1
    if closed_lists:
        items = items[:closed]
    if share_modifiers:
        items = _share_modifiers(items)
    return items


def specs_only(low: str, clause: str, start: int, end: int) -> bool:
    """Whether `clause` is "with" and `low[start:end]` lists specs only, bare ("with 16gb ram",
    "with hdmi"): "and a mouse" after them is another product, while "with a case and screen
    protector" or "with a steel frame and a memory foam mattress" list what it comes with."""
    if clause != "with":
        return False
    words = [t.text for t in tokens(low, start, end)]
    if not words or any(w in LEADING_ARTICLES for w in words):
        return False
    return not any(_names_product(w) for w in words)


def _names_product(word: str) -> bool:
    return is_product_noun(word) and singular(word) not in ATTRIBUTE_NOUNS


def _another_product(low: str, toks: list[Token], k: int, start: int) -> bool:
    """Whether the list item at `k` is "a <product>" (by its last word: "a glass SHADE" is a
    part, "a wireless charging CASE" an accessory it may come with) after a "with" list of
    specs only ("with 16gb ram and A MOUSE"): another product, not one more thing it has."""
    if k >= len(toks) - 1 or toks[k].text not in ("a", "an"):
        return False
    last = k + 1
    while last + 1 < len(toks) and not _gap_breaks(low, toks[last], toks[last + 1]):
        if toks[last + 1].text in BOUNDARY_WORDS or toks[last + 1].text in ("and", "or"):
            break
        last += 1
    if not _names_product(toks[last].text) or is_accessory_noun(toks[last].text):
        return False
    lead = tokens(low, max(0, start - 6), start)[-1:]
    return bool(lead) and specs_only(low, lead[0].text, start, toks[k].start)


def _model_number(toks: list[Token], j: int) -> bool:
    """Whether number `j` is a model number with the word before it ("not the rtx 2060"):
    the item goes on through it, where a number ends it ("no more than 2")."""
    return is_model_pair(toks[j - 1].text, toks[j].text)


def _labels_color(toks: list[Token], k: int) -> bool:
    """Whether word `k` only labels a colour ("white COLOR", "COLOR jayne")."""
    before = toks[k - 1].text if k > 0 else None
    after = toks[k + 1].text if k + 1 < len(toks) else None
    return is_color_label(before, toks[k].text, after)


def _ends(toks: list[Token], j: int) -> bool:
    """True when word `j` ends the phrase; "easy to install" stays one phrase."""
    word = toks[j].text
    if word == "to" and toks[j - 1].text in _JOINED_BY_TO and j + 1 < len(toks):
        return False
    return word in BOUNDARY_WORDS


def _can_start(word: str, stops: frozenset[str], allow_digit_start: bool) -> bool:
    if word in stops or word in BOUNDARY_WORDS or is_gerund(word):
        return False
    return allow_digit_start or not word[0].isdigit()


def _gap_breaks(low: str, left: Token, right: Token) -> bool:
    gap = low[left.end : right.start]
    return any(ch in _HARD_BREAK or ch in ",&/+" for ch in gap)


def _phrase(toks: list[Token], cut_at_product: bool) -> Phrase:
    if cut_at_product and len(toks) > 1:
        for k in range(1, len(toks)):
            word = toks[k].text
            if is_product_noun(word) and word not in AMBIGUOUS_HEADS:
                toks = toks[:k]
                break
    end = toks[-1].end
    while len(toks) > 1 and (toks[-1].text in _GENERIC_TAILS or _labels_color(toks, len(toks) - 1)):
        toks = toks[:-1]
    return Phrase(tuple(t.text for t in toks), toks[0].start, end)


def _next_item(
    low: str, toks: list[Token], j: int, and_mode: AndMode, stops: frozenset[str]
) -> int:
    """Index where the next list item starts, or -1 when the list ends at `j`."""
    if j >= len(toks):
        return -1
    gap = low[toks[j - 1].end : toks[j].start]
    if any(ch in _HARD_BREAK for ch in gap):
        return -1
    word = toks[j].text
    conj = word in {"and", "or", "nor", "and/or"}
    if "," in gap or "+" in gap:
        return j + 1 if conj else j
    if word in {"or", "nor", "and/or"}:
        return j + 1
    if word == "and" or "&" in gap:
        nxt = j + 1 if word == "and" else j
        if and_mode == "always" or (and_mode == "single" and _single_item(low, toks, nxt, stops)):
            return nxt
    return -1


def _single_item(low: str, toks: list[Token], k: int, stops: frozenset[str]) -> bool:
    """True when one plain noun follows "and" ("without fragrance and PARABEN")."""
    while k < len(toks) and toks[k].text in LEADING_ARTICLES:
        k += 1
    if k >= len(toks):
        return False
    word = toks[k].text
    if word in stops or word in PLAIN_ADJECTIVES or not _can_start(word, stops, False):
        return False
    if word.endswith(("ed", "ly")) or is_product_noun(word):
        return False
    if word in WITH_GUARD and k + 1 < len(toks) and toks[k + 1].text == "with":
        return False  # "not from apple and WORKS with usb c": a clause, not a listed item
    return k + 1 >= len(toks) or (
        _gap_breaks(low, toks[k], toks[k + 1]) or toks[k + 1].text in BOUNDARY_WORDS
    )


def _share_modifiers(items: list[Phrase]) -> list[Phrase]:
    """ "artificial flavors or colors" -> "artificial colors": a bare noun borrows modifiers."""
    shared: list[Phrase] = []
    for idx, item in enumerate(items):
        prev = items[idx - 1] if idx else None
        if prev is not None and len(item.words) == 1 and len(prev.words) >= 2:
            item = Phrase((*prev.words[:-1], *item.words), item.start, item.end)
        shared.append(item)
    return shared
