"""A budget said in the shop's own currency is compared in that currency: a kurta listed at
one rupee over a rupee budget is over it, though its rounded dollar price is not."""

from __future__ import annotations

from app.catalog.currency import to_usd
from app.catalog.item import Item
from app.catalog.schema import Offer
from app.tools.plan.planner_rules import plan_from_text
from tests.tools.picker_fixtures import filtered_for


def kurta(n: int, rupees: float) -> Item:
    offer = Offer(id=str(n), shop="myntra", title=f"Kurta {n}", price=rupees, currency="INR")
    return Item.from_offer(offer)


def test_a_rupee_budget_is_compared_in_rupees() -> None:
    plan = plan_from_text(["a kurta under 1000 rupees"])
    assert (plan.budget_amount, plan.currency) == (1000.0, "INR")
    at, over, rounded_in = kurta(1, 1000), kurta(2, 1001), kurta(3, 1000.4)
    assert to_usd(1000.4, "INR") == plan.budget_usd, "the dollar prices cannot tell them apart"
    kept = filtered_for([at, over, rounded_in], plan)
    assert [p.item.item_id for p in kept.pool] == ["myntra:1"]
    assert kept.over_budget == 2


def test_a_dollar_budget_still_compares_converted_prices() -> None:
    plan = plan_from_text(["a kurta under $12"])
    kept = filtered_for([kurta(1, 1000), kurta(2, 1100)], plan)
    assert [p.item.item_id for p in kept.pool] == ["myntra:1"]
