"""Budget rules: price ceilings from shopper text, never from specs, in the currency written."""

from __future__ import annotations

import pytest

from app.config import REGISTRY
from app.config.params.planner import PLANNER_AROUND_SLACK
from app.tools.plan.plan_change import PlanChange
from app.tools.plan.planner_rules import apply_change, plan_from_text


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("a quiet gaming keyboard under $80, not Logitech", 80.0),
        ("headphones below $150", 150.0),
        ("a blender for less than $60", 60.0),
        ("a kettle at most $40", 40.0),
        ("a desk lamp no more than $35", 35.0),
        ("a monitor up to $300", 300.0),
        ("a mouse, max $25", 25.0),
        ("a router, maximum $120", 120.0),
        ("a tent for $200 or less", 200.0),
        ("a drone $400-$600", 600.0),
        ("a drone $400 - 600", 600.0),
        ("a watch between $100 and $250", 250.0),
        ("a watch from $100 to $250", 250.0),
        ("i need a long clip-in hair extension, and price lower than 40.00 dollars", 40.0),
        ("boots whose price lower than $260.00", 260.0),
        ("a budget of $90 for a keyboard", 90.0),
        ("my budget is 500 for a laptop", 500.0),
        ("a laptop for $1,299.99 or less", 1299.99),
        ("a phone under 80 bucks", 80.0),
        ("a gaming pc under $1k", 1000.0),
        ("a camera under 1.5k dollars", 1500.0),
        ("twin bed less then 380", 380.0),
        ("ac adapter up tp 50 dollars", 50.0),
        ("headphones under 50 that are wireless", 50.0),
        ("i don't want to spend more than $80 on a keyboard", 80.0),
        ("a keyboard for $80", 80.0),
        ("a $45 keyboard", 45.0),
        ("a chair, 120 dollars max", 120.0),
        ("nothing over $70, a backpack", 70.0),
        ("a 65 inch tv under 1k", 1000.0),
        ("a coffee maker, ideally under $100 but can stretch to $150", 150.0),
        ("a toaster, price range 30-50 dollars", 50.0),
        ("i'm on a tight budget, $20 max for a phone charger", 20.0),
    ],
)
def test_stated_ceiling_becomes_the_budget(text: str, amount: float) -> None:
    plan = plan_from_text([text])
    assert plan.budget_amount == amount
    assert plan.budget_usd == amount
    assert plan.currency == "USD"


@pytest.mark.parametrize(
    "text",
    [
        "a 16 inch laptop with 1tb ssd",
        "a 2 pack of usb cables, model 3000",
        "a tv under 40 inches",
        "a tent for up to 10 people",
        "a bag no more than 3 feet long",
        "less than 2 lbs please, a tripod",
        "a 4k tv under 55 in",
        "size 7.5 sandals",
        "i need 15 pounds of non gmo beans",
        "a 5 pound bag of birthday candy",
        "a black iphone 12 max case with wireless charging",
        "a usb cable with rs422/rs485 port",
        "a monitor over $300",
        "at least $50 headphones",
        "a monitor, at least 24 inch",
        "a power bank with at least 20000mah",
        "a $50 gift card",
        "$20 off coupon for shoes",
        "under armour tech short sleeve t-shirt",
        "a pack of 6 pens, no 9",
    ],
)
def test_specs_and_floors_are_never_budgets(text: str) -> None:
    assert plan_from_text([text]).budget_usd is None


@pytest.mark.parametrize(
    ("text", "keywords"),
    [
        ("a monitor, at least 24 inch, for my desk", ("at least 24 inch", "desk")),
        ("a power bank at least 20000mah", ("at least 20000mah",)),
    ],
)
def test_a_floor_on_a_spec_keeps_the_spec(text: str, keywords: tuple[str, ...]) -> None:
    assert plan_from_text([text]).keywords == keywords


@pytest.mark.parametrize(
    ("text", "keywords", "must_have"),
    [
        ("a 24 inch or larger monitor", ("at least 24 inch",), ()),
        ("a monitor no more than 24 inch", ("at most 24 inch",), ()),
        ("a laptop with 16gb or more ram", (), ("at least 16gb ram",)),
        ("a laptop with at least 16gb of ram and a 1tb ssd", ("1tb ssd",), ("at least 16gb ram",)),
        ("a laptop with at least 1tb ssd", ("ssd",), ("at least 1tb",)),
        ("a tv over 50 inch, not samsung", ("over 50 inch",), ()),
    ],
)
def test_a_bound_on_a_spec_is_asked_as_a_bound(
    text: str, keywords: tuple[str, ...], must_have: tuple[str, ...]
) -> None:
    plan = plan_from_text([text])
    assert (plan.keywords, plan.must_have) == (keywords, must_have)


@pytest.mark.parametrize(
    ("messages", "floor", "ceiling"),
    [
        (["a samsung tv between $300 and $600"], 300.0, 600.0),
        (["a drone $400-$600"], 400.0, 600.0),
        (["a tv from 300 to 600 dollars"], 300.0, 600.0),
        (["a tv between 300 and 600 euros"], 309.0, 618.0),
        (["a tv under $600"], None, 600.0),
        (["a tv between $300 and $600", "under $500 then"], None, 500.0),
        (["a tv between $300 and $600", "and a soundbar"], 300.0, 600.0),
        (["a tv between $600 and $300"], 300.0, 600.0),
    ],
)
def test_a_range_sets_a_price_floor_that_a_new_budget_replaces(
    messages: list[str], floor: float | None, ceiling: float
) -> None:
    plan = plan_from_text(messages)
    assert (plan.budget_min_usd, plan.budget_usd) == (floor, ceiling)


@pytest.mark.parametrize(
    ("messages", "floor", "ceiling"),
    [
        (["a laptop over $500"], 500.0, None),
        (["headphones at least $50"], 50.0, None),
        (["a laptop over 500 euros"], 515.0, None),
        (["a laptop over $500 but under $900"], 500.0, 900.0),
        (["a laptop under $900", "over $500 please"], 500.0, 900.0),
        (["a laptop under $400", "actually over $500"], 500.0, None),
        (["a laptop over $900 under $500"], None, 500.0),
        (["a laptop over $500", "forget the budget"], None, None),
        (["a rating over 4, a mouse"], None, None),
        (["at least $20 off a mouse"], None, None),
    ],
)
def test_a_lone_floor_joins_the_ceiling_it_does_not_contradict(
    messages: list[str], floor: float | None, ceiling: float | None
) -> None:
    plan = plan_from_text(messages)
    assert (plan.budget_min_usd, plan.budget_usd) == (floor, ceiling)


@pytest.mark.parametrize(
    "text",
    [
        "i don't want to spend over $300 on a monitor",
        "a monitor, can't go over $300",
        "a monitor, it shouldn't cost more than $300",
        "a monitor. not going over $300",
    ],
)
def test_a_negated_floor_is_a_ceiling(text: str) -> None:
    plan = plan_from_text([text])
    assert (plan.budget_min_usd, plan.budget_usd, plan.exclude) == (None, 300.0, ())


def test_budget_evidence_is_the_shoppers_words() -> None:
    from app.tools.plan._budget_rules import find_budget
    from app.tools.plan._text_rules import SpanMask, lower_same_length

    text = "A Laptop UNDER $900 please"
    mentions = find_budget(lower_same_length(text), text, SpanMask()).mentions
    assert [m.evidence for m in mentions] == ["UNDER $900"]


def test_around_adds_the_declared_headroom() -> None:
    plan = plan_from_text(["a keyboard around $100"])
    assert plan.budget_amount == 100.0
    assert plan.budget_usd == pytest.approx(100.0 * (1 + PLANNER_AROUND_SLACK.get()))
    with REGISTRY.overridden(PLANNER_AROUND_SLACK=0.0):
        assert plan_from_text(["a keyboard around $100"]).budget_usd == 100.0
    with REGISTRY.overridden(PLANNER_AROUND_SLACK=0.25):
        assert plan_from_text(["a budget of about 80 dollars"]).budget_usd == 100.0


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("a keyboard around $100", 100.0),
        ("a laptop for about 1500 dollars", 1500.0),
        ("a monitor, roughly $300", 300.0),
        ("a keyboard under $100", None),
        ("a laptop between $300 and $600", None),
    ],
)
def test_an_approximate_price_is_a_price_to_be_near(text: str, target: float | None) -> None:
    assert plan_from_text([text]).budget_target_usd == target


def test_a_limit_said_later_replaces_the_approximate_price() -> None:
    assert plan_from_text(["a laptop around $1500", "under $1000"]).budget_target_usd is None
    around = plan_from_text(["a laptop around $1500"])
    cheaper = apply_change(around, PlanChange(budget_usd=1400.0))
    assert (cheaper.budget_usd, cheaper.budget_target_usd) == (1400.0, None)


def test_a_firm_ceiling_beats_a_soft_one_in_the_same_message() -> None:
    plan = plan_from_text(["a keyboard, ideally under $60 but max $80"])
    assert plan.budget_usd == 80.0
    plan = plan_from_text(["a keyboard under $80, ideally under $60"])
    assert plan.budget_usd == 80.0


def test_a_later_ceiling_in_one_message_wins() -> None:
    assert plan_from_text(["under $100 - actually make it under $80"]).budget_usd == 80.0


@pytest.mark.parametrize(
    "text",
    [
        "forget the budget",
        "no budget",
        "forget about the price limit",
        "price doesn't matter",
        "money is no object",
        "any price is ok",
        "ignore my budget",
    ],
)
def test_dropping_the_budget_clears_it(text: str) -> None:
    plan = plan_from_text(["a gaming laptop under $1000", text])
    assert plan.budget_usd is None
    assert plan.budget_amount is None
    assert plan.currency == "USD"
    assert plan.category == "gaming laptop"
    assert not plan.exclude


def test_a_new_budget_replaces_the_old_one() -> None:
    plan = plan_from_text(["a gaming laptop under $1000", "hmm, make it $1200"])
    assert plan.budget_usd == 1200.0
    plan = plan_from_text(["a gaming laptop under $1000", "a mouse too"])
    assert plan.budget_usd == 1000.0


def test_dropping_then_stating_in_one_message_keeps_the_new_budget() -> None:
    plan = plan_from_text(["a laptop under $900", "forget the $900 budget, say $1,200"])
    assert plan.budget_usd == 1200.0


def test_no_number_no_budget() -> None:
    for text in ["something cheap", "a budget laptop", "an affordable keyboard", "hi"]:
        assert plan_from_text([text]).budget_usd is None


def test_asking_for_the_cheapest_alone_is_a_shopping_message() -> None:
    plan = plan_from_text(["a bluetooth speaker", "not jbl", "the cheapest one"])
    assert (plan.category, plan.cheap, plan.exclude_terms) == ("bluetooth speaker", True, ("jbl",))
    assert plan_from_text(["the cheapest one"]).is_shopping


@pytest.mark.parametrize(
    ("messages", "cheapest"),
    [
        (["the cheapest 32gb micro sd card"], True),
        (["a cheap tablet"], False),
        (["a mouse", "the lowest price one"], True),
        (["the cheapest ssd", "now a mouse"], False),
    ],
)
def test_asking_for_the_cheapest_is_planned_until_the_product_changes(
    messages: list[str], cheapest: bool
) -> None:
    assert plan_from_text(messages).cheapest is cheapest
