"""A budget said in the shop's own currency is compared in that currency: a kurta listed at
one rupee over a rupee budget is over it, though its rounded dollar price is not."""

from __future__ import annotations

from app.catalog.currency import listed_price, money, to_usd
from app.catalog.item import Item
from app.catalog.schema import Offer
from app.tools.picker._report import _price_words
from app.tools.plan.planner_rules import plan_from_text
from tests.tools.picker_fixtures import filtered_for, inputs_for


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


def test_a_rupee_listing_is_shown_in_rupees_and_its_budget_left_too() -> None:
    """ "under 5000 rupees" is answered in rupees, with dollars beside the shop's price."""
    item = kurta(1, 4236)
    said_in_rupees = inputs_for([item], plan_from_text(["a kurta under 5000 rupees"]))
    assert _price_words(item, said_in_rupees) == (
        f"INR 4,236 ≈ ${item.price_usd:,.2f}, INR 764 under the INR 5,000 budget"
    )
    said_in_dollars = inputs_for([item], plan_from_text(["a kurta under $60"]))
    left = 60 - (item.price_usd or 0)
    assert _price_words(item, said_in_dollars) == (
        f"INR 4,236 ≈ ${item.price_usd:,.2f}, ${left:,.2f} under the $60.00 budget"
    )
    dollars = item.model_copy(update={"price": item.price_usd, "currency": "USD"})
    said_in_euros = inputs_for([dollars], plan_from_text(["a kurta under 200 euros"]))
    euros = to_usd(200, "EUR") or 0
    assert _price_words(dollars, said_in_euros) == (
        f"${item.price_usd:,.2f}, ${euros - (item.price_usd or 0):,.2f} under the "
        f"${euros:,.2f} (≈ EUR 200) budget"
    )


def test_money_reads_as_the_shop_lists_it() -> None:
    assert money(49.14, "USD") == money(49.14, None) == "$49.14"
    assert money(3999, "INR") == "INR 3,999"
    assert money(12.5, "eur") == "EUR 12.50"
    assert money(42.63 / 0.0116, "INR") == "INR 3,675", "a whole amount after a conversion"
    assert listed_price(3999, "INR", 46.39) == "INR 3,999 ≈ $46.39"
    assert listed_price(19.99, "USD", 19.99) == "$19.99"
    assert listed_price(None, None, None) == "no listed price"
