"""Stock: a sold-out listing is never picked, a request for stock ("in stock", "available now")
leaves out pre-orders too, and where the shop does not list stock the answer says so."""

from __future__ import annotations

import pytest

from app.catalog.schema import AVAILABILITIES
from app.tools.picker._result import GateReport, Pick, SlotPicks
from app.tools.plan.planner_rules import plan_from_text
from app.tools.summary._facts import stock_unlisted, unavailable
from tests.tools.picker_fixtures import filtered_for, item

STOCKED = [item(n, f"Scented Candle {n}", availability=a) for n, a in enumerate(AVAILABILITIES)]


@pytest.mark.parametrize(
    "message",
    [
        "a wireless mouse in stock",
        "an in-stock wireless mouse",
        "a wireless mouse available now",
        "a wireless mouse that is not sold out",
        "a wireless mouse, ready to ship",
    ],
)
def test_a_wish_for_stock_is_planned_and_no_search_word(message: str) -> None:
    plan = plan_from_text([message])
    assert plan.in_stock
    assert plan.category == "mouse"
    words = {w for k in plan.keywords for w in k.split()}
    assert not {"stock", "sold", "available", "ship"} & words
    assert not plan.exclude_terms


def test_a_wish_for_stock_lasts_the_session_and_is_not_read_from_other_words() -> None:
    assert not plan_from_text(["a wireless mouse"]).in_stock
    assert not plan_from_text(["a stockpot"]).in_stock
    later = plan_from_text(["a wireless mouse under $30", "only ones in stock please"])
    assert (later.in_stock, later.category, later.budget_usd) == (True, "mouse", 30.0)
    assert plan_from_text(["a candle in stock", "something cheaper"]).in_stock


@pytest.mark.parametrize(
    "messages",
    [
        ["a wireless mouse that doesn't have to be in stock"],
        ["a wireless mouse, pre-orders are fine"],
        ["a wireless mouse in stock", "actually it doesn't need to be in stock"],
    ],
)
def test_saying_stock_does_not_matter_is_no_wish_and_lifts_one(messages: list[str]) -> None:
    plan = plan_from_text(messages)
    assert (plan.in_stock, plan.category, plan.keywords) == (False, "mouse", ("wireless",))


def test_sold_out_listings_are_never_picked_and_pre_orders_only_when_stock_is_asked() -> None:
    plain = filtered_for(STOCKED, plan_from_text(["a scented candle"]))
    assert sorted(p.item.availability for p in plain.pool) == ["in_stock", "preorder", "unknown"]
    assert [e.item.availability for e in plain.not_in_stock] == ["out_of_stock"]
    asked = filtered_for(STOCKED, plan_from_text(["a scented candle in stock"]))
    assert sorted(p.item.availability for p in asked.pool) == ["in_stock", "unknown"]
    assert len(asked.not_in_stock) == 2


def _part(availabilities: tuple[str, ...], *, asked: bool) -> SlotPicks:
    picks = [
        Pick(
            slot="main",
            rank=n,
            item_id=f"shop:{n}",
            title=f"Candle {n}",
            platform="shop",
            availability=a,
            score=1.0,
            reason="",
        )
        for n, a in enumerate(availabilities, start=1)
    ]
    gate = GateReport(on=True, floor=0.5)
    return SlotPicks(
        slot="main", request="candle", candidates=3, picks=picks, gate=gate, in_stock_asked=asked
    )


def test_the_answer_says_which_picks_the_shop_lists_no_stock_for_when_stock_was_asked() -> None:
    assert stock_unlisted(_part(("in_stock", "unknown"), asked=False)) is None
    assert stock_unlisted(_part(("in_stock", "in_stock"), asked=True)) is None
    assert stock_unlisted(_part(("in_stock", "unknown"), asked=True)) == (
        "The shop does not say whether [shop:2] is in stock"
    )
    assert stock_unlisted(_part(("unknown",), asked=True)) == (
        "The shop does not say whether it is in stock: check before you order"
    )
    assert stock_unlisted(_part(("unknown", "unknown"), asked=True)) == (
        "The shop does not say whether these are in stock: check before you order"
    )


def test_the_best_matches_left_out_for_stock_are_named_as_sold_out_or_not_in_stock() -> None:
    part = _part(("in_stock",), asked=False)
    assert unavailable(part) is None
    one = part.model_copy(update={"unavailable_ahead": ["Pink Armchair"]})
    assert unavailable(one) == '"Pink Armchair" is sold out'
    two = one.model_copy(update={"unavailable_ahead": ["A", "B"], "in_stock_asked": True})
    assert unavailable(two) == '"A" and "B" are not in stock now'
