"""Follow-ups read against what the shopper saw last turn. "Something cheaper": the planner
replays the recent messages and reads stated amounts only, so the message is kept for
planning with the amount it means ("something cheaper (under $23.09)"), read once against
the first pick; the conversation keeps the words as written. "Other options": the picks
shown are left out of this turn's picking. "Is the second one cheaper elsewhere?": a
question about one pick's offers."""

from __future__ import annotations

import re

from app.agent.events import PickView
from app.agent.session import Session
from app.tools.planner_rules import plan_from_text
from app.tools.shopping_plan import ShoppingPlan

_CHEAPER = re.compile(
    r"\b(?:cheaper|less\s+expensive|lower[\s-]priced|more\s+affordable|too\s+(?:expensive|pricey))\b"
)
_PRICIER = re.compile(r"\b(?:pricier|more\s+expensive|higher[\s-]end|too\s+cheap)\b")
_ELSEWHERE = re.compile(
    r"\b(?:elsewhere|anywhere|somewhere\s+else|(?:another|other)\s+(?:shops?|stores?|sites?))\b"
)
"""A price asked of another shop ("is it cheaper elsewhere?") is about the same item."""
_OTHER_OPTIONS = re.compile(
    r"\b(?:other|more|different|another|else)\s+(?:[a-z-]+\s+)?(?:options?|ones?|picks?|choices?|"
    r"suggestions?|models?)\b|\bshow\s+me\s+more\b|\bany\s*thing\s+else\b|\bothers\b"
)
_AMOUNT = re.compile(r"\d")
_ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "last": -1}
_PICK_REFERENCE = re.compile(
    r"\b(?:the\s+)?(first|1st|second|2nd|third|3rd|last)\s+(?:one|pick|option|item)\b"
    r"|(?:#|\bnumber\s+|\bno\.\s*|\bpick\s+)([1-3])\b"
)
_OFFER_QUESTION = re.compile(
    r"\b(?:cheaper|price|prices|priced|cost|costs|deal|deals|offers?|compare|elsewhere|"
    r"anywhere|other\s+(?:shops?|stores?|sites?)|where\s+(?:can|to|do)|buy\s+it)\b"
    r"|\b(?:i'?ll\s+take|i\s+will\s+take|go\s+with|i'?ll\s+buy|tell\s+me\s+more|more\s+about|"
    r"details)\b"
)
"""A question about a pick's price or shops, or the shopper choosing it ("i'll take the
second one"): either is answered with its price and offers."""


def with_relative_price(message: str, session: Session) -> tuple[str, str | None]:
    """The message as the planner should read it, and a note when a relative price was read:
    "cheaper" is under the last turn's first pick, "more expensive" over it. The message
    stays as written when it states an amount, asks about another shop, names another
    product, or follows a bundle or a turn without a priced first pick."""
    low = message.lower()
    cheaper, pricier = bool(_CHEAPER.search(low)), bool(_PRICIER.search(low))
    if cheaper == pricier or _AMOUNT.search(low) or _ELSEWHERE.search(low):
        return message, None
    if not _follows(message, session.plan, session.picks):
        return message, None
    price = session.picks[0].price_usd
    if price is None:
        return message, None
    if cheaper:
        limit = f"under ${price - 0.01:,.2f}"
        return f"{message} ({limit})", f"read 'cheaper' as {limit}, below the last first pick"
    limit = f"over ${price + 0.01:,.2f}"
    return f"{message} ({limit})", f"read 'more expensive' as {limit}, above the last first pick"


def shown_to_skip(message: str, session: Session) -> frozenset[str]:
    """The ids of the picks shown for the request when the message asks for other options of
    it ("show me other options", "any others?"), else none."""
    if not _OTHER_OPTIONS.search(message.lower()):
        return frozenset()
    if not _follows(message, session.plan, session.picks):
        return frozenset()
    return frozenset(session.shown) | {p.item_id for p in session.picks}


def pick_asked_about(message: str, session: Session) -> PickView | None:
    """The last turn's pick a price question or a choice points at ("is the second one
    cheaper elsewhere?", "compare prices for #1", "i'll take the first one"), or None; not
    after a bundle or beside another product."""
    low = message.lower()
    found = _PICK_REFERENCE.search(low)
    if found is None or not _OFFER_QUESTION.search(low):
        return None
    rest = f"{low[: found.start()]} {low[found.end() :]}"
    if not _follows(rest, session.plan, session.picks):
        return None
    word, digit = found.groups()
    index = int(digit) - 1 if digit else _ORDINALS[word]
    return session.picks[index] if -len(session.picks) <= index < len(session.picks) else None


def without_pick_reference(text: str, session: Session) -> str:
    """`text` for planning without a reference to one of the last turn's picks ("i want the
    second one in black" plans "i want in black"), whose ordinal is no keyword."""
    found = _PICK_REFERENCE.search(text.lower())
    if found is None:
        return text
    rest = f"{text[: found.start()].rstrip()} {text[found.end() :].lstrip()}".strip()
    return rest if _follows(rest, session.plan, session.picks) else text


def _follows(message: str, plan: ShoppingPlan | None, picks: list[PickView]) -> bool:
    """Whether the message follows up on the last turn's picks of one product: there are
    picks, no bundle, and the message names no other product."""
    if plan is None or plan.bundle or not picks:
        return False
    named = plan_from_text([message]).category
    return named is None or named == plan.category
