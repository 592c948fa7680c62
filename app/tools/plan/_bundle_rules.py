"""Bundle rules: split "a laptop and a mouse" into one segment per product, never inside an
attribute list ("with a steel frame and a …") nor before a part ("… and a rubber sole"),
and give each budget to the segment it clearly belongs to."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.language import lexicon
from app.tools.plan._budget_rules import BudgetMention, pick_mention
from app.tools.plan._category_rules import CategoryGuess, guess_category
from app.tools.plan._keyword_rules import Bound, keywords
from app.tools.plan._lexicon_rules import AMBIGUOUS_HEADS, ATTRIBUTE_NOUNS
from app.tools.plan._phrase_rules import specs_only
from app.tools.plan._text_rules import STOP_WORDS, Allowed, tokens

_JOINER = re.compile(
    r"(?:(?:,\s*)?(?:\b(?:"
    + lexicon.alternation("bundle_joiner")
    + r")|&)|,)\s+(?:also\s+)?(?:a|an|some|one|another)\s+"
)
"""What joins the next product: a joining word ("and a mouse") or a list's comma ("a
monitor, a keyboard and a mouse")."""
_ATTRIBUTE_CLAUSE = re.compile(r"\b(?:" + lexicon.alternation("bundle_attribute_clause") + r")\b")
_BEFORE_RIGHT_HEAD = re.compile(r"\b(?:" + lexicon.alternation("bundle_before_right_head") + r")\b")
_OVERALL = re.compile(r"\b(?:" + lexicon.alternation("bundle_overall") + r")\b")
_ADD_VERB = r"(?:please\s+)?(?:" + lexicon.alternation("bundle_add_verb") + r")"
_CONTINUES = re.compile(
    rf"^\W*(?:(?:and|plus|also|oh\s+and)\s+(?:(?:i\s+)?(?:need|want)\s+|{_ADD_VERB}\s+)?"
    rf"|{_ADD_VERB}\s+)(?:a|an|some)\s+"
)
_NEW_REQUEST = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|now|next|so|alright|and)[\s,]+)*(?:"
    + lexicon.alternation("bundle_new_request")
    + r")\s+(?:a|an|some|one)\s+"
)
_NEAR_HEAD_TOKENS = 5
_SHARED_PURPOSE = re.compile(r"\s+for\s+(?P<first>[a-z]+)\b")
"""A purpose said after a bundle's last product ("a keyboard and a mouse FOR GAMING"); one
after a determiner ("a charger for THE car", "a case for IT") is that product's alone."""


@dataclass(frozen=True)
class Segment:
    """One product of a request: its text range and its category."""

    start: int
    end: int
    guess: CategoryGuess


def split_bundle(low: str, allowed: Allowed) -> list[Segment]:
    """The products of a multi-item request, in order; one or none when it is no bundle."""
    first = guess_category(low, 0, len(low), allowed)
    if first is None:
        return []
    segments = [Segment(0, len(low), first)]
    for m in _JOINER.finditer(low):
        left = segments[-1]
        if m.start() < left.guess.end or not _allowed_span(low, m.start(), m.end(), allowed):
            continue
        clause = _ATTRIBUTE_CLAUSE.search(low, left.guess.end, m.start())
        if clause is not None and not specs_only(low, clause.group(0), clause.end(), m.start()):
            continue
        near = tokens(low, m.end(), len(low))[:_NEAR_HEAD_TOKENS]
        if not near:
            continue
        right = guess_category(low, m.end(), near[-1].end, allowed)
        if right is None or right.head in ATTRIBUTE_NOUNS or right.head in AMBIGUOUS_HEADS:
            continue
        if _BEFORE_RIGHT_HEAD.search(low, m.end(), right.start):
            continue
        segments[-1] = Segment(left.start, m.start(), left.guess)
        segments.append(Segment(m.start(), len(low), right))
    return segments


def _allowed_span(low: str, start: int, end: int, allowed: Allowed) -> bool:
    """True when every word of `low[start:end]` is free for this rule."""
    return all(allowed(t) for t in tokens(low, start, end))


def continues_bundle(low: str) -> bool:
    """True when a message adds a product to the previous one ("and a mouse too", "also add
    a mouse", "add a mouse")."""
    return bool(_CONTINUES.search(low))


def opens_request(low: str) -> bool:
    """True when a message opens as a request of its own ("now i need a 1tb ssd", "i'm
    looking for a battery"): a part it names is a product to find, not the last one's part."""
    return bool(_NEW_REQUEST.search(low))


def assign_budgets(
    low: str, segments: list[Segment], mentions: tuple[BudgetMention, ...]
) -> tuple[list[BudgetMention | None], list[BudgetMention]]:
    """Per-segment budgets and the mentions left for the plan: a mention belongs to a segment
    that is not the last, or to each when every segment has one; a lone one at the end, or
    one saying "total" / "for both", caps the whole bundle."""
    per: list[list[BudgetMention]] = [[] for _ in segments]
    overall: list[BudgetMention] = []
    for mention in mentions:
        if _OVERALL.search(low, mention.start, min(len(low), mention.end + 25)) or _OVERALL.search(
            low, max(0, mention.start - 25), mention.start
        ):
            overall.append(mention)
            continue
        for idx, seg in enumerate(segments):
            if seg.start <= mention.start < seg.end:
                per[idx].append(mention)
    every = all(per)
    chosen: list[BudgetMention | None] = []
    for idx, found in enumerate(per):
        last = idx == len(segments) - 1
        if found and (not last or every):
            chosen.append(pick_mention(found))
        else:
            chosen.append(None)
            overall += found
    return chosen, overall


def shared_words(
    low: str, segments: Sequence[Segment], allowed: Allowed, bounds: list[Bound]
) -> list[str]:
    """The words of a purpose said after a bundle's last product, which every product of it
    serves ("gaming" of "a keyboard and a mouse for gaming"); none for one product."""
    if len(segments) < 2:
        return []
    last = segments[-1]
    said = _SHARED_PURPOSE.match(low, last.guess.end)
    if said is None or said.group("first") in STOP_WORDS:
        return []
    return keywords(low, said.start("first"), last.end, allowed, bounds)
