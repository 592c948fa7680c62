"""Property tests: budgets from any amount, no budget from any spec, evidence always quoted."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from app.catalog.currency import usd_rates
from app.tools.plan._text_rules import normalize
from app.tools.plan.planner_rules import plan_from_text

_amounts = st.decimals(min_value=Decimal("1"), max_value=Decimal("99999"), places=2)
_products = st.sampled_from(
    ["keyboard", "gaming laptop", "pair of shoes", "desk lamp", "phone case"]
)
_cues = st.sampled_from(
    [
        "under ${n}",
        "below ${n}",
        "less than ${n}",
        "no more than ${n}",
        "up to ${n}",
        "max ${n}",
        "${n} or less",
        "at most {n} dollars",
        "and price lower than {n} dollars",
        "budget of ${n}",
        "under {n} bucks",
        "under {n} USD",
    ]
)


def _written(amount: Decimal) -> str:
    return f"{amount:,.2f}" if amount >= 1000 and amount % 7 == 0 else f"{amount:.2f}"


@settings(max_examples=100, deadline=None)
@given(amount=_amounts, product=_products, cue=_cues)
def test_any_stated_ceiling_is_the_budget(amount: Decimal, product: str, cue: str) -> None:
    text = f"i need a {product} " + cue.format(n=_written(amount))
    plan = plan_from_text([text])
    assert plan.budget_amount == float(amount)
    assert plan.budget_usd == float(amount)
    assert plan.currency == "USD"


@settings(max_examples=100, deadline=None)
@given(
    amount=st.integers(min_value=1, max_value=5000),
    currency=st.sampled_from([("€", "EUR"), ("£", "GBP"), ("¥", "JPY"), ("₹", "INR")]),
)
def test_symbol_currencies_convert_with_the_table(amount: int, currency: tuple[str, str]) -> None:
    symbol, code = currency
    plan = plan_from_text([f"a kettle under {symbol}{amount}"])
    assert plan.currency == code
    assert plan.budget_amount == float(amount)
    assert plan.budget_usd == round(amount * usd_rates()[code], 2)


@settings(max_examples=100, deadline=None)
@given(
    n=st.integers(min_value=1, max_value=4000),
    unit=st.sampled_from(
        [
            "inch",
            "inches",
            "gb",
            "tb",
            "pack",
            "ounce",
            "oz",
            "feet",
            "watt",
            "mm",
            "count",
            "piece",
            "people",
            "hours",
            "lbs",
        ]
    ),
    product=_products,
)
def test_specs_are_never_budgets(n: int, unit: str, product: str) -> None:
    for text in (
        f"a {n} {unit} {product}",
        f"a {product}, {n} {unit}",
        f"a {product} under {n} {unit}",
        f"model {n} {product}",
        f"a {product} size {n}",
        f"a {n}{unit} {product}",
    ):
        assert plan_from_text([text]).budget_usd is None, text


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=200))
def test_any_text_gives_a_valid_plan_with_quoted_evidence(text: str) -> None:
    plan = plan_from_text([text])
    normalized = normalize(text)
    for constraint in (*plan.exclude, *plan.avoid):
        assert constraint.evidence
        assert constraint.evidence in normalized
    if plan.budget_usd is not None:
        assert plan.budget_usd > 0


_words = st.lists(
    st.sampled_from(
        [
            "not",
            "no",
            "logitech",
            "razer",
            "under",
            "$80",
            "quiet",
            "keyboard",
            "and",
            "a",
            "mouse",
            "preferably",
            "too",
            "loud",
            "free",
            "gluten",
            "with",
            "rgb",
            ",",
            "is",
            "fine",
            "actually",
            "without",
            "forget",
            "the",
            "budget",
            "or",
            "80",
        ]
    ),
    max_size=14,
)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(first=_words, second=_words)
@example(first=["logitech", "preferably"], second=["not", "logitech", "not", "razer"])
def test_replaying_messages_on_their_own_plan_changes_nothing(
    first: list[str], second: list[str]
) -> None:
    messages = [" ".join(first), " ".join(second)]
    plan = plan_from_text(messages)
    assert plan_from_text(messages, previous=plan) == plan


@settings(max_examples=100, deadline=None, derandomize=True)
@given(first=_words, second=_words)
def test_planning_one_message_at_a_time_equals_planning_them_together(
    first: list[str], second: list[str]
) -> None:
    messages = [" ".join(first), " ".join(second)]
    stepwise = plan_from_text(messages[1:], previous=plan_from_text(messages[:1]))
    assert stepwise == plan_from_text(messages)


@pytest.mark.parametrize(
    "messages",
    [
        ["with mouse, quiet", "keyboard"],
        ["a mouse, preferably wireless, preferably quiet", "preferably wireless"],
        ["a keyboard", "and a mouse under $80", "and a mouse under $80"],
        ["and a keyboard", "and"],
        ["keyboard preferably", "a mouse"],
    ],
)
def test_replaying_these_messages_on_their_own_plan_changes_nothing(
    messages: list[str],
) -> None:
    plan = plan_from_text(messages)
    assert plan_from_text(messages, previous=plan) == plan


def test_a_product_asked_for_only_as_a_requirement_stays_one_after_a_switch() -> None:
    messages = ["with mouse", "keyboard"]
    plan = plan_from_text(messages)
    assert (plan.category, plan.must_have) == ("keyboard", ("mouse",))
    assert plan_from_text(messages, previous=plan) == plan
    one_at_a_time = plan_from_text(messages[1:], previous=plan_from_text(messages[:1]))
    assert one_at_a_time == plan
