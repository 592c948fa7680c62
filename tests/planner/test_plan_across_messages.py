"""Rebuilding P_t across messages: later messages replace budgets and lift constraints."""

from __future__ import annotations

import pytest

from app.tools.plan.planner_rules import plan_from_text
from app.tools.plan.shopping_plan import Constraint, ShoppingPlan


@pytest.mark.parametrize(
    "lift",
    [
        "actually Logitech is fine",
        "logitech is ok after all",
        "Logitech would be fine too",
        "i don't mind logitech",
        "i'm fine with logitech",
        "forget the logitech thing",
        "never mind the no logitech rule",
    ],
)
def test_a_later_message_lifts_an_exclude(lift: str) -> None:
    plan = plan_from_text(["a quiet gaming keyboard under $80, not Logitech", lift])
    assert plan.exclude == ()
    assert plan.budget_usd == 80.0
    assert plan.category == "gaming keyboard"
    assert "logitech" not in plan.keywords


def test_a_lift_removes_only_what_it_names() -> None:
    plan = plan_from_text(["a mouse, not logitech or razer", "razer is ok"])
    assert plan.exclude_terms == ("logitech",)


def test_a_lift_also_takes_back_an_avoid() -> None:
    plan = plan_from_text(["headphones, not too loud", "actually loud is fine"])
    assert plan.avoid == ()


def test_later_wording_decides_between_hard_and_soft() -> None:
    plan = plan_from_text(["a laptop, preferably not dell", "no dell"])
    assert plan.exclude_terms == ("dell",)
    assert plan.avoid == ()
    plan = plan_from_text(["a laptop, no dell", "preferably not dell"])
    assert plan.avoid_terms == ("dell",)
    assert plan.exclude == ()


def test_asking_for_an_excluded_thing_lifts_it() -> None:
    plan = plan_from_text(["a keyboard, no rgb", "actually, with rgb"])
    assert plan.exclude == ()
    assert plan.must_have == ("rgb",)


def test_excluding_something_required_drops_the_requirement() -> None:
    plan = plan_from_text(["a gaming keyboard with rgb", "no rgb"])
    assert plan.must_have == ()
    assert plan.exclude_terms == ("rgb",)


@pytest.mark.parametrize(
    ("messages", "category", "keywords"),
    [
        (["an hdmi cable 10 ft", "a usb c cable instead"], "cable", ("10 ft", "usb-c")),
        (["an hdmi cable", "now a displayport cable"], "cable", ("displayport",)),
        (["an hdmi cable", "10 ft"], "hdmi cable", ("10 ft",)),
        (["an hdmi cable", "hdmi 2.1"], "hdmi cable", ("hdmi 2.1",)),
    ],
)
def test_the_same_product_with_another_connector_replaces_the_connector(
    messages: list[str], category: str, keywords: tuple[str, ...]
) -> None:
    plan = plan_from_text(messages)
    assert (plan.category, plan.keywords) == (category, keywords)


def test_a_refinement_keeps_the_category_and_adds_keywords() -> None:
    plan = plan_from_text(["a quiet gaming keyboard", "make it wireless", "under $70"])
    assert plan.category == "gaming keyboard"
    assert plan.keywords == ("quiet", "wireless")
    assert plan.budget_usd == 70.0


@pytest.mark.parametrize(
    ("messages", "keywords"),
    [
        (["a red dress", "in blue instead"], ("blue",)),
        (["a blue shirt for men", "for women instead"], ("blue", "women")),
        (["a red and blue dress"], ("red", "blue")),
        (["a black laptop", "and a white mouse"], ("black", "white")),
    ],
)
def test_a_later_colour_or_audience_replaces_the_earlier(
    messages: list[str], keywords: tuple[str, ...]
) -> None:
    """A product is one colour and for one audience at a time: "blue instead" had kept red
    beside it; one message may name both, and a bundle's slots keep their own."""
    assert plan_from_text(messages).keywords == keywords


@pytest.mark.parametrize(
    ("message", "keywords", "prefer"),
    [
        ("she prefers something light", (), ("light",)),
        ("something light", ("light",), ()),
        ("i'd prefer anything waterproof", (), ("waterproof",)),
    ],
)
def test_a_trait_after_something_keeps_the_product(
    message: str, keywords: tuple[str, ...], prefer: tuple[str, ...]
) -> None:
    """ "something light" after a laptop is a light laptop: it had planned the product light
    (a lamp), and "prefers" was a keyword."""
    plan = plan_from_text(["a laptop for my daughter", message])
    assert (plan.category, plan.keywords, plan.prefer) == ("laptop", keywords, prefer)


@pytest.mark.parametrize(
    ("messages", "keywords", "must_have"),
    [
        (["a 27 inch monitor", "32 inch"], ("32 inch",), ()),
        (["a 4k monitor under $300", "what about 1440p instead"], ("1440p",), ()),
        (["a laptop with at least 16gb ram", "with 32gb ram"], (), ("32gb ram",)),
        # one message may name two of a unit; two parts sized in gb are not one measure
        (
            ["blinds 58 inches wide and 64 inches tall"],
            ("58 inches", "wide", "64 inches", "tall"),
            (),
        ),
        (["a laptop with 16gb", "512gb"], ("512gb",), ("16gb",)),
        # a product of one such part: the bare amount sizes it anew
        (["a 2tb external hard drive", "make it 4tb"], ("4tb",), ()),
        (["a 64gb memory card", "128gb instead"], ("128gb",), ()),
    ],
)
def test_a_later_amount_of_the_same_measure_replaces_the_earlier(
    messages: list[str], keywords: tuple[str, ...], must_have: tuple[str, ...]
) -> None:
    plan = plan_from_text(messages)
    assert (plan.keywords, plan.must_have) == (keywords, must_have)
    assert plan_from_text(messages, previous=plan) == plan


@pytest.mark.parametrize(
    ("messages", "must_have"),
    [
        (["a laptop", "16gb ram"], ("16gb ram",)),
        (["a laptop with 16gb ram", "512gb ssd"], ("16gb ram", "512gb ssd")),
        (["a laptop with at least 16gb ram", "actually 32gb ram"], ("32gb ram",)),
        (["a tablet", "an i7 processor"], ("core-i7 processor",)),
        (["a laptop", "i need 16gb ram"], ("16gb ram",)),
        (["a laptop", "make it 512gb ssd"], ("512gb ssd",)),
    ],
)
def test_a_message_sizing_a_part_of_the_product_is_its_requirement(
    messages: list[str], must_have: tuple[str, ...]
) -> None:
    plan = plan_from_text(messages)
    assert (plan.category, plan.must_have, plan.keywords) == (
        plan_from_text(messages[:1]).category,
        must_have,
        (),
    )


def test_a_part_asked_alone_or_added_is_still_a_product() -> None:
    assert plan_from_text(["a laptop", "a battery"]).category == "battery"
    assert plan_from_text(["a monitor", "16gb ram"]).category == "ram"
    bundle = plan_from_text(["a laptop", "also a 1tb ssd"]).bundle
    assert [part.slot for part in bundle] == ["laptop", "ssd"]


@pytest.mark.parametrize(
    "request_",
    [
        "now i need a 1tb ssd",
        "i want a 1tb ssd",
        "ok, i'm looking for a 1tb ssd",
        "find me a 1tb ssd",
    ],
)
def test_a_sized_part_asked_as_a_request_of_its_own_is_a_product(request_: str) -> None:
    plan = plan_from_text(["a laptop", request_])
    assert (plan.category, plan.keywords, plan.must_have) == ("ssd", ("1tb",), ())


@pytest.mark.parametrize("message", ["never mind, a scanner instead", "nevermind, a scanner"])
def test_taking_back_the_last_request_searches_no_filler(message: str) -> None:
    """ "never mind" had become the keywords "never" and "mind" of the scanner."""
    plan = plan_from_text(["a printer", message])
    assert (plan.category, plan.keywords) == ("scanner", ())


def test_a_new_product_resets_product_words_but_keeps_budget_and_excludes() -> None:
    plan = plan_from_text(
        ["a quiet gaming keyboard with rgb under $80, not logitech", "a mouse instead"]
    )
    assert plan.category == "mouse"
    assert plan.keywords == ()
    assert plan.must_have == ()
    assert plan.budget_usd == 80.0
    assert plan.exclude_terms == ("logitech",)


def test_a_request_of_its_own_for_another_product_leaves_the_last_ones_budget() -> None:
    """A budget said for a webcam is no TV's; a swap ("a mouse instead") keeps it, and so
    does a new request that says its own."""
    plan = plan_from_text(["a webcam under $60", "i want a tv around 55 inches"])
    assert (plan.category, plan.budget_usd, plan.budget_min_usd) == ("tv", None, None)
    ranged = plan_from_text(["a laptop between $500 and $900", "now i need a mouse"])
    assert (ranged.category, ranged.budget_usd, ranged.budget_min_usd) == ("mouse", None, None)
    own = plan_from_text(["a webcam under $60", "i'm looking for a tv under $500"])
    assert (own.category, own.budget_usd) == ("tv", 500.0)
    assert plan_from_text(["a webcam under $60", "a tv instead"]).budget_usd == 60.0
    assert plan_from_text(["a webcam under $60", "i want a logitech one"]).budget_usd == 60.0


def test_order_inside_one_message_matters() -> None:
    plan = plan_from_text(["not logitech. hmm, actually logitech is fine"])
    assert plan.exclude == ()
    plan = plan_from_text(["logitech is fine. no wait, not logitech"])
    assert plan.exclude_terms == ("logitech",)


def test_previous_plan_seeds_the_state_and_replay_is_idempotent() -> None:
    messages = ["a quiet gaming keyboard under €80, not logitech", "preferably black"]
    plan = plan_from_text(messages)
    assert plan_from_text(messages, previous=plan) == plan
    later = plan_from_text(["no razer either"], previous=plan)
    assert later.exclude_terms == ("logitech", "razer")
    assert later.currency == "EUR"
    assert later.prefer == ("black",)


def test_previous_constraints_and_platforms_survive_a_shorter_window() -> None:
    previous = ShoppingPlan(
        category="laptop",
        exclude=(Constraint(term="hp", evidence="not HP"),),
        budget_usd=900.0,
        budget_amount=900.0,
        platforms=("amazon",),
    )
    plan = plan_from_text(["actually hp is fine", "with a backlit keyboard"], previous=previous)
    assert plan.exclude == ()
    assert plan.budget_usd == 900.0
    assert plan.platforms == ("amazon",)
    assert plan.must_have == ("backlit keyboard",)
    assert plan.category == "laptop"


def test_an_accessory_for_it_is_the_planned_products() -> None:
    plan = plan_from_text(["a cheap tablet", "and a case for it"])
    assert [part.category for part in plan.bundle] == ["tablet", "tablet case"]
    charger = plan_from_text(["a phone", "a charger that works with it"])
    assert (charger.category, charger.keywords, charger.bundle) == ("phone charger", (), ())
    assert plan_from_text(["a case for it"]).category == "case"
    stand = plan_from_text(["a laptop stand", "and a keyboard for it"])
    assert [part.category for part in stand.bundle] == ["laptop stand", "laptop keyboard"]


@pytest.mark.parametrize(
    ("messages", "keywords", "avoid"),
    [
        (["a printer", "laser, not inkjet", "black and white only"], ("laser",), ("color",)),
        (["a b&w printer under $150"], (), ("color",)),
        (["a black and white keyboard"], ("black", "white"), ()),
    ],
)
def test_black_and_white_print_avoids_colour_beside_a_printer_only(
    messages: list[str], keywords: tuple[str, ...], avoid: tuple[str, ...]
) -> None:
    plan = plan_from_text(messages)
    assert (plan.keywords, plan.avoid_terms) == (keywords, avoid)
