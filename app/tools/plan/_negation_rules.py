"""Negation rules: hard excludes ("not Logitech", "sulfate-free") and soft avoids ("not too
loud"), soft read first; negations naming a feature ("no-slip", "hands-free") become
must-haves. Every finding keeps the shopper's own words as evidence."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from app.config.params.planner import PLANNER_MAX_PHRASE_WORDS
from app.language import lexicon
from app.tools.plan._lexicon_rules import (
    FREE_FEATURES,
    FREEABLE,
    NEGATION_OBJECT_STOPS,
    NO_FEATURES,
)
from app.tools.plan._phrase_rules import AndMode, Phrase, collect_phrases
from app.tools.plan._text_rules import STOP_WORDS, SpanMask, tokens

Kind = Literal["exclude", "avoid", "must_have", "prefer"]


@dataclass(frozen=True)
class Finding:
    """One constraint found in a message: its kind, term, evidence and position."""

    kind: Kind
    term: str
    evidence: str
    start: int


_DET = r"(?:(?:" + lexicon.alternation("negation_det") + r")\s+)?"
_SOFT = tuple(
    re.compile(p)
    for p in (
        (
            r"\b(?:"
            + lexicon.alternation("negation_soft_1")
            + r")[\s,]+(?:not|no|without)\s+(?:(?:too|very|so|overly)\s+)?"
        )
        + _DET,
        (
            r"\b(?:"
            + lexicon.alternation("negation_soft_2")
            + (
                r")?rather\s+(?:not|no|avoid|without)\s+(?:(?:have|get|use|buy|"
                r"go\s+with|want|with)\s+)?"
            )
        )
        + _DET,
        (
            r"\b(?:i'?d\s+|i\s+would\s+|would\s+|i\s+)?prefer(?:\s+(?:it|one|"
            r"ones|something))?\s+(?:not|no|without)\s+(?:(?:"
            + lexicon.alternation("negation_soft_3")
            + r")\s+)?"
        )
        + _DET,
        (
            r"\b(?:not|\w+n't|nothing)\s+(?:be\s+)?(?:"
            + lexicon.alternation("negation_soft_4")
            + r")\s+(?:much\s+|many\s+)?"
        ),
        (r"\b(?:" + lexicon.alternation("negation_soft_5") + r")\s+") + _DET,
    )
)
_AUX_NOT = r"(?:" + lexicon.alternation("negation_aux_not") + r")"
_VERB_NEG = re.compile(
    rf"\b{_AUX_NOT}\s+(?:(?P<want>want|need|like)\s+(?:it\s+|them\s+|one\s+)?(?:to\s+)?)?"
    r"(?:(?P<verb>have|has|contain|contains|include|includes|come\s+with|use|uses|feature|"
    r"features|need|be|get|show)\s+)?(?:(?:any|anything|a|an|the|some)\s+(?:(?:with|that\s+"
    r"(?:has|have|contains?))\s+)?)?"
)
_HARD_PATTERNS: tuple[tuple[str, AndMode], ...] = (
    (
        (
            r"\b(?:"
            + lexicon.alternation("negation_hard_patterns_1")
            + r")\s+(?:but|except|other\s+than|besides)\s+"
        )
        + _DET,
        "single",
    ),
    (
        (r"\b(?:" + lexicon.alternation("negation_hard_patterns_2") + r")\s+") + _DET,
        "single",
    ),
    (
        (
            r"\bfree\s+(?:of|from)\s+(?:(?:"
            + lexicon.alternation("negation_hard_patterns_3")
            + r")\s+)?"
        ),
        "always",
    ),
    (r"\b(?:lacks?|lacking)\s+" + _DET, "single"),
    (r"\b(?:not\s+interested\s+in|no\s+interest\s+in)\s+" + _DET, "single"),
    (
        r"\b(?:hates?|can'?t\s+stand|(?:is\s+|am\s+|i'?m\s+)?allergic\s+to)\s+"
        r"(?:anything\s+(?:with\s+|that'?s\s+)?)?" + _DET,
        "single",
    ),
    (r"\bwithout\s+" + _DET, "single"),
)
_HARD = tuple((re.compile(p), mode) for p, mode in _HARD_PATTERNS)
_SOFT_STOPS = lexicon.word_set("negation_soft_stops")
"""Soft negations are about adjectives ("not too big"), so only these words end them."""
_NOT = re.compile(
    r"\b(?:not|isn'?t|aren'?t)\s+(?:(?:" + lexicon.alternation("negation_source") + r")\s+)?" + _DET
)
"""A plain negation, with the word of a maker or shop it rules out ("not from apple")."""
_NO = re.compile(r"\bno\s+")
_NO_HYPHEN = re.compile(r"\bno-([a-z]+)\b")
_FREE = re.compile(r"\b([a-z][a-z0-9]*)[-\s]free\b(?!\s+(?:of|from)\b)")
_FREE_LIST_ITEM = re.compile(
    r"([a-z][a-z0-9]*)(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&|and/or)\s+|\s*&\s*)$"
)
_MODAL_BEFORE = re.compile(r"\b(?:" + lexicon.alternation("negation_modal_before") + r")\s+$")
_IDIOMS = (
    (re.compile(r"\bnot\s+tested\s+on\s+animals\b"), "not tested on animals"),
    (
        re.compile(
            r"\bno\s+(?:"
            + lexicon.alternation("negation_idioms_1")
            + r")\s+(?:needed|required|necessary)\b"
        ),
        None,
    ),
)

_NOT_REQUIRED = (
    re.compile(
        r"\bno\s+(?:[a-z0-9-]+\s+){1,2}?(?:"
        + lexicon.alternation("negation_not_required_1")
        + r")\b"
    ),
    re.compile(
        r"\b[a-z0-9-]+\s+(?:(?:is|are)\s+)?not\s+(?:"
        + lexicon.alternation("negation_not_required_2")
        + r")\b"
    ),
    re.compile(r"\bno\s+need\s+for\s+(?:an?\s+|the\s+)?[a-z0-9-]+(?:\s+features?)?\b"),
)
"""What the shopper says is not needed ("no bluetooth needed", "a touchscreen is not
required", "no need for smart features"): neither excluded nor searched; "no tools needed"
(`_IDIOMS`) is a feature of its own."""


def find_negations(
    low: str, original: str, mask: SpanMask, *, product_before: int
) -> list[Finding]:
    """Every avoid, exclude and feature must-have of one message, claimed in `mask`; a negation
    before the first product noun (at `product_before`) stops short of it ("no mic earbuds")."""
    max_words = PLANNER_MAX_PHRASE_WORDS.get()
    found: list[Finding] = []
    for pattern, fixed in _IDIOMS:
        for m in pattern.finditer(low):
            if mask.is_free(m.start(), m.end()):
                mask.take(m.start(), m.end())
                term = fixed or m.group(0)
                found.append(Finding("must_have", term, original[m.start() : m.end()], m.start()))
    for pattern in _NOT_REQUIRED:
        for m in pattern.finditer(low):
            if mask.is_free(m.start(), m.end()):
                mask.take(m.start(), m.end())
    for m in _NO_HYPHEN.finditer(low):
        if mask.is_free(m.start(), m.end()):
            mask.take(m.start(), m.end())
            found.append(Finding("must_have", m.group(0), original[m.start() : m.end()], m.start()))
    for pattern in _SOFT:
        for m in pattern.finditer(low):
            found += _object(
                m, "avoid", "single", low, original, mask, max_words, product_before, _SOFT_STOPS
            )
    for m in _VERB_NEG.finditer(low):
        if m.group("want") or m.group("verb"):
            found += _object(m, "exclude", "single", low, original, mask, max_words, product_before)
    for pattern, mode in _HARD:
        for m in pattern.finditer(low):
            found += _object(m, "exclude", mode, low, original, mask, max_words, product_before)
    for m in _NOT.finditer(low):
        if not _MODAL_BEFORE.search(low, max(0, m.start() - 12), m.start()):
            found += _object(m, "exclude", "single", low, original, mask, max_words, product_before)
    for m in _NO.finditer(low):
        found += _no_object(m, low, original, mask, max_words, product_before)
    found += _free_suffix(low, original, mask)
    return sorted(found, key=lambda f: f.start)


def _object(
    m: re.Match[str],
    kind: Kind,
    and_mode: AndMode,
    low: str,
    original: str,
    mask: SpanMask,
    max_words: int,
    product_before: int,
    stops: frozenset[str] = NEGATION_OBJECT_STOPS,
) -> list[Finding]:
    if not mask.is_free(m.start(), m.end()):
        return []
    items = _items(low, m.end(), mask, max_words, and_mode, m.start() < product_before, stops)
    return _claim(items, kind, m.start(), low, original, mask)


def _no_object(
    m: re.Match[str], low: str, original: str, mask: SpanMask, max_words: int, product_before: int
) -> list[Finding]:
    if not mask.is_free(m.start(), m.end()):
        return []
    nxt = tokens(low, m.end(), min(len(low), m.end() + 40))
    if nxt and nxt[0].text in NO_FEATURES:
        end = nxt[0].end
        mask.take(m.start(), end)
        term = low[m.start() : end]
        return [Finding("must_have", term, original[m.start() : end], m.start())]
    items = _items(low, m.end(), mask, max_words, "single", m.start() < product_before)
    return _claim(items, "exclude", m.start(), low, original, mask)


def _items(
    low: str,
    start: int,
    mask: SpanMask,
    max_words: int,
    and_mode: AndMode,
    cut: bool,
    stops: frozenset[str] = NEGATION_OBJECT_STOPS,
) -> list[Phrase]:
    return collect_phrases(
        low,
        start,
        mask,
        max_words=max_words,
        and_mode=and_mode,
        stops=stops,
        share_modifiers=True,
        cut_at_product=cut,
        closed_lists=True,
    )


def _claim(
    items: list[Phrase], kind: Kind, start: int, low: str, original: str, mask: SpanMask
) -> list[Finding]:
    if not items:
        return []
    end = items[-1].end
    mask.take(start, end)
    evidence = original[start:end]
    return [Finding(kind, item.text, evidence, start) for item in items]


def _free_suffix(low: str, original: str, mask: SpanMask) -> list[Finding]:
    """ "sulfate and paraben free": excludes for each ingredient plus the must-have phrase."""
    found: list[Finding] = []
    for m in _FREE.finditer(low):
        word = m.group(1)
        if word in STOP_WORDS or word[0].isdigit() or not mask.is_free(m.start(), m.end()):
            continue
        if word in FREE_FEATURES:
            mask.take(m.start(), m.end())
            found.append(Finding("must_have", m.group(0), original[m.start() : m.end()], m.start()))
            continue
        words, start = [word], m.start()
        while True:
            prev = _FREE_LIST_ITEM.search(low, max(0, start - 40), start)
            if (
                prev is None
                or prev.group(1) not in FREEABLE
                or not mask.is_free(prev.start(), start)
            ):
                break
            words.insert(0, prev.group(1))
            start = prev.start()
        if not mask.is_free(start, m.end()):
            continue
        mask.take(start, m.end())
        evidence = original[start : m.end()]
        found += [Finding("must_have", f"{w} free", evidence, start) for w in words]
        found += [Finding("exclude", w, evidence, start) for w in words]
    return found
