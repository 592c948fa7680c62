"""Negation rules: hard excludes, soft avoids, and negations that name a feature."""

from __future__ import annotations

import pytest

from app.tools.plan.planner_rules import plan_from_text
from app.tools.plan.shopping_plan import ShoppingPlan


def _plan(text: str) -> ShoppingPlan:
    return plan_from_text([text])


def _excluded(text: str) -> dict[str, str]:
    return {c.term: c.evidence for c in _plan(text).exclude}


def _avoided(text: str) -> dict[str, str]:
    return {c.term: c.evidence for c in _plan(text).avoid}


def test_the_reference_request() -> None:
    plan = _plan("a quiet gaming keyboard under $80, not Logitech")
    assert plan.category == "gaming keyboard"
    assert "quiet" in plan.keywords
    assert plan.budget_usd == 80.0
    assert [(c.term, c.evidence) for c in plan.exclude] == [("logitech", "not Logitech")]
    assert "logitech" not in plan.keywords
    assert not plan.avoid


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a mouse, not Razer", {"razer": "not Razer"}),
        ("a chair with no arms", {"arms": "no arms"}),
        ("a desk chair without wheels", {"wheels": "without wheels"}),
        ("any brand but Apple for my tablet", {"apple": "any brand but Apple"}),
        ("a laptop, anything but HP", {"hp": "anything but HP"}),
        ("headphones, except Beats", {"beats": "except Beats"}),
        (
            "a night cream that does not have a fragrance",
            {"fragrance": "does not have a fragrance"},
        ),
        (
            "macaroni cheese but it must not contain any dairy or gluten",
            {
                "dairy": "must not contain any dairy or gluten",
                "gluten": "must not contain any dairy or gluten",
            },
        ),
        ("granola, i dont want anything with gmo", {"gmo": "dont want anything with gmo"}),
        (
            "a cot that i dont want it to come with sheets",
            {"sheets": "dont want it to come with sheets"},
        ),
        (
            "mini pc with no ram, no ssd, and no wifi",
            {"ram": "no ram", "ssd": "no ssd", "wifi": "no wifi"},
        ),
        ("jeans with a button and not a zipper", {"zipper": "not a zipper"}),
        ("a mai tai mix which is not alcoholic", {"alcoholic": "not alcoholic"}),
        ("bars that lack artificial coloring", {"artificial coloring": "lack artificial coloring"}),
        (
            "Not interested in refurbished items. A new iPad",
            {"refurbished": "Not interested in refurbished items"},
        ),
        ("a snack, i'm allergic to peanuts", {"peanuts": "i'm allergic to peanuts"}),
        ("a gift, she hates anything scented", {"scented": "hates anything scented"}),
        ("a mouse, not the logitech brand", {"logitech": "not the logitech brand"}),
        # the maker or shop ruled out after "from" / "made by", and "isn't" / "aren't"
        ("a phone charger that isn't from Apple", {"apple": "isn't from Apple"}),
        ("a charger, not made by apple", {"apple": "not made by apple"}),
        ("headphones that aren't beats", {"beats": "aren't beats"}),
        ("headphones, not sold by amazon", {"amazon": "not sold by amazon"}),
    ],
)
def test_hard_excludes_keep_their_evidence(text: str, expected: dict[str, str]) -> None:
    assert _excluded(text) == expected


def test_free_suffix_excludes_each_listed_ingredient_and_requires_the_phrase() -> None:
    plan = _plan("hair treatments that are sulfate and paraben free")
    assert {c.term: c.evidence for c in plan.exclude} == {
        "sulfate": "sulfate and paraben free",
        "paraben": "sulfate and paraben free",
    }
    assert set(plan.must_have) >= {"sulfate free", "paraben free"}
    assert _excluded("a gluten-free bread") == {"gluten": "gluten-free"}
    evidence = "free from gluten, soy and dairy"
    assert _excluded(f"snack bars {evidence}") == dict.fromkeys(
        ("gluten", "soy", "dairy"), evidence
    )


def test_free_suffix_list_stops_at_words_that_are_not_ingredients() -> None:
    assert _excluded("crackers that need to be keto and gluten free") == {"gluten": "gluten free"}


@pytest.mark.parametrize(
    "text",
    [
        "a hands-free phone mount",
        "cruelty free shampoo",
        "a wrinkle free shirt",
        "hands free headset",
    ],
)
def test_free_features_are_must_haves_not_excludes(text: str) -> None:
    plan = _plan(text)
    assert not plan.exclude
    assert any("free" in m for m in plan.must_have)


@pytest.mark.parametrize(
    ("text", "must"),
    [
        ("a non-slip bath mat", "non-slip"),
        ("non gmo peanut butter", "non gmo"),
        ("no-frills kettle", "no-frills"),
        ("no-show socks", "no-show"),
        ("snow boots with no slip soles", "no slip"),
        ("blackout shades, no tools needed", "no tools needed"),
        ("a moisturizer not tested on animals", "not tested on animals"),
    ],
)
def test_feature_negations_become_must_haves(text: str, must: str) -> None:
    plan = _plan(text)
    assert must in plan.must_have
    assert not plan.exclude


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("wireless headphones, not too loud", {"loud": "not too loud"}),
        ("a margarita mix, not too much sugar", {"sugar": "not too much sugar"}),
        ("a keyboard, preferably not Razer", {"razer": "preferably not Razer"}),
        ("a kettle, ideally no plastic", {"plastic": "ideally no plastic"}),
        ("a phone, i'd rather not have Samsung", {"samsung": "i'd rather not have Samsung"}),
        ("a jacket, would prefer not leather", {"leather": "would prefer not leather"}),
        ("a desk lamp, avoid chrome", {"chrome": "avoid chrome"}),
        ("a sofa, i don't like velvet", {"velvet": "i don't like velvet"}),
        ("a speaker that shouldn't be too big", {"big": "shouldn't be too big"}),
    ],
)
def test_soft_avoids_are_not_excludes(text: str, expected: dict[str, str]) -> None:
    plan = _plan(text)
    assert {c.term: c.evidence for c in plan.avoid} == expected
    assert not plan.exclude


@pytest.mark.parametrize(
    "text",
    [
        "no more than $50 for a blender",
        "not more than $50 for a blender",
        "bluetooth speakers that are not only water resistant but also loud",
        "a bed, no preference for the color",
        "i dont know if you have it, a red lamp",
        "a lamp, no problem if it's big",
        "a bag no bigger than a laptop",
        "shoes in size no 9",
        "a lamp that will not fade or crack",
        "no, i meant a blue one",
        "earbuds that are comfortable without disturbing others",
        "i cant find it without your help",
        "my mouse isn't working, i need a new one",
    ],
)
def test_tricky_phrasings_make_no_exclude(text: str) -> None:
    assert _excluded(text) == {}


def test_or_lists_share_their_modifier_and_comma_lists_need_a_conjunction() -> None:
    assert set(_excluded("snack sticks that have no artificial flavors or colors")) == {
        "artificial flavors",
        "artificial colors",
    }
    assert set(_excluded("an energy drink without any sugar, artificial colors or flavors")) == {
        "sugar",
        "artificial colors",
        "artificial flavors",
    }
    assert set(_excluded("fruit, no preservatives, certified non-gmo, ready to eat")) == {
        "preservatives"
    }


def test_and_joins_a_bare_noun_but_not_an_attribute() -> None:
    assert set(_excluded("a serum without fragrance and paraben")) == {"fragrance", "paraben"}
    assert set(_excluded("a sauce with no added sugar and natural")) == {"added sugar"}
    assert set(_excluded("jerky with no sugar and low carb")) == {"sugar"}


def test_a_negation_before_the_product_stops_at_the_product() -> None:
    plan = _plan("i would like a pair of no mic earbud headphones")
    assert plan.exclude_terms == ("mic",)
    assert plan.category == "earbud headphones"


def test_evidence_is_an_exact_slice_of_the_message() -> None:
    text = "A Mouse That’s NOT Razer, ideally NO RGB, and Sulfate-Free"
    plan = _plan(text)
    normalized = text.replace("’", "'")
    for constraint in (*plan.exclude, *plan.avoid):
        assert constraint.evidence in normalized
        assert constraint.term == constraint.term.lower()


@pytest.mark.parametrize(
    "text",
    [
        "speakers for my pc, no bluetooth needed, under $40",
        "a laptop, no touchscreen required",
        "a mouse, bluetooth not needed",
        "a tv, no need for smart features",
    ],
)
def test_what_is_not_needed_is_neither_excluded_nor_searched(text: str) -> None:
    plan = plan_from_text([text])
    said = {*plan.keywords, *plan.must_have, *plan.exclude_terms, *plan.avoid_terms}
    assert not said & {"bluetooth", "touchscreen", "smart", "needed", "bluetooth needed"}
    assert plan.category is not None


def test_no_tools_needed_stays_a_feature() -> None:
    assert plan_from_text(["a desk, no tools needed"]).must_have == ("no tools needed",)
