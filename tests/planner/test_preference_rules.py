"""Preference rules: what the shopper would like (prefer) and what the item must have."""

from __future__ import annotations

import pytest

from app.tools.plan.planner_rules import plan_from_text


@pytest.mark.parametrize(
    ("text", "prefer"),
    [
        ("a hoodie, preferably black", ("black",)),
        ("a hoodie, ideally in navy", ("navy",)),
        ("a lamp, if possible with a dimmer", ("dimmer",)),
        ("a laptop with a backlit keyboard if possible", ("backlit keyboard",)),
        ("a hoodie with a loose fit. sky blue and large is preferred", ("sky blue", "large")),
        ("a sofa, grey would be nice", ("grey",)),
        ("i would prefer the navy linen color for the sofa", ("navy linen",)),
        ("ideally the flavor should be very garlicky", ("garlicky",)),
        ("a cheap laptop for school", ("school",)),
        ("a webcam for zoom calls under $50", ("zoom calls",)),
        ("a backpack for my high school", ("high school",)),
        ("a projector for movies under $300", ("movies",)),
        ("a cheap printer for home, no hp", ("home",)),
        ("a monitor for photo editing, at least 24 inch", ("photo editing",)),
        ("looking for a laptop for school", ("school",)),
        ("i am looking for a home office desk chair", ()),
        ("a leakproof travel bottle for shampoo", ()),
        ("a set of bottles for travel", ("travel",)),
        ("an ergonomic mouse for wrist pain", ("wrist pain",)),
        ("noise cancelling headphones for flights", ("flights",)),
        ("a keyboard for programming", ("programming",)),
        ("a router for a big house", ("big house",)),
        ("earrings for her birthday", ("birthday",)),
        ("a watch for our anniversary", ("anniversary",)),
        ("earrings for my wife's birthday", ("birthday",)),
        ("a watch for my son's graduation", ("graduation",)),
        ("a lamp for my kids' room", ("room",)),
        ("a lamp for the bedroom", ("bedroom",)),
        ("a big tv for the living room", ("living room",)),
        # a capability ("that can scan") is a wish, not a search word
        ("a printer that can scan too, wireless", ("scan",)),
        ("a stroller that can be folded", ("folded",)),
        ("a camera which can also record video", ("record video",)),
    ],
)
def test_prefer(text: str, prefer: tuple[str, ...]) -> None:
    assert plan_from_text([text]).prefer == prefer


@pytest.mark.parametrize(
    ("text", "must"),
    [
        ("a keyboard that must have rgb lighting", ("rgb lighting",)),
        ("a tent that needs to be waterproof", ("waterproof",)),
        (
            "a speaker that has bluetooth and a long battery life",
            ("bluetooth", "long battery life"),
        ),
        ("a phone case with a kickstand", ("kickstand",)),
        ("a drill that needs to be easy to use", ("easy to use",)),
        ("a desk chair with lumbar support and a headrest", ("lumbar support", "headrest")),
        ("a laptop with 16gb ram", ("16gb ram",)),
        ("a laptop with 8gb or 16gb ram", ("8gb or 16gb ram",)),
        ("a laptop with 16gb ram or 1tb ssd", ("16gb ram", "1tb ssd")),
        ("a monitor with a built in webcam", ("built-in webcam",)),
        ("a wifi router. it should be of black color", ("black",)),
        ("a desktop which includes of 8gb ram", ("8gb ram",)),
        ("a desktop with 8gb ram + 512gb ssd", ("8gb ram", "512gb ssd")),
        ("a pc with 8gb ram 128gb ssd", ("8gb ram", "128gb ssd")),
        ("a tablet with ram 4gb storage 64gb", ("ram 4gb", "storage 64gb")),
        ("a phone that has ram 8gb rom 128gb", ("ram 8gb", "rom 128gb")),
        # a count before a port kind is a port count ("4 ethernet" and "ports" had been words)
        ("a router with at least 4 ethernet ports", ("at least 4 ethernet ports",)),
        ("a usb hub with 4 usb 3.0 ports", ("4 usb 3.0 ports",)),
        # words that name nothing end no must-have
        ("a camera with an optical zoom feature", ("optical zoom",)),
        ("a headset with stereo sound", ("stereo",)),
        ("a speaker with support for sd cards", ("sd cards",)),
        ("a mini computer with16 gig of ram", ("16 gig of ram",)),
        ("a tv with support of hdr", ("hdr",)),
        # how it connects or what it runs on is a requirement
        ("a keyboard that connects via bluetooth", ("bluetooth",)),
        ("a mic that plugs in via usb", ("usb",)),
        ("a laptop that runs on windows 11", ("windows 11",)),
        ("a charger with fast charge capability", ("fast charge",)),
        # praise names nothing: "a good mic" asks for a mic
        ("a webcam for zoom calls with a good mic", ("mic",)),
        ("an office chair with great lumbar support", ("lumbar support",)),
        # "be able to" is how a need is said, not what is needed
        ("a phone that needs to be able to store 128 gigabytes", ()),
        ("a pajama set; i must be able to machine wash it cold", ()),
    ],
)
def test_must_have(text: str, must: tuple[str, ...]) -> None:
    plan = plan_from_text([text])
    assert plan.must_have == must
    assert not {"able", "good", "great"} & set(plan.keywords)


@pytest.mark.parametrize(
    ("text", "prefer"),
    [
        ("what's a good mouse for someone with small hands", ("small hands",)),
        ("a laptop for a person with bad eyesight", ("bad eyesight",)),
        ("a keyboard for people with arthritis", ("arthritis",)),
        ("headphones for someone with glasses, under $100", ("glasses",)),
    ],
)
def test_with_after_a_person_tells_of_the_person(text: str, prefer: tuple[str, ...]) -> None:
    """ "for someone with small hands": no title says it, and "person" is no search word."""
    plan = plan_from_text([text])
    assert (plan.must_have, plan.prefer, plan.keywords) == ((), prefer, ())


def test_with_after_an_audience_still_asks_of_the_product() -> None:
    assert plan_from_text(["a tablet for kids with a case"]).must_have == ("case",)


@pytest.mark.parametrize(
    ("text", "must", "prefer"),
    [
        ("a router for a big house with lots of devices", (), ("big house", "devices")),
        ("a backpack with plenty of pockets", (), ("pockets",)),
        ("a tv that has a lot of apps", (), ("apps",)),
        ("a speaker with many features and bluetooth", ("bluetooth",), ()),
        ("a desk with several drawers, preferably white", (), ("drawers", "white")),
        ("a laptop with more than 8gb ram", ("over 8gb ram",), ()),
    ],
)
def test_a_count_is_a_wish_for_more_of_what_is_counted(
    text: str, must: tuple[str, ...], prefer: tuple[str, ...]
) -> None:
    """ "with lots of devices" is no phrase a title states: it would filter every item out."""
    plan = plan_from_text([text])
    assert (plan.must_have, plan.prefer) == (must, prefer)


@pytest.mark.parametrize(
    "text",
    [
        "a cheap printer for home",
        "cheap earbuds",
        "an affordable tablet",
        "the cheapest mouse",
        "a low cost monitor",
        "a bargain laptop",
        "headphones that won't break the bank",
        "a reasonably priced monitor",
        "a mouse under 20 dollars, nothing fancy",
        "the best budget headphones",
    ],
)
def test_price_words_are_no_search_words(text: str) -> None:
    plan = plan_from_text([text])
    assert plan.category
    assert plan.keywords == ()


@pytest.mark.parametrize(
    "text", ["a mouse that is not too expensive", "a keyboard, nothing too pricey"]
)
def test_a_low_price_wish_excludes_nothing(text: str) -> None:
    plan = plan_from_text([text])
    assert (plan.cheap, plan.exclude_terms, plan.avoid_terms) == (True, (), ())


@pytest.mark.parametrize(
    "text",
    [
        "a charger compatible with iphones",
        "i need a keyboard",
        "a bag, help me with it",
        "i dont have a preference for the color of the lamp",
        "a mat that goes with my sofa",
    ],
)
def test_no_must_have_without_a_clear_cue(text: str) -> None:
    plan = plan_from_text([text])
    assert plan.must_have == ()
    assert plan.prefer == ()


def test_preferences_are_not_keywords() -> None:
    plan = plan_from_text(["wireless headphones, preferably black"])
    assert "black" not in plan.keywords
    assert plan.prefer == ("black",)
    assert "black" not in plan.query_text()


def test_preferences_are_ordered_by_their_last_statement() -> None:
    plan = plan_from_text(["a mouse, preferably wireless, preferably quiet", "preferably wireless"])
    assert plan.prefer == ("quiet", "wireless")


@pytest.mark.parametrize(
    ("text", "keywords"),
    [
        ("a cheap laptop for school", ()),
        ("a laptop for gaming", ("gaming",)),
        ("a case for my movie camera", ("movie", "camera")),
        ("earrings for my wife's birthday", ()),
        ("a case for the laptop's charger", ("laptop's", "charger")),
    ],
)
def test_a_purpose_is_no_search_word_but_a_target_is(text: str, keywords: tuple[str, ...]) -> None:
    assert plan_from_text([text]).keywords == keywords


@pytest.mark.parametrize(
    ("messages", "must_have", "keywords"),
    [
        (
            ["noise cancelling headphones", "any wireless ones?"],
            ("wireless",),
            ("noise-cancelling",),
        ),
        (["a mouse", "the blue one"], ("blue",), ()),
        (["a keyboard", "black colored ones please"], ("black",), ()),
        (["a usb flash drive. pick a gold one"], ("gold",), ()),
        (["earbuds", "any cheaper ones?"], (), ()),
        (["a keyboard", "any other ones"], (), ()),
        (["an xbox one controller"], (), ("xbox",)),
        (["a dustproof phone case? ill take one in white"], (), ("dustproof", "take", "white")),
        (["a shade. get the fifty two inch ones"], (), ("52 inch",)),
    ],
)
def test_a_trait_asked_of_ones_is_a_must_have(
    messages: list[str], must_have: tuple[str, ...], keywords: tuple[str, ...]
) -> None:
    plan = plan_from_text(messages)
    assert (plan.must_have, plan.keywords) == (must_have, keywords)
