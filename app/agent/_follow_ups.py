"""Follow-ups read against what the shopper saw last turn, in two steps around the turn's one
reading: the cues first (a count, a trait question, a reference to a pick, taken out of the
words the planner reads), then, with the planner's reading of the message, what it asks.
"Something cheaper" is a typed change to the plan: a ceiling below the first pick's price,
in its shop's currency ("bigger" or "smaller" likewise, against its screen size; "more
ram" against its memory), kept beside the message so a replay makes it again. "Other
options": the picks shown are left out of this turn's picking. "Is the second one cheaper
elsewhere?": a question about one pick's offers; "is it wireless?": one about what the
picks' listings say; "make it 2": how many of the picks to buy."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from app.agent._relative_changes import (
    BIGGER,
    CHEAPER,
    ELSEWHERE,
    MORE_OF,
    MOST_UNITS,
    PRICIER,
    SMALLER,
    more_of_part,
    relative_garment_size,
    relative_price,
    relative_size,
)
from app.agent.events import PickView
from app.agent.session import Session
from app.catalog.product_nouns import singular, tokens
from app.catalog.spelling import Speller
from app.language import lexicon
from app.language.lexicon import number_words, ordinals
from app.tools.plan import PlanChange, ShoppingPlan

_OTHER_OPTIONS = re.compile(lexicon.alternation("follow_ups_other_options"))
_MOST = re.compile(
    r"\b(?:"
    + lexicon.alternation("follow_ups_most")
    + r")\s+(?P<part>"
    + "|".join([lexicon.alternation("follow_ups_more_of"), *map(re.escape, MOST_UNITS)])
    + r")\b"
)
"""Which pick shown has the most of a part ("which one has the most ram?", "the biggest
screen?")."""
_PRICE_RANK = re.compile(
    r"\b(?:"
    + lexicon.alternation("follow_ups_price_rank_lead")
    + r")\s+(?:(?P<cheapest>"
    + lexicon.alternation("follow_ups_cheapest")
    + r")|(?P<priciest>"
    + lexicon.alternation("follow_ups_priciest")
    + r"))\b"
)
"""Which pick shown costs least or most ("which one is the cheapest?", "which of the two
costs more?"); a price asked of another shop is an offer question instead."""
_ORDINALS = ordinals()
_PICK_REFERENCE = re.compile(
    r"\b(?:the\s+)?("
    + lexicon.alternation("follow_ups_pick_reference")
    + r")\s+(?:one|pick|option|item)\b|(?:#|\bnumber\s+|\bno\.\s*|\bpick\s+)([1-3])\b"
)
_OFFER_QUESTION = re.compile(
    r"\b(?:"
    + lexicon.alternation("follow_ups_offer_question")
    + (
        r")\b|\b(?:i'?ll\s+take|i\s+will\s+take|go\s+with|i'?ll\s+buy|"
        r"tell\s+me\s+more|more\s+about|details)\b"
    )
)
"""A question about a pick's price or shops, or the shopper choosing it ("i'll take the
second one"): either is answered with its price and offers."""


_COUNTS = number_words("quantity")
_COUNT = r"(?P<count>[2-9]|1[0-2]|" + "|".join(r"\s+".join(w.split()) for w in _COUNTS) + ")"
"""How many the shopper wants: 2 to 12 in digits, or a count word ("three", "a couple")."""
_COUNT_ONLY = re.compile(
    (r"\s*(?:(?:" + lexicon.alternation("follow_ups_count_only_1") + r")[\s,]+)?(?:")
    + lexicon.alternation("follow_ups_count_only")
    + rf")?\s*{_COUNT}\s*(?:of\s+(?:them|those|these|it)|"
    + lexicon.alternation("follow_ups_count_units")
    + r")?[\s,]*(?:please|then|thanks)?[\s.!?]*"
)
"""A message asking only how many to buy ("make it 2", "i need three of them", "2 please")."""
_COUNT_OF = re.compile(rf"\b{_COUNT}\s+of\s+$")
"""A count of the pick named right after it ("how much would 3 OF the second one cost?")."""
_BEST = re.compile(lexicon.alternation("follow_ups_best"))
_COMPARED = r"(?:the\s+)?(?:" + lexicon.alternation("follow_ups_compare") + r")\b"
_COMPARE = re.compile(
    rf"\bcompare\s+{_COMPARED}|\bdifferences?\s+between\s+{_COMPARED}"
    r"|\b(?:" + lexicon.alternation("follow_ups_compare_questions") + r")\b"
)
"""Questions about the picks shown ("which one is best?", "compare the first two", "what's
the difference between the first two?"), answered from them without searching again."""
_TRAIT_QUESTION = re.compile(
    (
        r"(?:(?:(?:"
        + lexicon.alternation("follow_ups_trait_topic_lead")
        + r")\s+)?(?P<topic>"
        + _PICK_REFERENCE.pattern
        + r")[\s,]+)?"
        + r"(?:(?:"
        + lexicon.alternation("follow_ups_trait_question_1")
        + r")[\s,]+)?(?:is|are|does|do)\s+(?P<subject>"
    )
    + lexicon.alternation("follow_ups_trait_question")
    + (
        r")\s+(?:(?:have|has|come\s+with|support|include)\s+)?(?:an?\s+|"
        r"any\s+)?(?P<trait>[a-z0-9][a-z0-9 +.-]*?)[\s?.!]*"
    )
)
"""A yes-or-no question about what a pick is or has ("is it wireless?", "does the second
one have hdmi?"), answered from what its listing says; a pick named first is what "it" means
("what about the second one, does it have ethernet?")."""
_IT = re.compile(r"\b(?:" + lexicon.alternation("follow_ups_it_pick") + r")\b")
"""The pick a question about another shop's price means without naming one: the first."""
_NO_TRAITS = lexicon.word_set("follow_ups_no_traits")
"""Words a listing cannot answer for: asked of a pick, they are no trait to look up."""


@dataclass(frozen=True)
class FollowUp:
    """How one message follows up on the last turn's picks."""

    planned: str | None
    """The words the plan is read from: without the reference to a pick when the message
    follows up on the picks, else as written; None for a message that changes no plan (a
    question about a pick)."""
    note: str | None = None
    asked_about: PickView | None = None
    shown_before: frozenset[str] = frozenset()
    count: int | None = None
    """How many of the last picks the shopper wants, when that is all the message asks."""
    count_picks: tuple[PickView, ...] = ()
    """The pick the count is asked of ("3 of the second one"); none: every pick shown."""
    question: str | None = None
    """"best", "compare", "most", "cheapest" or "priciest": a question about the picks
    shown, answered from them."""
    question_part: str | None = None
    """The part a "most" question asks of ("ram" of "which one has the most ram?")."""
    trait: str | None = None
    """What a yes-or-no question asks of picks ("wireless" of "is it wireless?")."""
    trait_picks: tuple[PickView, ...] = ()
    """The picks the trait question is about: the one named, else every pick shown."""
    question_picks: int | None = None
    """How many of the first picks the question is about ("the first two"); None: all."""
    change: PlanChange | None = None
    """The typed change the message makes to the plan against the picks shown."""


@dataclass(frozen=True)
class FollowUpCues:
    """What a message says before the planner reads it: `text`, the words it reads (a
    reference to a pick taken out), and `settled`, the follow-up when the cues alone
    decide it (a count, a trait question: no reading needed)."""

    message: str
    low: str
    text: str
    settled: FollowUp | None = None
    reference: re.Match[str] | None = None


def follow_up_cues(message: str, session: Session, speller: Speller | None = None) -> FollowUpCues:
    """The cues of a message against the last turn's picks (see `read_follow_up`); with a
    speller they are read through slips ("too expensiv"); the planner gets the shopper's
    words, which it respells itself."""
    read = speller.text(message)[0] if speller is not None else message
    low = read.lower()
    reference = _PICK_REFERENCE.search(low)
    written = _PICK_REFERENCE.search(message.lower())
    if reference is not None and not session.picks:
        written = None  # no pick shown yet ("a number 2 pencil"): words to read as written
    text = message if written is None else _without(message, written) or message
    cues = FollowUpCues(message, low, text, reference=reference)
    counted = _COUNT_ONLY.fullmatch(low)
    if counted is not None and session.picks:
        return dataclasses.replace(cues, settled=FollowUp(None, count=_count(counted)))
    of_pick = _COUNT_OF.search(low, 0, reference.start()) if reference is not None else None
    picked = _pick_at(reference, session.picks) if reference is not None else None
    if of_pick is not None and picked is not None:
        counted_pick = FollowUp(None, count=_count(of_pick), count_picks=(picked,))
        return dataclasses.replace(cues, settled=counted_pick)
    if _question(low) is not None and len(session.picks) > 1:
        return cues
    return dataclasses.replace(cues, settled=_trait_question(low, session))


def read_follow_up(cues: FollowUpCues, session: Session, latest: ShoppingPlan) -> FollowUp:
    """What the message asks, given `latest`, the planner's reading of its words alone: a
    price question or a choice about one pick, a bundle's too ("is the second one cheaper
    elsewhere?", "i'll take the first one", "the second one please": a reference asking
    nothing else); and when it follows up on them (there are picks, no bundle, and it names
    no other product) a relative price ("cheaper": under the first pick, "more expensive":
    over it, unless an amount is stated or another shop asked about) as a typed change; a
    request for other options ("any others?"), which leaves out every pick shown for the
    request; a reference to a pick is no keyword ("i want the second one in black" plans
    "i want in black"); "which one is best?" and "compare the first two" ask about the
    picks shown, and "is it wireless?" asks a trait of them."""
    if cues.settled is not None:
        return cues.settled
    low, reference = cues.low, cues.reference
    question = _question(low)
    most = _MOST.search(low)
    part = most.group("part") if most is not None else None
    if question is not None and len(session.picks) > 1 and latest.category in {None, part}:
        compared = _COMPARE.search(low) or most or _PRICE_RANK.search(low)
        two = compared is not None and re.search(r"\b(?:two|both)\b", compared.group(0))
        return FollowUp(
            None, question=question, question_picks=2 if two else None, question_part=part
        )
    asked_trait = _trait_question(low, session)
    if asked_trait is not None:
        return asked_trait
    if reference is not None and (_OFFER_QUESTION.search(low) or not latest.is_shopping):
        asked = _pick_at(reference, session.picks) if _about_picks(latest, session.plan) else None
        if asked is not None:
            return FollowUp(None, asked_about=asked)
    elsewhere = reference is None and _IT.search(low) and ELSEWHERE.search(low)
    if elsewhere and session.picks and _about_picks(latest, session.plan):
        return FollowUp(None, asked_about=session.picks[0])  # "it": the first pick
    if not _follows(latest, session.plan, session.picks) and not _more_of_picks(
        low, latest, session
    ):
        return FollowUp(cues.message)
    first = session.picks[0]
    price, note = relative_price(low, first)
    shown: frozenset[str] = frozenset()
    if _OTHER_OPTIONS.search(low) or price:  # "cheaper ones" asks for others than those seen
        shown = frozenset(session.shown) | {p.item_id for p in session.picks}
    size, sized = relative_size(low, first.title)
    if not size:
        size, sized = relative_garment_size(low, first)
    part, grown = more_of_part(low, first.title) if not (price or size) else ({}, None)
    change = PlanChange.model_validate({**price, **size, **part}) if price or size or part else None
    notes = [n for n in (note, sized, grown) if n]
    return FollowUp(cues.text, "; ".join(notes) or None, shown_before=shown, change=change)


def _question(low: str) -> str | None:
    """ "best", "compare", "most", "cheapest" or "priciest" when the message asks it of the
    picks shown."""
    if _MOST.search(low):
        return "most"
    ranked = _PRICE_RANK.search(low)
    if ranked is not None and not ELSEWHERE.search(low):
        return "cheapest" if ranked.group("cheapest") else "priciest"
    return "best" if _BEST.search(low) else "compare" if _COMPARE.search(low) else None


def _trait_question(low: str, session: Session) -> FollowUp | None:
    """A yes-or-no question about what the picks shown are or have ("is it wireless?", "are
    they waterproof?", "does the second one have hdmi?"); None for one about price, size or
    other picks ("is it cheaper?", "do they have a red one?"), which the planner reads."""
    asked = _TRAIT_QUESTION.fullmatch(low)
    if asked is None or not session.picks:
        return None
    words = asked.group("trait").split()
    trait = " ".join(words)
    relative = (CHEAPER, PRICIER, BIGGER, SMALLER, _OFFER_QUESTION, _OTHER_OPTIONS)
    if trait in _NO_TRAITS or {words[0], words[-1]} & {"one", "ones"}:
        return None
    if any(cue.search(trait) for cue in relative):
        return None
    if asked.group("named"):
        named = _naming(asked.group("named"), session.picks)
        return FollowUp(None, trait=trait, trait_picks=named) if named else None
    reference = _PICK_REFERENCE.search(asked.group("subject"))
    if reference is None and asked.group("topic"):
        reference = _PICK_REFERENCE.search(asked.group("topic"))
    picked = _pick_at(reference, session.picks) if reference is not None else None
    if reference is not None and picked is None:
        return None
    picks = (picked,) if picked is not None else tuple(session.picks)
    return FollowUp(None, trait=trait, trait_picks=picks)


def _naming(noun: str, picks: list[PickView]) -> tuple[PickView, ...]:
    """The picks whose titles name `noun` ("the mouse" of a keyboard and a mouse)."""
    wanted = singular(noun)
    return tuple(p for p in picks if wanted in map(singular, tokens(p.title)))


def _more_of_picks(low: str, asks: ShoppingPlan, session: Session) -> bool:
    """Whether "more ram" (memory, storage) asks it of the picks shown: the part is the only
    product the message names ("something with more ram" plans a category "ram")."""
    asked = MORE_OF.search(low)
    if asked is None or asks.category not in {None, asked.group("part").lower()}:
        return False
    return _follows(asks.model_copy(update={"category": None}), session.plan, session.picks)


def _without(message: str, reference: re.Match[str]) -> str:
    """The message without the reference to a pick."""
    before, after = message[: reference.start()].rstrip(), message[reference.end() :].lstrip()
    return f"{before} {after}".strip()


def _count(found: re.Match[str]) -> int:
    word = " ".join(found.group("count").split())
    return _COUNTS.get(word) or int(word)


def _pick_at(reference: re.Match[str], picks: list[PickView]) -> PickView | None:
    word, digit = reference.groups()
    index = int(digit) - 1 if digit else _ORDINALS[word]
    return picks[index] if -len(picks) <= index < len(picks) else None


def _about_picks(asks: ShoppingPlan, plan: ShoppingPlan | None) -> bool:
    """Whether a question that `asks` this can be about the last picks, a bundle's too: it
    names no product, or one the plan asked for."""
    if plan is None:
        return False
    return asks.category in {None, plan.category, *(part.category for part in plan.bundle)}


def _follows(asks: ShoppingPlan, plan: ShoppingPlan | None, picks: list[PickView]) -> bool:
    """Whether a message that `asks` this follows up on the last turn's picks of one
    product: there are picks, no bundle, and the message names no other product."""
    if plan is None or plan.bundle or not picks:
        return False
    return asks.category is None or asks.category == plan.category
