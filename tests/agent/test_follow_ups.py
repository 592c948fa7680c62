"""'Something cheaper' is read against the first pick the shopper saw, once, as an amount."""

from __future__ import annotations

import pytest

from app.agent._follow_ups import shown_to_skip, with_relative_price
from app.agent.events import PickView
from app.agent.session import Session
from app.tools.planner_rules import plan_from_text
from app.tools.shopping_plan import ShoppingPlan

PLAN = plan_from_text(["wireless earbuds under $50"])
PICKS = [
    PickView(item_id="amazon:1", title="Earbuds", platform="amazon", price_usd=23.1, reason=""),
    PickView(item_id="amazon:2", title="Earbuds", platform="amazon", price_usd=1.98, reason=""),
]


def _session(picks: list[PickView], plan: ShoppingPlan | None = PLAN) -> Session:
    return Session(session_id="s", plan=plan, picks=picks)


@pytest.mark.parametrize(
    ("message", "planned"),
    [
        ("something cheaper", "something cheaper (under $23.09)"),
        ("those are too expensive", "those are too expensive (under $23.09)"),
        ("cheaper earbuds please", "cheaper earbuds please (under $23.09)"),
        ("something more expensive", "something more expensive (over $23.11)"),
        ("cheaper than $20", "cheaper than $20"),
        ("a cheaper keyboard", "a cheaper keyboard"),
        ("no skullcandy", "no skullcandy"),
    ],
)
def test_a_relative_price_is_read_against_the_first_pick(message: str, planned: str) -> None:
    assert with_relative_price(message, _session(PICKS))[0] == planned


def test_no_relative_price_without_a_priced_first_pick_or_beside_a_bundle() -> None:
    unpriced = [PICKS[0].model_copy(update={"price_usd": None})]
    bundle = plan_from_text(["a laptop and a mouse"])
    for session in (
        _session(unpriced),
        _session([]),
        _session(PICKS, None),
        _session(PICKS, bundle),
    ):
        assert with_relative_price("something cheaper", session) == ("something cheaper", None)


@pytest.mark.parametrize(
    ("message", "skips"),
    [
        ("show me other options", True),
        ("any others?", True),
        ("more earbuds options please", True),
        ("other options in a keyboard", False),
        ("no skullcandy", False),
    ],
)
def test_other_options_skip_every_pick_shown_for_the_request(message: str, skips: bool) -> None:
    session = Session(session_id="s", plan=PLAN, picks=PICKS[:1], shown=["amazon:9"])
    expected = {"amazon:1", "amazon:9"} if skips else set()
    assert shown_to_skip(message, session) == expected
