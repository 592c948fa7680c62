"""Preference rules: prefer ("preferably X", "X if possible", "X is preferred") and must-have
("must have X", "needs to be X", "that has X", "with X", "non-X"); conservative on purpose:
a cue word is required and the phrase after it stops at the first function word."""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet

from app.catalog.specs import Quantity, joined_by_or, quantities
from app.config.params.planner import PLANNER_MAX_PHRASE_WORDS
from app.language import lexicon
from app.tools.plan._amount_rules import is_unit
from app.tools.plan._lexicon_rules import (
    COMPOUND_MODIFIERS,
    PRODUCT_PRONOUNS,
    PURPOSE_NOUNS,
    WITH_GUARD,
    is_product_noun,
)
from app.tools.plan._negation_rules import Finding, Kind
from app.tools.plan._phrase_rules import Phrase, collect_phrases
from app.tools.plan._text_rules import (
    NUMBER_WORDS,
    STOP_WORDS,
    SpanMask,
    Token,
    clause_start,
    tokens,
    word_set,
)
from app.tools.plan.catalog_words import current_vocabulary

_PREFER_FORWARD = re.compile(
    r"\b(?:" + lexicon.alternation("preference_prefer_forward") + r")\b[\s,]*"
)
_PREFER_BACKWARD = re.compile(
    (r"(?:\s+(?:" + lexicon.alternation("preference_prefer_backward_1") + r")(?:\s+most)?)?\s+(?:")
    + lexicon.alternation("preference_prefer_backward")
    + r")\b|\s+would\s+be\s+(?:nice|great|ideal)\b"
)
_MUST = (
    re.compile(
        r"\b(?:must|has\s+to|have\s+to|needs?\s+to|should|gotta)\s+(?:also\s+)?(?:"
        + lexicon.alternation("preference_must_1")
        + r")\s+(?!able\s+to\b)"
    ),
    re.compile(
        r"\b(?:that|which|it|they|also)\s+(?:" + lexicon.alternation("preference_must_2") + r")\s+"
    ),
    re.compile(r"\b(?:must[-\s]haves?\s*:?|including)\s+"),
)
_WITH = re.compile(r"\bwith\s+")
_SUPPORT_FOR = re.compile(r"(?:support|supports)\s+(?:for|of)\s+")
"""What "with support for" leads to is the must-have ("with support for sd cards")."""
_PERSON_WITH = lexicon.word_set("preference_person_with")
_COUNTED = re.compile(
    r"(?:" + lexicon.alternation("preference_quantifiers") + r")(?:\s+(?P<counted>[a-z].*))?"
)
_NON = re.compile(r"\bnon[-\s]([a-z][a-z-]*)\b")
_PURPOSE_WORDS = r"(?P<first>[a-z]+)(?:\s+(?P<second>(?!for\b)[a-z]+))?"
_PURPOSE = re.compile(
    r"\bfor\s+(?:(?:" + lexicon.alternation("preference_purpose") + r")\s+)?" + _PURPOSE_WORDS
)
_OWNED_PURPOSE = re.compile(r"(?<=[a-z])(?:'s|s')\s+" + _PURPOSE_WORDS)
"""A purpose after a possessive ("for my wife's BIRTHDAY"), whose "for my wife" names who."""
_SEEKING = lexicon.word_set("preference_seeking")
_LEAD_VERBS = lexicon.word_set("preference_lead_verbs")
_LEAD_WORDS = lexicon.word_set("preference_lead_words")
_MODALS = lexicon.word_set("preference_modals")
_ADVERBS = lexicon.word_set("preference_adverbs")
_CLAUSE_WORDS = lexicon.word_set("preference_clause_words")
_BACKWARD_FILLERS = lexicon.word_set("preference_backward_fillers")


def find_preferences(low: str, original: str, mask: SpanMask) -> list[Finding]:
    """Every prefer and must-have item of one message; claims their spans in `mask`."""
    max_words = PLANNER_MAX_PHRASE_WORDS.get()
    found: list[Finding] = []
    for m in _PREFER_FORWARD.finditer(low):
        if not mask.is_free(m.start(), m.end()):
            continue
        items = _collect(low, _skip_lead(low, m.end()), mask, max_words)
        if items:
            found += _claim(items, "prefer", m.start(), (low, original), mask)
        elif m.group(0).startswith("if"):
            found += _backward(low, original, mask, m.start(), m.end(), max_words)
    for m in _PREFER_BACKWARD.finditer(low):
        if mask.is_free(m.start(), m.end()):
            found += _backward(low, original, mask, m.start(), m.end(), max_words)
    found += _purposes(low, original, mask)
    for m in _NON.finditer(low):
        if m.group(1) not in STOP_WORDS and mask.is_free(m.start(), m.end()):
            mask.take(m.start(), m.end())
            found.append(Finding("must_have", m.group(0), original[m.start() : m.end()], m.start()))
    for pattern in _MUST:
        for m in pattern.finditer(low):
            if mask.is_free(m.start(), m.end()):
                items = _collect(low, _skip_lead(low, m.end()), mask, max_words, digits=True)
                found += _claim(items, "must_have", m.start(), (low, original), mask)
    for m in _WITH.finditer(low):
        if not _is_requirement(low, m) or not mask.is_free(m.start(), m.end()):
            continue
        support = _SUPPORT_FOR.match(low, m.end())
        items = _collect(low, support.end() if support else m.end(), mask, max_words, digits=True)
        person = _person_before(low, m)
        if person is not None and items:
            mask.take(person.start, person.end)
        kind: Kind = "must_have" if person is None else "prefer"
        found += _claim(items, kind, m.start(), (low, original), mask)
    found += _traits_of_ones(low, original, mask)
    found += _only_brands(low, original, mask)
    return sorted(found, key=lambda f: f.start)


_ONLY_LEADS = frozenset(("from", "by", "made"))
_BRAND_WORDS = 3
"""The most words of a brand name read beside "only" ("bang & olufsen" is three)."""


def _only_brands(low: str, original: str, mask: SpanMask) -> list[Finding]:
    """A brand of the catalog said with "only" ("only razer", "samsung only", "only from
    sony") is a must-have, not one more search word: nothing else will do."""
    brands = current_vocabulary().brands
    toks = tokens(low)
    found: list[Finding] = []
    for i, tok in enumerate(toks):
        if tok.text != "only":
            continue
        after = i + 1
        while after < len(toks) and toks[after].text in _ONLY_LEADS:
            after += 1
        named = _brand_in(toks[after : after + _BRAND_WORDS], brands, from_start=True)
        named = named or _brand_in(toks[max(0, i - _BRAND_WORDS) : i], brands, from_start=False)
        if named is None:
            continue
        start, end = min(tok.start, named[0].start), max(tok.end, named[-1].end)
        if mask.is_free(start, end):
            mask.take(start, end)
            brand = low[named[0].start : named[-1].end]
            found.append(Finding("must_have", brand, original[start:end], start))
    return found


def _brand_in(
    words: list[Token], brands: AbstractSet[str], *, from_start: bool
) -> list[Token] | None:
    """The longest run of `words` at their start (or end) that is a brand's name."""
    for n in range(len(words), 0, -1):
        run = words[:n] if from_start else words[len(words) - n :]
        name = " ".join(t.text for t in run)
        if name in brands and name not in STOP_WORDS and name not in NUMBER_WORDS:
            return run
    return None


_ONES = re.compile(r"\bones?\b")
_NO_TRAITS = lexicon.word_set("preference_no_traits")
"""Words before "ones" that compare, point or make a name rather than name a trait
("cheaper ones", "other ones", "the second one", "another one", "xbox one")."""
_BARE_MARKS = lexicon.word_set("preference_bare_marks")
"""Words that name no trait alone ("light colored one" asks a colour this does not say)."""
_COLOR_MARKS = word_set("colored coloured")
"""Titles say the colour alone: "black colored one" asks for "black"."""
_SIZE_WORDS = word_set("size sized")
_ONES_REACH = 3
_BREAK = re.compile(r"[.,;:!?*|(]")
_PICKING_VERBS = lexicon.word_set("preference_picking_verbs")


def _trait_word(word: str) -> bool:
    """Whether a word before "ones" may name its trait: no stop word, comparison, verb of
    choosing, amount or product noun ("the 52 inch ones" are sized, not a trait)."""
    if word in STOP_WORDS or word in _NO_TRAITS or word in _PICKING_VERBS or word in _SIZE_WORDS:
        return False
    if word[:1].isdigit() or is_unit(word) or word in NUMBER_WORDS:
        return False
    return not is_product_noun(word)


def _traits_of_ones(low: str, original: str, mask: SpanMask) -> list[Finding]:
    """ "any wireless ones?", "the black one": the trait asked of the product already
    planned, a must-have as "with bluetooth" is; comparisons and pointers are no trait."""
    found = []
    for m in _ONES.finditer(low):
        before = tokens(low, max(0, m.start() - 40), m.start())
        words: list[Token] = []
        for tok in reversed(before):
            end = words[0].start if words else m.start()
            if len(words) == _ONES_REACH or _BREAK.search(low, tok.end, end):
                break
            if not _trait_word(tok.text):
                words = [] if low.startswith("-", tok.end) else words
                break
            words.insert(0, tok)
        if not words or all(w.text in _BARE_MARKS for w in words):
            continue
        if not mask.is_free(words[0].start, m.end()):
            continue
        if any(w.text in _NO_TRAITS for w in before[-len(words) - 1 :]):
            continue
        mask.take(words[0].start, m.end())
        term = " ".join(w.text for w in words if w.text not in _COLOR_MARKS)
        found.append(Finding("must_have", term, original[words[0].start : m.end()], words[0].start))
    return found


def must_cue_before(low: str, start: int) -> int | None:
    """Where a must-have cue ending right at `start` begins ("with ", "that has "), if any:
    "with at least 16gb ram" asks for the minimum as a must-have."""
    for pattern in (*_MUST, _WITH):
        for m in pattern.finditer(low, max(0, start - 40), start):
            if m.end() == start and _is_requirement(low, m):
                return m.start()
    return None


def _is_requirement(low: str, m: re.Match[str]) -> bool:
    """False for "with" after a word that makes it no requirement ("compatible with")."""
    if not m.group(0).startswith("with"):
        return True
    before = _word_before(low, m.start())
    return before is None or before.text not in WITH_GUARD


def _person_before(low: str, m: re.Match[str]) -> Token | None:
    """The word for a person "with" follows, if any: "for someone with small hands" tells
    who the product is for, a wish rather than a phrase its title states."""
    before = _word_before(low, m.start())
    return before if before is not None and before.text in _PERSON_WITH else None


def _word_before(low: str, at: int) -> Token | None:
    """The word right before `at`, if one ends within 20 characters of it."""
    before = tokens(low, max(0, at - 20), at)
    return before[-1] if before else None


def _purposes(low: str, original: str, mask: SpanMask) -> list[Finding]:
    """ "for school", "for zoom calls", "for my wife's birthday": what the product is used for,
    a preference rather than a search word. The purpose noun ends the phrase; a word before
    it joins unless it is a stop word; a product noun after it makes the phrase a target
    ("for my movie camera")."""
    found = []
    for m in [*_PURPOSE.finditer(low), *_OWNED_PURPOSE.finditer(low)]:
        first, second = m.group("first"), m.group("second")
        if second in PURPOSE_NOUNS:
            words, end = ([first, second] if first not in STOP_WORDS else [second]), m.end()
        elif first in PURPOSE_NOUNS and not is_product_noun(second or ""):
            words, end = [first], m.end("first")
        else:
            continue
        start = m.start("first") if m.re is _OWNED_PURPOSE else m.start()
        if not mask.is_free(start, end) or _names_a_target(low, start, end):
            continue
        mask.take(start, end)
        found.append(Finding("prefer", " ".join(words), original[start:end], start))
    return found


def _names_a_target(low: str, start: int, end: int) -> bool:
    """Whether a "for <purpose>" phrase names the product itself: "looking for a home office
    chair", "for a travel bottle" (a product noun or a compound's modifier follows)."""
    before = tokens(low, max(0, start - 12), start)
    if before and before[-1].text in _SEEKING:
        return True
    after = tokens(low, end, min(len(low), end + 30))
    return bool(after) and (is_product_noun(after[0].text) or after[0].text in COMPOUND_MODIFIERS)


def _collect(
    low: str, start: int, mask: SpanMask, max_words: int, *, digits: bool = False
) -> list[Phrase]:
    return collect_phrases(
        low,
        start,
        mask,
        max_words=max_words,
        and_mode="always",
        allow_digit_start=digits,
    )


def _skip_lead(low: str, start: int) -> int:
    """Skip "the flavor should be", "it will have", "very", "something" before the wish."""
    toks = tokens(low, start, min(len(low), start + 80))[:7]
    for idx, tok in enumerate(toks):
        if tok.text in _LEAD_VERBS:
            lead = [t.text for t in toks[:idx]]
            unknown = [w for w in lead if w not in _LEAD_WORDS]
            if len(unknown) <= 2 and (not unknown or any(w in _MODALS for w in lead)):
                start = tok.end
                toks = toks[idx + 1 :]
            break
    for tok in toks:
        if tok.text not in _ADVERBS and tok.text not in PRODUCT_PRONOUNS:
            break
        start = tok.end
    return start


def _backward(
    low: str, original: str, mask: SpanMask, cue_start: int, cue_end: int, max_words: int
) -> list[Finding]:
    """ "sky blue and large is preferred": the items of the clause before the cue."""
    begin = clause_start(low, cue_start)
    if not low[begin:cue_start].strip() and begin > 0:
        begin = clause_start(low, begin - 1)
    toks = [t for t in tokens(low, begin, cue_start) if mask.is_free(t.start, t.end)]
    cuts = [k for k, t in enumerate(toks) if t.text in _CLAUSE_WORDS]
    if cuts:
        toks = toks[cuts[-1] + 1 :]
    while toks and toks[0].text in _BACKWARD_FILLERS:
        toks.pop(0)
    groups: list[list[str]] = [[]]
    for tok in toks:
        if tok.text in {"and", "or"}:
            groups.append([])
        elif tok.text not in STOP_WORDS or tok.text[0].isdigit():
            groups[-1].append(tok.text)
    items = [" ".join(g[-max_words:]) for g in groups if g]
    if not items or not toks:
        return []
    mask.take(toks[0].start, cue_end)
    evidence = original[toks[0].start : cue_end]
    return [Finding("prefer", item, evidence, toks[0].start) for item in items]


def _claim(
    items: list[Phrase], kind: Kind, start: int, texts: tuple[str, str], mask: SpanMask
) -> list[Finding]:
    """Findings of `kind` for the items after a cue at `start`, claimed in `mask`; `texts`
    the message lower-cased (same offsets) and as written."""
    if not items:
        return []
    low, original = texts
    items = _with_alternatives(low, [p for item in items for p in _one_per_part(low, item)])
    mask.take(start, items[-1].end)
    evidence = original[start : items[-1].end]
    found = [_uncounted(Finding(kind, item.text, evidence, start)) for item in items]
    return [f for f in found if f is not None]


def _uncounted(finding: Finding) -> Finding | None:
    """ "with lots of devices": a count is no phrase a title states; more of what is counted
    is a wish (prefer "devices"), where the counted phrase would filter every item out; a
    count of nothing named ("many features") asks nothing."""
    m = _COUNTED.fullmatch(finding.term)
    if m is None:
        return finding
    counted = m.group("counted")
    return Finding("prefer", counted, finding.evidence, finding.start) if counted else None


def _one_per_part(low: str, item: Phrase) -> list[Phrase]:
    """An item that sizes several parts one after another as one item per part ("8gb ram
    128gb ssd" -> "8gb ram", "128gb ssd"): each part is asked on its own; an item whose words
    the text does not spell as written stays whole."""
    found = [q for q in quantities(low[item.start : item.end]) if q.part is not None]
    if len(found) < 2:
        return [item]
    cuts = [item.start + _sized_from(low[item.start : item.end], q) for q in found[1:]]
    starts, ends = [item.start, *cuts], [*cuts, item.end]
    phrases = [
        Phrase(tuple(low[a:b].split()), a, a + len(low[a:b].rstrip()))
        for a, b in zip(starts, ends, strict=True)
    ]
    words = tuple(w for p in phrases for w in p.words)
    return phrases if words == item.words else [item]


def _sized_from(text: str, quantity: Quantity) -> int:
    """Where the words of a sized part start: at its amount, or at the part's name when it
    comes first ("ram 8gb")."""
    if not quantity.named_first:
        return quantity.start
    return text.rstrip()[: quantity.start].rstrip().rfind(" ") + 1


def _with_alternatives(low: str, items: list[Phrase]) -> list[Phrase]:
    """Items that are amounts of one measure joined by "or" as one item ("with 8gb or 16gb
    ram" -> "8gb or 16gb ram"): either serves, where two items would ask for both."""
    out = [items[0]]
    for item in items[1:]:
        last = out[-1]
        if _alternative_of(low, last, item):
            out[-1] = Phrase((*last.words, "or", *item.words), last.start, item.end)
        else:
            out.append(item)
    return out


def _alternative_of(low: str, last: Phrase, item: Phrase) -> bool:
    """Whether `last` is one amount only and `item` starts with one of the same measure
    after an "or" (`joined_by_or`)."""
    found = quantities(low[last.start : item.end])
    if len(found) < 2 or found[0].reach != (0, last.end - last.start):
        return False
    return found[1].start == item.start - last.start and joined_by_or(
        low[last.start : item.end], found[0], found[1]
    )
