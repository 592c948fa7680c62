"""Keyword rules: the content words of a request no other rule claimed, with the amounts,
standards, processor tiers and asked bounds they carry kept whole ("1tb ssd", "usb-c",
"core-i7 1165g7", "at least 24 inch")."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.catalog.garment_sizes import SIZE_NAMES, size_word
from app.catalog.model_codes import is_model_pair
from app.catalog.product_nouns import singular
from app.catalog.specs import UNITS, Quantity, in_metres, joined_by_or, quantities
from app.catalog.standards import PROCESSOR_TIERS, model_after, standard_at
from app.language import lexicon
from app.tools.plan._amount_rules import (
    amount_of,
    counts_bytes,
    is_storage_part,
    is_unit,
    keeps_next,
    pack_of,
    part_of,
    spelled_amount,
    spelled_size,
)
from app.tools.plan._lexicon_rules import (
    ABOVE_CUE,
    BELOW_CUE,
    COLOR_WORDS,
    MAXIMUM_CUE,
    MINIMUM_CUE,
    SIZED_BY_NUMBER_ONLY,
    WITH_GUARD,
    is_color_label,
    is_product_noun,
)
from app.tools.plan._phrase_rules import BOUNDARY_WORDS
from app.tools.plan._text_rules import (
    COUNTED_FILLERS,
    SIZE_LABELS,
    STOP_WORDS,
    Allowed,
    SpanMask,
    Token,
    tokens,
)

_UNIT_LEADS = lexicon.word_set("keyword_unit_leads")
"""Words a number after them belongs to: "size 7", "pack 2", "usb 3.0", "wifi 6"; a unit
after the number takes it instead ("size 75 feet" is 75 feet)."""
_LETTER_SIZES = {name: word for name in SIZE_NAMES if len(name) == 1 and (word := size_word(name))}
"""A garment size's one letter after the word size, as its word ("size m" -> medium): a lone
letter is otherwise no keyword, and the picker reads sizes off the searched words."""
_MINIMUM_PART = re.compile(r"\s+(?:of\s+)?([a-z][a-z0-9-]*)\b")
"""The word after an asked bound, which may name the part it sizes ("16gb or more ram")."""


@dataclass(frozen=True)
class Bound:
    """An asked minimum or maximum of a quantity, as the keyword "at least 24 inch" or "at
    most 14 inch", and where it is."""

    term: str
    start: int
    end: int


_RANGE_BEFORE = re.compile(
    r"(?:\b(?:between|from)\s+(?P<low>\d+(?:\.\d+)?)\s*(?:and|to|-)"
    r"|\b(?P<bare>\d+(?:\.\d+)?)\s*(?:to|-))\s*$"
)
"""The lower end of a range before its amount: "between 40 and", "from 13 to", "40 to", "40-"."""


def find_bounds(low: str, mask: SpanMask) -> list[Bound]:
    """Quantities asked as a minimum ("at least 24 inch", "16gb or more ram") or a maximum
    ("no bigger than 13 inch"), a range as both ("between 40 and 50 inches"), with the part
    they size, claimed in `mask` so their cue words ("or more", "bigger") become no keyword
    or list item of their own."""
    found = []
    for quantity in quantities(low):
        start, end = quantity.reach
        after_noun = _AT_LEAST_AFTER_NOUN.match(low, end)
        if after_noun is not None and not (quantity.at_least or quantity.at_most):
            noun = after_noun.group("noun")
            if is_product_noun(noun) and mask.is_free(start, after_noun.end()):
                mask.take(start, end)  # "a 2tb ssd or more": the noun stays the product's
                mask.take(after_noun.start("cue"), after_noun.end())
                found.append(Bound(MINIMUM_CUE + quantity.text, start, end))
                continue
        ranged = _range(low, quantity)
        if ranged is not None and mask.is_free(ranged[0].start, end):
            mask.take(ranged[0].start, end)
            found += ranged
            continue
        bound = quantity.at_least or quantity.at_most
        if not bound or not mask.is_free(start, end):
            continue
        cue = _cue(quantity)
        term = cue + quantity.text.replace('"', " inch")
        part = _MINIMUM_PART.match(low, end)
        if part is not None and _is_part(part.group(1)) and mask.is_free(end, part.end()):
            term, end = f"{term} {part.group(1)}", part.end()
        mask.take(start, end)
        found.append(Bound(term, start, end))
    return found


_AT_LEAST_AFTER_NOUN = re.compile(
    r"\s+(?P<noun>[a-z][a-z0-9-]*)(?P<cue>" + lexicon.alternation("specs_at_least_after") + ")"
)
"""A minimum said after the product the amount sizes: "a 2tb ssd OR MORE"."""


def _range(low: str, quantity: Quantity) -> tuple[Bound, Bound] | None:
    """The bounds of a range whose upper amount is `quantity` ("between 40 and 50 inches": at
    least 40 inches from "between", at most 50 inches), or None: no range, a bound already,
    or a lower end that is no less than the upper one."""
    if quantity.at_least or quantity.at_most:
        return None
    before = _RANGE_BEFORE.search(low, max(0, quantity.start - 24), quantity.start)
    if before is None:
        return None
    lower = before.group("low") or before.group("bare")
    number = re.match(r"[\d.,]+", quantity.text)
    if number is None or float(lower) >= quantity.value:
        return None
    written = quantity.text.replace('"', " inch")
    least = MINIMUM_CUE + lower + written[number.end() :]
    return (
        Bound(least, before.start(), quantity.start),
        Bound(MAXIMUM_CUE + written, quantity.start, quantity.end),
    )


def _cue(quantity: Quantity) -> str:
    """How the planner writes the quantity's bound: a minimum, strict or not, or a maximum."""
    if quantity.at_least:
        return ABOVE_CUE if quantity.above else MINIMUM_CUE
    return BELOW_CUE if quantity.below else MAXIMUM_CUE


def _part_before_size(low: str, tok: Token, nxt: str) -> bool:
    """Whether memory or storage is named right before its size ("ram 2gb", "rom 16gb"), not
    right after an amount of bytes it sizes ("8gb ram 128gb ssd"; in "ram 2gb rom 16gb" the
    2gb is the RAM's)."""
    if not is_storage_part(tok.text) or not counts_bytes(nxt):
        return False
    before = low[: tok.start].split()
    sized = bool(before) and counts_bytes(before[-1])
    return not sized or (len(before) > 1 and is_storage_part(before[-2]))


def _is_part(word: str) -> bool:
    """Whether the word after a bound names the part it sizes ("16gb or more ram")."""
    return singular(word) in SIZED_BY_NUMBER_ONLY


def keywords(
    low: str, start: int, end: int, allowed: Allowed, bounds: Sequence[Bound] = ()
) -> list[str]:
    """Content words of `low[start:end]` no rule claimed, in text order with the asked
    bounds there; a number keeps the word it measures (`keeps_next`: "4 ounce", "1tb
    ssd", but "8gb ddr4" is two) and a standard its one name ("usb type c" -> usb-c, "cat
    6" -> cat6), a processor tier with its model number ("core-i7 1165g7")."""
    words = [t for t in tokens(low, start, end) if allowed(t)]
    out = [(m.start, m.term) for m in bounds if start <= m.start < end]
    i = 0
    while i < len(words):
        tok = words[i]
        standard = standard_at(low, tok.start)
        if standard is not None and standard[1] <= end:
            name, stop = standard
            model = model_after(low, name, stop)
            if model is not None and model[1] <= end:
                name, stop = f"{name} {model[0]}", model[1]
            out.append((tok.start, name))
            i += 1
            while i < len(words) and words[i].start < stop:
                i += 1
            if name.startswith(PROCESSOR_TIERS) and i < len(words) and words[i].text in _TIER_WORDS:
                i += 1
            continue
        nxt = words[i + 1] if i + 1 < len(words) else None
        adjacent = nxt is not None and low[tok.end : nxt.start].strip() == ""
        if adjacent and nxt is not None and keeps_next(tok.text, nxt.text):
            amount = f"{tok.text} {nxt.text}"
            part = part_of(low, words, i + 1) if nxt.text in UNITS else None
            out.append((tok.start, f"{amount} {part[0]}" if part else amount))
            i += 2 + (part[1] if part else 0)
            continue
        spelled = (
            spelled_amount(low, words, i)
            or pack_of(low, words, i)
            or amount_of(low, words, i)
            or spelled_size(low, words, i)
        )
        if spelled is not None:
            out.append((tok.start, spelled[0]))
            i += spelled[1]
            continue
        if adjacent and nxt is not None and _part_before_size(low, tok, nxt.text):
            out.append((tok.start, f"{tok.text} {nxt.text}"))
            i += 2
            continue
        if tok.text in SIZE_LABELS and nxt is not None and nxt.text in _LETTER_SIZES:
            out.append((tok.start, _LETTER_SIZES[nxt.text]))  # "size m" -> medium
            i += 2
            continue
        if tok.text in _UNIT_LEADS and adjacent and nxt is not None and nxt.text[0].isdigit():
            if i + 2 < len(words) and _sized_by_unit(words[i + 2].text):
                i += 1
                continue
            out.append((tok.start, f"{tok.text} {nxt.text}"))
            i += 2
            continue
        if _content_word(low, words, i):
            out.append((tok.start, tok.text))
        i += 1
    return list(dict.fromkeys(word for _, word in _with_alternatives(low, sorted(out))))


def _with_alternatives(low: str, found: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Amounts of one measure joined by "or" as one keyword ("1440p or 4k", "720p or 1080p
    or 4k"): any of them serves."""
    at = dict(found)
    amounts = quantities(low)
    head: int | None = None
    for first, second in itertools.pairwise(amounts):
        lead = head if head is not None else first.start
        if joined_by_or(low, first, second) and at.get(second.start) == second.text and lead in at:
            if head is None and at[lead] != first.text:
                continue
            at[lead] = f"{at[lead]} or {at.pop(second.start)}"
            head = lead
        else:
            head = None
    return sorted(at.items())


def _sized_by_unit(word: str) -> bool:
    """Whether the word after "size 75" is the unit the number measures ("size 75 feet" is 75
    feet); "foot" there is as often the shopper's own ("for my size 8 foot")."""
    return is_unit(word) and word != "foot"


def _content_word(low: str, words: list[Token], i: int) -> bool:
    """Whether word `i` is a keyword: no function word, boundary, lone letter or digit (but
    the model's of "pixel 6"), bare "size" or colour label (read beside the text's own
    neighbours: "color LASER printer")."""
    tok = words[i]
    word = tok.text
    if len(word) < 2:
        return word.isdigit() and i > 0 and is_model_pair(words[i - 1].text, word)
    if word in STOP_WORDS or word in COUNTED_FILLERS:
        return False
    if word in BOUNDARY_WORDS or word in SIZE_LABELS:
        return False
    with_next = i + 1 < len(words) and words[i + 1].text == "with"
    if word in WITH_GUARD and (with_next or word.endswith("s")):
        before = tokens(low, max(0, tok.start - 40), tok.start)[-1:]
        if not before or before[0].text in STOP_WORDS or before[0].text in BOUNDARY_WORDS:
            return False  # the verb of "that works with usb c", "that fits a 15.6 inch laptop"
    if word in _LENGTH_WORDS and _after_length(low, tok.start):
        return False
    if word not in COLOR_WORDS:
        return True
    before = tokens(low, max(0, tok.start - 40), tok.start)[-1:]
    after = [t for t in tokens(low, tok.end, tok.end + 40)[:1] if t.start == tok.end + 1]
    return not is_color_label(
        before[0].text if before else None, tok.text, after[0].text if after else None
    )


_LENGTH_WORDS = frozenset({"long", "length"})
_LENGTH_BEFORE = re.compile(r"\s+(?:in\s+)?$")


def _after_length(low: str, start: int) -> bool:
    """Whether a length ends just before `start`, which makes "long" or "length" there a
    repeat of it ("10 feet long", "2m in length")."""
    before = low[max(0, start - 24) : start]
    return any(
        in_metres(q.value, q.unit) is not None and _LENGTH_BEFORE.fullmatch(before, q.end)
        for q in quantities(before)
    )


_TIER_WORDS = lexicon.word_set("keyword_tier_words")
"""Words after a processor tier that only repeat what it is ("an i5 core", "ryzen 5 cpu")."""
