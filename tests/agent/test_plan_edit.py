"""The typed plan edit: validation, how an edit applies, and how long a held edit holds
against the plan the planner rebuilds from the messages each turn."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.agent.plan_edit import HeldPlanEdit, PlanEdit, apply_edit, apply_held_edit, hold_edit
from app.errors import InvalidRequest
from app.tools.plan.shopping_plan import BundleSlot, Constraint, ShoppingPlan

PLAN = ShoppingPlan(
    category="headphones",
    must_have=("bluetooth", "noise cancelling"),
    exclude=(Constraint(term="refurbished", evidence="no refurbished"),),
    budget_usd=100.0,
    budget_amount=90.0,
    currency="EUR",
    platforms=("amazon", "walmart"),
)


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"budget_usd": 0},
        {"budget_usd": -5},
        {"budget_usd": "cheap"},
        {"platforms": [""]},
        {"platforms": ["  "]},
        {"platforms": [3]},
        {"drop_must_have": [""]},
        {"drop_must_have": ["x" * 81]},
        {"budget_min_usd": 200, "budget_usd": 100},
        {"category": "laptop"},
    ],
)
def test_malformed_edits_are_refused(body: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        PlanEdit.model_validate(body)


def test_any_shop_name_is_well_formed_the_catalog_decides_if_it_exists() -> None:
    assert PlanEdit.model_validate({"platforms": ["ebay"]}).platforms == ("ebay",)


def test_null_clears_and_unset_leaves() -> None:
    edit = PlanEdit.model_validate({"budget_usd": None})
    assert edit.given() == {"budget_usd": None}
    edited = apply_edit(PLAN, edit)
    assert edited.budget_usd is None
    assert edited.budget_amount is None
    assert edited.platforms == PLAN.platforms
    assert edited.must_have == PLAN.must_have


def test_new_budget_is_in_usd() -> None:
    edited = apply_edit(PLAN, PlanEdit(budget_usd=60.0))
    assert (edited.budget_usd, edited.budget_amount, edited.currency) == (60.0, 60.0, "USD")


def test_an_edited_budget_is_a_limit_not_an_approximate_price() -> None:
    around = PLAN.model_copy(update={"budget_target_usd": 90.0})
    assert apply_edit(around, PlanEdit(budget_usd=60.0)).budget_target_usd is None
    assert apply_edit(around, PlanEdit(platforms=None)).budget_target_usd == 90.0


def test_dropping_terms_and_shops() -> None:
    bundle = (BundleSlot(slot="mouse", category="mouse", must_have=("bluetooth",)),)
    plan = PLAN.model_copy(update={"bundle": bundle})
    edit = PlanEdit.model_validate(
        {"drop_must_have": ["Bluetooth"], "drop_exclude": ["refurbished"], "platforms": []}
    )
    edited = apply_edit(plan, edit)
    assert edited.must_have == ("noise cancelling",)
    assert edited.exclude == ()
    assert edited.platforms == ()
    assert edited.bundle[0].must_have == ()


def test_dropping_a_term_the_plan_lacks_is_refused() -> None:
    with pytest.raises(InvalidRequest, match="wireless"):
        hold_edit(None, PLAN, PlanEdit(drop_must_have=("wireless",)))


def test_edits_add_up() -> None:
    held = hold_edit(None, PLAN, PlanEdit(drop_must_have=("bluetooth",)))
    shown = apply_edit(PLAN, held.edit)
    held = hold_edit(held, shown, PlanEdit.model_validate({"budget_usd": None}))
    assert held.basis == PLAN
    assert held.edit.drop_must_have == ("bluetooth",)
    assert held.edit.given() == {"budget_usd": None}
    with pytest.raises(InvalidRequest):
        hold_edit(held, apply_edit(PLAN, held.edit), PlanEdit(drop_must_have=("bluetooth",)))


def test_an_edit_holds_while_the_messages_say_the_same() -> None:
    held = hold_edit(None, PLAN, PlanEdit.model_validate({"budget_usd": None}))
    plan, still = apply_held_edit(held, PLAN, "which one is best?")
    assert plan.budget_usd is None
    assert still is not None


def test_the_shoppers_new_budget_ends_the_edit() -> None:
    held = hold_edit(None, PLAN, PlanEdit.model_validate({"budget_usd": None}))
    cheaper = PLAN.model_copy(update={"budget_usd": 70.0})
    plan, still = apply_held_edit(held, cheaper, "something cheaper")
    assert plan.budget_usd == 70.0
    assert still is None


def test_naming_a_dropped_term_again_brings_it_back() -> None:
    held = hold_edit(None, PLAN, PlanEdit(drop_must_have=("bluetooth", "noise cancelling")))
    plan, still = apply_held_edit(held, PLAN, "it must be bluetooth")
    assert plan.must_have == ("bluetooth",)
    assert still is not None
    assert still.edit.drop_must_have == ("noise cancelling",)
    assert still.basis == PLAN


def test_describe_names_every_change() -> None:
    text = PlanEdit.model_validate({"budget_usd": None, "drop_exclude": ["refurbished"]}).describe()
    assert "budget: none" in text
    assert "refurbished" in text


def test_in_stock_only_is_set_and_cleared() -> None:
    stocked = apply_edit(PLAN, PlanEdit(in_stock=True))
    assert stocked.in_stock is True
    assert stocked.budget_usd == PLAN.budget_usd
    assert apply_edit(stocked, PlanEdit.model_validate({"in_stock": None})).in_stock is False
    assert "in stock only" in PlanEdit(in_stock=True).describe()
    with pytest.raises(ValidationError):
        PlanEdit.model_validate({"in_stock": "maybe"})


def test_a_stock_edit_holds_until_the_shopper_says_otherwise() -> None:
    held = hold_edit(None, PLAN, PlanEdit(in_stock=True))
    plan, still = apply_held_edit(held, PLAN, "which one is lighter?")
    assert plan.in_stock is True
    assert still is not None
    said = PLAN.model_copy(update={"in_stock": True})
    cleared = hold_edit(None, said, PlanEdit.model_validate({"in_stock": None}))
    plan, still = apply_held_edit(cleared, said, "compare them")
    assert plan.in_stock is False
    plan, still = apply_held_edit(cleared, PLAN, "pre-orders are fine")
    assert (plan.in_stock, still) == (False, None)


def test_a_stored_edit_read_back_leaves_unset_fields_alone() -> None:
    held = hold_edit(None, PLAN, PlanEdit(budget_usd=60.0))
    again = HeldPlanEdit.model_validate_json(held.model_dump_json())
    assert again.edit.given() == {"budget_usd": 60.0}
    assert apply_edit(PLAN, again.edit).platforms == PLAN.platforms


def test_a_later_edit_holds_though_the_planner_was_seeded_with_the_earlier_one() -> None:
    """The planner starts from the plan shown, earlier edits in it: a value the messages
    did not change is the shown one, not the planner's own."""
    held = hold_edit(None, PLAN, PlanEdit(budget_min_usd=20.0))
    shown = apply_edit(PLAN, held.edit)
    held = hold_edit(held, shown, PlanEdit.model_validate({"budget_min_usd": None}))
    plan, still = apply_held_edit(held, shown, None, shown)
    assert plan.budget_min_usd is None
    assert still is not None
    said = PLAN.model_copy(update={"budget_min_usd": 30.0})
    plan, still = apply_held_edit(held, said, "over $30", shown)
    assert plan.budget_min_usd == 30.0
