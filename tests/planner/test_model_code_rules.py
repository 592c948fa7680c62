"""Model codes the shopper types are must-haves: "an rtx 2060 graphics card" asks for that
model, so picks that lack it say so; a later code replaces an earlier one."""

from __future__ import annotations

import pytest

from app.tools.plan.planner_rules import plan_from_text


@pytest.mark.parametrize(
    ("text", "category", "must_have", "keywords"),
    [
        ("an rtx 2060 graphics card under $500", "graphics card", ("rtx 2060",), ()),
        ("brother tn-2110 toner", "toner", ("tn-2110",), ("brother",)),
        ("logitech g502 mouse", "mouse", ("g502",), ("logitech",)),
        ("a galaxy s10 case", "case", ("s10",), ("galaxy",)),
        ("an xbox 360 controller", "controller", ("xbox 360",), ()),
        # a numbered line's short number names its model, as one word with the line
        ("a phone case for iphone 12", "phone case", ("iphone 12",), ()),
        # a one-digit model number too, where a lone digit is otherwise no keyword
        ("a pixel 6 charger", "charger", ("pixel 6",), ()),
        ("an iphone 5 case", "case", ("iphone 5",), ()),
        ("a laptop with an i7-9750h", "laptop", ("i7-9750h",), ()),
        (
            "hp slim tower desktop pc intel j4025 processor",
            "desktop pc",
            ("j4025",),
            ("hp", "slim", "tower", "intel", "processor"),
        ),
    ],
)
def test_a_typed_model_code_is_a_must_have_not_a_keyword(
    text: str, category: str, must_have: tuple[str, ...], keywords: tuple[str, ...]
) -> None:
    plan = plan_from_text(text)
    assert (plan.category, plan.must_have, plan.keywords) == (category, must_have, keywords)


@pytest.mark.parametrize(
    ("text", "keywords"),
    [
        ("a 27 inch 1440p monitor", ("27 inch", "1440p")),
        ("a usb 3.0 hub", ("usb-3.0",)),
        ("ps4 games", ("ps4",)),
    ],
)
def test_quantities_standards_and_short_names_stay_keywords(
    text: str, keywords: tuple[str, ...]
) -> None:
    plan = plan_from_text(text)
    assert plan.must_have == ()
    assert set(keywords) <= set(plan.keywords)


def test_a_processor_tier_stays_the_keyword_its_rule_writes() -> None:
    plan = plan_from_text("an intel quad core i5-6500 mini pc")
    assert "core-i5 6500" in plan.keywords
    assert plan.must_have == ()


def test_a_new_code_replaces_the_earlier_one_and_other_must_haves_stay() -> None:
    first = plan_from_text("an rtx 2060 laptop with 16gb ram")
    assert first.must_have == ("rtx 2060", "16gb ram")
    later = plan_from_text("an rtx 2070 one instead", previous=first)
    assert later.category == "laptop"
    assert later.must_have == ("16gb ram", "rtx 2070")


def test_two_codes_of_one_message_are_both_asked() -> None:
    plan = plan_from_text("a mini pc like the asus pn41 with a celeron n4500")
    assert {"pn41", "celeron n4500"} <= set(plan.must_have)


def test_replaying_a_code_changes_nothing() -> None:
    plan = plan_from_text("logitech g502 mouse")
    assert plan_from_text("logitech g502 mouse", previous=plan) == plan


@pytest.mark.parametrize(
    "text",
    [
        "a gaming laptop, not the rtx 2060",
        "a gaming laptop without rtx 2060",
        "a gaming laptop, but not an rtx 2060 one",
    ],
)
def test_a_negated_code_is_excluded_whole(text: str) -> None:
    plan = plan_from_text(text)
    assert plan.exclude_terms == ("rtx 2060",)
    assert "2060" not in plan.keywords
    assert plan.must_have == ()


def test_a_number_after_a_common_word_still_ends_a_negation() -> None:
    plan = plan_from_text("a phone case, not black 2 pack")
    assert plan.exclude_terms == ("black",)
