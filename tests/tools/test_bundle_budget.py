"""A bundle's budget caps its parts together: each part may cost what the others leave, and
the summary says what the picks cost together and which set fits."""

from __future__ import annotations

from app.tools.picker._bundle import bundle_share
from app.tools.picker._result import Pick
from app.tools.plan.planner_rules import plan_from_text
from app.tools.summary._bundle_total import together
from tests.tools.picker_fixtures import candidates, item

LAPTOPS = [item(1, "Acer Notebook", 850.0), item(2, "Lenovo Notebook", 500.0)]
MICE = [item(3, "Logitech Mouse", 40.0), item(4, "Microsoft Mouse", 25.0), item(5, "Mouse", None)]
ITEMS = {i.item_id: i for i in [*LAPTOPS, *MICE]}
FOUND = {"laptop": candidates(LAPTOPS, slot="laptop"), "mouse": candidates(MICE, slot="mouse")}


def test_a_part_may_cost_the_budget_less_the_cheapest_of_the_others() -> None:
    plan = plan_from_text(["a laptop and a mouse for $900 total"])
    assert bundle_share(plan, "laptop", FOUND, {}, ITEMS) == 875.0


def test_a_part_picked_already_takes_its_pick_price() -> None:
    plan = plan_from_text(["a laptop and a mouse for $900 total"])
    assert bundle_share(plan, "mouse", FOUND, {"laptop": 850.0}, ITEMS) == 50.0
    assert bundle_share(plan, "mouse", FOUND, {"laptop": 950.0}, ITEMS) == 0.0


def test_no_share_without_a_bundle_budget_or_with_a_part_budget() -> None:
    assert (
        bundle_share(plan_from_text(["a laptop and a mouse"]), "laptop", FOUND, {}, ITEMS) is None
    )
    assert bundle_share(plan_from_text(["a laptop under $900"]), "main", FOUND, {}, ITEMS) is None
    own = plan_from_text(["a laptop under $800 and a mouse"])
    assert bundle_share(own, "laptop", FOUND, {}, ITEMS) is None


def _pick(item_id: str, price: float | None, slot: str) -> Pick:
    return Pick(
        item_id=item_id,
        slot=slot,
        rank=1,
        title=item_id,
        platform="amazon",
        price_usd=price,
        score=1.0,
        reason="",
    )


def test_together_says_the_total_and_the_set_that_fits() -> None:
    laptops = [_pick("amazon:1", 850.0, "laptop"), _pick("amazon:2", 500.0, "laptop")]
    mice = [_pick("amazon:3", 80.0, "mouse"), _pick("amazon:4", 25.0, "mouse")]
    assert together([laptops, mice], None) == "Together the first picks come to $930.00"
    assert together([laptops, mice], 1000) == (
        "Together the first picks come to $930.00, within your $1,000.00 budget"
    )
    assert together([laptops, mice], 900) == (
        "Together the first picks come to $930.00, over your $900.00 budget; "
        "[amazon:1] and [amazon:4] fit it at $875.00"
    )
    assert together([laptops, mice], 500) == (
        "Together the first picks come to $930.00, over your $500.00 budget; no set of these "
        "picks fits it (the cheapest comes to $525.00)"
    )


def test_together_needs_a_priced_pick_in_every_part() -> None:
    laptops = [_pick("amazon:1", 850.0, "laptop")]
    assert together([laptops, [_pick("amazon:5", None, "mouse")]], 900) is None
    assert together([laptops], 900) is None
