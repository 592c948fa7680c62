"""Currencies: the code as written is kept, budget_usd converts with the static rate table."""

from __future__ import annotations

import json

import pytest

from app.catalog.currency import RATES_FILE, usd_rates
from app.tools.plan._budget_rules import currency_code
from app.tools.plan.planner_rules import plan_from_text


def test_rate_table_is_dated_approximate_and_based_on_usd() -> None:
    table = json.loads(RATES_FILE.read_text(encoding="utf-8"))
    assert table["base"] == "USD"
    assert table["as_of"]
    assert "approximate" in table["description"].lower()
    rates = usd_rates()
    assert rates["USD"] == 1.0
    assert all(rate > 0 for rate in rates.values())


@pytest.mark.parametrize(
    ("text", "amount", "currency"),
    [
        ("a kettle under €50", 50.0, "EUR"),
        ("a kettle under 50€", 50.0, "EUR"),
        ("a kettle under 50 euros", 50.0, "EUR"),
        ("a kettle under EUR 50", 50.0, "EUR"),
        ("a kettle under £40", 40.0, "GBP"),
        ("a kettle under 40 GBP", 40.0, "GBP"),
        ("a kettle under 40 pounds", 40.0, "GBP"),
        ("a kettle for 40 quid or less", 40.0, "GBP"),
        ("a kettle under ¥5000", 5000.0, "JPY"),
        ("a kettle under 5000 yen", 5000.0, "JPY"),
        ("a kettle under ₹3000", 3000.0, "INR"),
        ("a kettle under 3000 rupees", 3000.0, "INR"),
        ("a kettle under rs. 3000", 3000.0, "INR"),
        ("a kettle under C$70", 70.0, "CAD"),
        ("a kettle under 70 canadian dollars", 70.0, "CAD"),
        ("a kettle under A$70", 70.0, "AUD"),
        ("a kettle under 60 CHF", 60.0, "CHF"),
        ("a kettle under 300 yuan", 300.0, "CNY"),
        ("a kettle under US$60", 60.0, "USD"),
        ("a kettle under 60 USD", 60.0, "USD"),
        ("a kettle under 60", 60.0, "USD"),
    ],
)
def test_currency_as_written_and_converted_budget(text: str, amount: float, currency: str) -> None:
    plan = plan_from_text([text])
    assert plan.budget_amount == amount
    assert plan.currency == currency
    assert plan.budget_usd == round(amount * usd_rates()[currency], 2)


def test_pounds_of_something_is_a_weight() -> None:
    assert plan_from_text(["under 10 pounds of rice"]).budget_usd is None
    assert plan_from_text(["a 3-4 pound bag of raisins"]).budget_usd is None
    assert plan_from_text(["about 2.5 pounds of granola"]).budget_usd is None


@pytest.mark.parametrize(
    ("written", "code"),
    [
        ("$", "USD"),
        ("Dollars", "USD"),
        ("bucks", "USD"),
        ("€", "EUR"),
        ("Euro", "EUR"),
        ("£", "GBP"),
        ("pounds sterling", "GBP"),
        ("¥", "JPY"),
        ("CN¥", "CNY"),
        ("₹", "INR"),
        ("Rs.", "INR"),
        ("C$", "CAD"),
        ("AU$", "AUD"),
        ("swiss francs", "CHF"),
        ("₩", "KRW"),
    ],
)
def test_currency_table(written: str, code: str) -> None:
    assert currency_code(written) == code


def test_unknown_currency_is_none() -> None:
    assert currency_code("doubloons") is None
    assert currency_code(None) is None
