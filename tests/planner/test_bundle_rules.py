"""Bundles: one slot per product of a multi-item request, each with its own budget if stated."""

from __future__ import annotations

import pytest

from app.tools.plan.planner_rules import plan_from_text


def test_two_products_make_two_slots() -> None:
    plan = plan_from_text(["i need a laptop and a wireless mouse"])
    assert [(s.slot, s.category) for s in plan.bundle] == [("laptop", "laptop"), ("mouse", "mouse")]
    assert plan.bundle[1].keywords == ("wireless",)
    assert plan.category == "laptop"


@pytest.mark.parametrize(
    ("text", "slots"),
    [
        ("a monitor, a keyboard and a mouse, about $400 total", ["monitor", "keyboard", "mouse"]),
        ("a laptop, a mouse, a keyboard and a bag", ["laptop", "mouse", "keyboard", "bag"]),
    ],
)
def test_a_list_s_commas_join_its_products(text: str, slots: list[str]) -> None:
    """The middle product of "a monitor, a keyboard and a mouse" had become the monitor's
    keyword, and the shopper got no keyboard."""
    plan = plan_from_text([text])
    assert [s.category for s in plan.bundle] == slots
    assert all(not s.keywords for s in plan.bundle)


@pytest.mark.parametrize("text", ["a tv, a big one", "a phone case, a black one, under $20"])
def test_a_comma_before_no_product_is_no_bundle(text: str) -> None:
    assert plan_from_text([text]).bundle == ()


def test_budgets_that_belong_to_one_slot_go_to_it() -> None:
    plan = plan_from_text(["a laptop under $900 and a mouse under $30"])
    assert [s.budget_usd for s in plan.bundle] == [900.0, 30.0]
    assert plan.budget_usd is None
    plan = plan_from_text(["a laptop under $900 plus a mouse"])
    assert [s.budget_usd for s in plan.bundle] == [900.0, None]
    assert plan.budget_usd is None


def test_an_overall_budget_stays_on_the_plan() -> None:
    plan = plan_from_text(["a laptop and a mouse under $1000 total"])
    assert [s.budget_usd for s in plan.bundle] == [None, None]
    assert plan.budget_usd == 1000.0
    plan = plan_from_text(["a keyboard and a mouse for $120"])
    assert plan.budget_usd == 120.0
    assert [s.budget_usd for s in plan.bundle] == [None, None]


def test_the_same_product_twice_gets_distinct_slot_names() -> None:
    plan = plan_from_text(["a red shirt and a blue shirt"])
    assert [s.slot for s in plan.bundle] == ["shirt", "shirt-2"]


@pytest.mark.parametrize(
    "text",
    [
        "a bed with a steel frame and a memory foam mattress",
        "sandals with a rubber sole and a high heel",
        "a pc with 16gb ram and a 1tb ssd",
        "ballet flats in size eight and a half",
        "a vanity light with a glass shade and a satin nickel finish",
        "a keyboard and mouse combo",
        "a storage bench made from engineered wood and a faux leather top",
    ],
)
def test_attribute_lists_are_not_bundles(text: str) -> None:
    assert plan_from_text([text]).bundle == ()


def test_a_later_message_can_add_a_slot() -> None:
    plan = plan_from_text(["a laptop under $900", "plus a bag under $50"])
    assert [(s.slot, s.budget_usd) for s in plan.bundle] == [("laptop", None), ("bag", 50.0)]
    assert plan.budget_usd == 900.0
    plan = plan_from_text(["a laptop", "and a mouse too"])
    assert [s.slot for s in plan.bundle] == ["laptop", "mouse"]


@pytest.mark.parametrize(
    "message", ["also add a mouse", "add a mouse", "please add a mouse", "and include a mouse"]
)
def test_asking_to_add_a_product_adds_a_slot(message: str) -> None:
    plan = plan_from_text(["a laptop under $800", message])
    assert [(s.slot, s.keywords) for s in plan.bundle] == [("laptop", ()), ("mouse", ())]
    assert (plan.category, plan.keywords, plan.budget_usd) == ("laptop", (), 800.0)


def test_an_added_product_with_nothing_before_it_keeps_its_budget() -> None:
    plan = plan_from_text(["add some popcorn to my order, and price lower than 30 dollars"])
    assert (plan.category, plan.bundle, plan.budget_usd) == ("popcorn", (), 30.0)


def test_naming_the_planned_product_again_starts_no_bundle() -> None:
    plan = plan_from_text(["a quiet keyboard", "and a keyboard"])
    assert plan.bundle == ()
    assert (plan.category, plan.keywords) == ("keyboard", ("quiet",))


def test_asking_again_for_a_slot_already_planned_adds_none() -> None:
    plan = plan_from_text(["a keyboard", "and a mouse under $80", "and a mouse under $80"])
    assert [(s.slot, s.budget_usd) for s in plan.bundle] == [("keyboard", None), ("mouse", 80.0)]
    plan = plan_from_text(["a keyboard", "and a mouse under $80", "and a mouse under $30"])
    assert [s.slot for s in plan.bundle] == ["keyboard", "mouse", "mouse-2"]


def test_a_message_about_one_part_refines_that_part() -> None:
    first = "a 27 inch monitor and a keyboard under $400 total"
    plan = plan_from_text([first, "make the keyboard wireless"])
    assert [(s.slot, s.keywords, s.budget_usd) for s in plan.bundle] == [
        ("monitor", ("27 inch",), None),
        ("keyboard", ("wireless",), None),
    ]
    assert (plan.category, plan.budget_usd) == ("monitor", 400.0)
    plan = plan_from_text([first, "the keyboard should be backlit and under $50"])
    assert [(s.must_have, s.budget_usd) for s in plan.bundle] == [((), None), (("backlit",), 50.0)]
    assert (plan.must_have, plan.budget_usd) == (("backlit",), 400.0)
    plan = plan_from_text(["a laptop and a mouse", "a wireless mouse instead", "not dell"])
    assert [(s.slot, s.keywords) for s in plan.bundle] == [("laptop", ()), ("mouse", ("wireless",))]
    assert plan.exclude_terms == ("dell",)


@pytest.mark.parametrize(
    ("text", "keywords"),
    [
        ("a keyboard and a mouse for gaming", [("gaming",), ("gaming",)]),
        ("a tent and a backpack for camping, under $200 total", [("camping",), ("camping",)]),
        ("a phone and a charger for the car", [(), ("car",)]),
        ("a tablet and a case for it", [(), ()]),
    ],
)
def test_a_purpose_after_the_last_product_is_every_products(
    text: str, keywords: list[tuple[str, ...]]
) -> None:
    """ "For gaming" had gone to the mouse alone; "for the car" stays the charger's."""
    assert [s.keywords for s in plan_from_text([text]).bundle] == keywords


@pytest.mark.parametrize(
    "later", [["make them black"], ["in black"], ["make them white", "make them black"]]
)
def test_words_said_of_no_part_are_said_of_every_part(later: list[str]) -> None:
    """They had gone to the plan alone, which a bundle's searches never read."""
    plan = plan_from_text(["a keyboard and a wireless mouse", *later])
    assert [(s.slot, s.keywords) for s in plan.bundle] == [
        ("keyboard", ("black",)),
        ("mouse", ("wireless", "black")),
    ]


def test_a_product_of_no_part_replaces_the_bundle() -> None:
    plan = plan_from_text(["a laptop and a mouse", "actually a tablet"])
    assert (plan.category, plan.bundle) == ("tablet", ())


def test_constraints_of_a_bundle_stay_on_the_plan() -> None:
    plan = plan_from_text(["a laptop and a mouse, not logitech"])
    assert len(plan.bundle) == 2
    assert plan.exclude_terms == ("logitech",)


@pytest.mark.parametrize(
    ("messages", "musts"),
    [
        (["a laptop and a mouse with at least 16000 dpi"], [(), ("at least 16000 dpi",)]),
        (["a tv under 500 and a soundbar that has bluetooth"], [(), ("bluetooth",)]),
        (["a tv and a soundbar, must have hdmi arc"], [(), ()]),
        (
            ["a laptop with at least 8gb ram", "and a mouse to go with it"],
            [("at least 8gb ram",), ()],
        ),
    ],
)
def test_a_must_have_said_of_one_part_is_that_parts_own(
    messages: list[str], musts: list[tuple[str, ...]]
) -> None:
    """The plan keeps every must-have; a slot lists those said of its product alone (a
    clause after a comma speaks of the whole request)."""
    plan = plan_from_text(messages)
    assert [s.must_have for s in plan.bundle] == musts
    assert set(plan.must_have) >= {m for s in plan.bundle for m in s.must_have}


@pytest.mark.parametrize(
    ("text", "slots", "first_must"),
    [
        ("a laptop with 16gb ram and a mouse", ["laptop", "mouse"], ("16gb ram",)),
        ("a tv with hdmi and a soundbar", ["tv", "soundbar"], ("hdmi",)),
        ("bluetooth headphones with touch control and a wireless charging case", [], ()),
    ],
)
def test_a_product_after_a_with_list_of_bare_specs_is_another_part(
    text: str, slots: list[str], first_must: tuple[str, ...]
) -> None:
    """Bare specs after "with" end where "and a <product>" starts another product; an
    accessory it may come with (a charging case) stays a must-have."""
    plan = plan_from_text([text])
    assert [s.slot for s in plan.bundle] == slots
    if slots:
        assert plan.bundle[0].must_have == first_must
        assert plan.must_have == first_must
