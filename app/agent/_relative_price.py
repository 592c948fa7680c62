"""'Something cheaper' after a turn's picks: a price relative to what the shopper was shown.
The planner replays the recent messages and reads stated amounts only, so the message is
kept for planning with the amount it means ("something cheaper (under $23.09)"), read once
against the first pick the shopper saw; the conversation keeps the words as written."""

from __future__ import annotations

import re

from app.agent.events import PickView
from app.tools.planner_rules import plan_from_text
from app.tools.shopping_plan import ShoppingPlan

_CHEAPER = re.compile(
    r"\b(?:cheaper|less\s+expensive|lower[\s-]priced|more\s+affordable|too\s+(?:expensive|pricey))\b"
)
_PRICIER = re.compile(r"\b(?:pricier|more\s+expensive|higher[\s-]end|too\s+cheap)\b")
_AMOUNT = re.compile(r"\d")


def with_relative_price(
    message: str, plan: ShoppingPlan | None, picks: list[PickView]
) -> tuple[str, str | None]:
    """The message as the planner should read it, and a note when a relative price was read:
    "cheaper" is under the last turn's first pick, "more expensive" over it. The message
    stays as written when it states an amount, names another product, or follows a bundle
    or a turn without a priced first pick."""
    low = message.lower()
    cheaper, pricier = bool(_CHEAPER.search(low)), bool(_PRICIER.search(low))
    if cheaper == pricier or _AMOUNT.search(low) or plan is None or plan.bundle or not picks:
        return message, None
    price = picks[0].price_usd
    named = plan_from_text([message]).category
    if price is None or (named is not None and named != plan.category):
        return message, None
    if cheaper:
        limit = f"under ${price - 0.01:,.2f}"
        return f"{message} ({limit})", f"read 'cheaper' as {limit}, below the last first pick"
    limit = f"over ${price + 0.01:,.2f}"
    return f"{message} ({limit})", f"read 'more expensive' as {limit}, above the last first pick"
