"""Lift rules: a later message takes back a constraint ("actually Logitech is fine"). A lift
names words; every exclude or avoid whose term they cover is dropped. Lifts add nothing."""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.language import lexicon
from app.tools.plan._phrase_rules import collect_phrases
from app.tools.plan._text_rules import SpanMask, clause_start, tokens

_FORWARD = re.compile(r"\b(?:" + lexicon.alternation("lift_forward") + r")\s+")
_BACKWARD = re.compile(
    r"\s+(?:is|are|'s|would\s+be|will\s+be|is\s+also|are\s+also|also)\s+(?:"
    + lexicon.alternation("lift_backward")
    + r")(?:\s+(?:too|as\s+well|after\s+all|with\s+me))?\b|\s+works?\s+(?:too|as\s+well|for\s+me)\b"
)
_FILLERS = lexicon.word_set("lift_fillers")


@dataclass(frozen=True)
class Lift:
    """Words that take back a constraint, the shopper's own words, and where they are."""

    words: frozenset[str]
    evidence: str
    start: int

    def covers(self, term: str) -> bool:
        """True when this lift names `term` (all of its words, or it names only part of it)."""
        term_words = set(term.split())
        return bool(self.words) and (term_words <= self.words or self.words <= term_words)


def find_lifts(low: str, original: str, mask: SpanMask, *, max_words: int) -> list[Lift]:
    """Every lift in one message; claims its words so they become no keywords."""
    lifts: list[Lift] = []
    for m in _BACKWARD.finditer(low):
        begin = clause_start(low, m.start())
        words = [t.text for t in tokens(low, begin, m.start())]
        while words and words[0] in _FILLERS:
            words.pop(0)
        kept = frozenset(w for w in words[-max_words:] if w not in _FILLERS)
        if kept and mask.is_free(begin, m.end()):
            mask.take(begin, m.end())
            lifts.append(Lift(kept, original[begin : m.end()].strip(), begin))
    for m in _FORWARD.finditer(low):
        if not mask.is_free(m.start(), m.end()):
            continue
        items = collect_phrases(low, m.end(), mask, max_words=max_words, and_mode="always")
        if not items:
            continue
        mask.take(m.start(), items[-1].end)
        evidence = original[m.start() : items[-1].end]
        for item in items:
            kept = frozenset(w for w in item.words if w not in _FILLERS)
            if kept:
                lifts.append(Lift(kept, evidence, m.start()))
    return sorted(lifts, key=lambda lift: lift.start)
