"""The pure parts of item_search: argument validation, scope resolution from the plan, query
rewrites, the item matchers of the post-filters, dedup, block reasons and the floor."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from app.catalog.item import Item
from app.config.registry import REGISTRY
from app.recall.fusion import FusedHit
from app.tools.plan.shopping_plan import BundleSlot, Constraint, ShoppingPlan
from app.tools.search._args import ItemSearchArgs, resolve_scope
from app.tools.search._expansion import content_words, expansion_variants, listed_as_queries
from app.tools.search._postfilters import ItemMatchers, apply_postfilters, dedupe
from app.tools.search._probe import Block, block_reasons, explain_blocks
from app.tools.search._relevance import RelevanceFloor, ScoredHit, on_topic
from app.tools.search._result import PriceOnly
from app.tools.search._sheets import _asked_product
from app.tools.terms import make_terms


def item(item_id: str, title: str, **fields: Any) -> Item:
    platform = item_id.split(":")[0]
    return Item(item_id=item_id, platform=platform, title=title, source="test", **fields)


def scored(it: Item, relevance: float | None = 0.9, lexical: bool = True) -> ScoredHit:
    hit = FusedHit(it.item_id, 0.5, {"dense": relevance, "bm25": 1.0}, 1)
    return ScoredHit(hit, it, relevance, lexical)


def scope(plan: ShoppingPlan | None = None, **args: Any) -> Any:
    return resolve_scope(
        ItemSearchArgs(**{"query": "usb hub", **args}),
        plan or ShoppingPlan(),
        default_top_k=10,
        max_top_k=50,
    )


def test_arguments_are_normalised() -> None:
    args = ItemSearchArgs(
        query="  usb hub ", platform=["Amazon", "ICECAT"], brand_exclude=[" Sony ", "sony  "]
    )
    assert args.query == "usb hub"
    assert args.platform == ["amazon", "icecat"]
    assert args.brand_exclude == ["Sony", "sony"]
    assert ItemSearchArgs(query="x", platform="ALL").platform == "all"


@pytest.mark.parametrize(
    "bad",
    [
        {"query": ""},
        {"query": "hub", "platform": []},
        {"query": "hub", "price_usd_max": float("inf")},
        {"query": "hub", "min_rating": -1},
        {"query": "hub", "brand_exclude": ["  "]},
        {"query": "hub", "slot": ""},
        {"query": "hub", "top_k": "many"},
        {"query": "hub", "price_usd_min": 50, "price_usd_max": 20},
    ],
)
def test_bad_arguments_are_rejected(bad: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        ItemSearchArgs(**bad)


def test_scope_defaults_come_from_the_plan() -> None:
    plan = ShoppingPlan(
        budget_usd=80,
        platforms=("walmart", "amazon"),
        exclude=(Constraint(term="Refurbished"),),
        bundle=(BundleSlot(slot="mouse", category="mouse", budget_usd=20),),
    )
    main = scope(plan)
    assert main.platforms == ("walmart", "amazon")
    assert (main.price_max, main.budget_source) == (80, "plan")
    assert main.exclude_terms == ("refurbished",)
    mouse = scope(plan, slot="mouse")
    assert (mouse.price_max, mouse.budget_source) == (20, "slot")
    asked = scope(plan, slot="mouse", price_usd_max=35, platform="all")
    assert (asked.price_max, asked.budget_source, asked.platforms) == (35, "args", ())
    assert scope().has_hard_filters is False
    assert main.has_hard_filters is True


def test_a_plans_price_floor_holds_for_a_plan_without_a_bundle() -> None:
    ranged = ShoppingPlan(budget_usd=600, budget_min_usd=300)
    main = scope(ranged)
    assert (main.price_min, main.price_max) == (300, 600)
    assert main.filters().price_min == 300
    assert scope(ranged, price_usd_min=400).price_min == 400
    under = scope(ranged, price_usd_max=200)
    assert (under.price_min, under.floor_set_aside) == (None, 300)
    assert main.floor_set_aside is None
    asked_over = scope(ShoppingPlan(budget_usd=200), price_usd_min=300)
    assert (asked_over.price_min, asked_over.floor_set_aside) == (None, 300)
    bundled = ranged.model_copy(update={"bundle": (BundleSlot(slot="tv", category="tv"),)})
    assert scope(bundled, slot="tv").price_min is None
    assert scope(ShoppingPlan(budget_min_usd=300)).has_hard_filters is True


def test_top_k_is_capped_not_rejected() -> None:
    capped = resolve_scope(
        ItemSearchArgs(query="hub", top_k=80), ShoppingPlan(), default_top_k=10, max_top_k=50
    )
    assert (capped.top_k, capped.requested_top_k, capped.top_k_capped) == (50, 80, True)
    assert scope().top_k == 10


def test_scope_filters_carry_brands_and_drop_rating_when_relaxed() -> None:
    strict = scope(brand="Logitech", brand_exclude=["HP"], min_rating=4, price_usd_max=30)
    filters = strict.filters()
    assert (filters.brands_in, filters.brands_out) == (("logitech",), ("hp",))
    assert (filters.rating_min, filters.price_max) == (4, 30)
    relaxed = strict.without_rating().filters()
    assert relaxed.rating_min is None
    assert relaxed.price_max == 30
    assert relaxed.brands_in == ("logitech",)
    assert strict.probe_filters().is_empty()


def test_expansion_variants() -> None:
    question = 'Could you please find me a "USB-C hub" for my MacBook, with HDMI and SD card?'
    variants = expansion_variants(question, limit=3)
    assert variants[0] == "usb-c hub"
    assert len(variants) <= 3
    assert all("please" not in v and "could" not in v for v in variants)
    assert expansion_variants("usb hub", limit=3) == []
    assert expansion_variants(question, limit=1) == ["usb-c hub"]
    assert expansion_variants(question, limit=0) == []
    assert content_words("what is the best 15 inch laptop?") == ["15", "inch", "laptop"]


@pytest.mark.parametrize(
    ("query", "product", "expected"),
    [
        ("lamp bedroom", "lamp", [("light bedroom", "light")]),
        (
            "sneakers white",
            "sneakers",
            [("trainer white", "trainer"), ("high top white", "high top")],
        ),
        ("planter", None, [("plant pot", "plant pot"), ("pot", "pot")]),
        ("a grey couch", None, [("a grey sofa", "sofa")]),
        ("bedside table", None, [("nightstand", "nightstand")]),
        ("cushion sofa", "cushion", [("pillow sofa", "pillow")]),
        (
            "dell laptop charger",
            "laptop charger",
            [("dell power adapter", "power adapter"), ("dell ac adapter", "ac adapter")],
        ),
        # a compound the vocabulary does not list keeps its modifier's meaning
        ("desk lamp", "desk lamp", []),
        ("bedside table", "table", []),
        ("usb hub", "usb hub", []),
    ],
)
def test_listed_as_queries_swap_the_product_for_the_names_shops_list_it_as(
    query: str, product: str | None, expected: list[tuple[str, str]]
) -> None:
    assert listed_as_queries(query, product) == expected


def test_excluded_brand_by_field_or_by_leading_title_word() -> None:
    matchers = ItemMatchers(scope(brand_exclude=["Sony"]))
    assert matchers.excluded_brand(item("icecat:1", "MDR headphones", brand="SONY")) == "Sony"
    assert matchers.excluded_brand(item("buy:2", "Sony HDMI Mini Cable")) == "Sony"
    assert matchers.excluded_brand(item("buy:3", "Sonycam case")) is None
    assert matchers.excluded_brand(item("buy:4", "Case for Sony cameras")) is None
    assert matchers.excluded_brand(item("amazon:5", "Sony charger", brand="Belkin")) is None


def test_exclude_terms_match_words_in_title_brand_or_category() -> None:
    matchers = ItemMatchers(scope(ShoppingPlan(exclude=(Constraint(term="mini usb"),))))
    assert matchers.exclude_term(item("icecat:1", "Cable Mini  USB 2m")) == "mini usb"
    assert matchers.exclude_term(item("icecat:2", "Cable", category="mini usb cables")) is not None
    assert matchers.exclude_term(item("icecat:3", "Minimal USB cable")) is None
    leather = ItemMatchers(scope(ShoppingPlan(exclude=(Constraint(term="leather"),))))
    assert leather.exclude_term(item("amazon:4", "Faux-Leather case")) == "leather"
    assert leather.exclude_term(item("amazon:5", "Leatherette case")) is None


def test_model_number_ignores_case_and_separators() -> None:
    matchers = ItemMatchers(scope(model_number="WH-1000XM4"))
    assert matchers.model_matches(item("amazon:1", "Sony wh1000xm4 headphones"))
    assert matchers.model_matches(item("amazon:2", "Headphones", model_number="WH 1000XM4"))
    assert matchers.model_matches(item("amazon:3", "Sony WH 1000XM4 black"))
    assert not matchers.model_matches(item("amazon:4", "Sony WH-1000XM3 headphones"))
    assert ItemMatchers(scope()).model_matches(item("amazon:5", "anything"))


def test_postfilters_count_each_hit_once_in_order() -> None:
    matchers = ItemMatchers(
        scope(ShoppingPlan(exclude=(Constraint(term="refurbished"),)), brand_exclude=["Acme"])
    )
    hits = [
        scored(item("buy:1", "Acme refurbished hub"), relevance=0.01, lexical=False),
        scored(item("buy:2", "Acme refurbished hub")),
        scored(item("buy:3", "Refurbished hub", brand="Other")),
        scored(item("buy:4", "Fine hub", brand="Other")),
    ]
    with REGISTRY.overridden(RELEVANCE_FLOOR_FOUND=0.5):
        kept, removed = apply_postfilters(hits, matchers)
    assert [h.item_id for h in kept] == ["buy:4"]
    assert removed.as_dict() == {
        "relevance_floor": 1,
        "brand_exclude": 1,
        "session_exclude": 1,
        "model_number": 0,
        "duplicates": 0,
    }


def test_relevance_floor() -> None:
    with REGISTRY.overridden(RELEVANCE_FLOOR=0.5, RELEVANCE_FLOOR_LEXICAL=0.15):
        floor = RelevanceFloor.current()
    assert floor.passes(0.5, lexical=False)
    assert not floor.passes(0.49, lexical=False)
    assert floor.passes(0.2, lexical=True)
    assert not floor.passes(0.1, lexical=True)
    assert floor.passes(None, lexical=True), "a lexical hit whose vector is unknown"
    assert not floor.passes(None, lexical=False)
    with REGISTRY.overridden(RELEVANCE_FLOOR=0.3, RELEVANCE_FLOOR_LEXICAL=0.6):
        assert RelevanceFloor.current().passes(0.35, lexical=True), "lexical never stricter"


def test_the_floor_is_lowered_once_a_hit_passes_it() -> None:
    with REGISTRY.overridden(
        RELEVANCE_FLOOR=0.5, RELEVANCE_FLOOR_LEXICAL=0.15, RELEVANCE_FLOOR_FOUND=0.2
    ):
        floor = RelevanceFloor.current()
        gibberish = floor.for_hits([(0.4, False), (0.1, True), (None, False)])
        found = floor.for_hits([(0.3, False), (0.2, True), (None, False)])
    assert gibberish == floor, "no hit passed the floor: it stays"
    assert found.passes(0.2, lexical=False)
    assert not found.passes(0.19, lexical=False)
    assert found.passes(0.15, lexical=True), "never stricter than the lexical floor"
    assert not found.passes(None, lexical=False)


def test_on_topic_reads_the_whole_floor_when_the_kept_hits_pass_a_lowered_one() -> None:
    hits = [
        scored(item("buy:1", "usb hub"), relevance=0.6, lexical=False),
        scored(item("buy:2", "usb cable"), relevance=0.3, lexical=False),
        scored(item("buy:3", "hub stand"), relevance=0.2, lexical=True),
        scored(item("buy:4", "desk lamp"), relevance=0.1, lexical=True),
        scored(item("buy:5", "hub"), relevance=None, lexical=True),
    ]
    with REGISTRY.overridden(
        RELEVANCE_FLOOR=0.5, RELEVANCE_FLOOR_LEXICAL=0.15, RELEVANCE_FLOOR_FOUND=-1.0
    ):
        kept, removed = apply_postfilters(hits, ItemMatchers(scope()))
        topical = on_topic(kept)
    assert kept == hits, "buy:1 passes the floor, so every hit needs only the found floor"
    assert removed.relevance_floor == 0
    assert [h.item_id for h in topical] == ["buy:1", "buy:3", "buy:5"]
    with REGISTRY.overridden(RELEVANCE_FLOOR=0.7, RELEVANCE_FLOOR_FOUND=-1.0):
        assert [h.item_id for h in on_topic(hits)] == ["buy:3", "buy:5"], "lexical ones only"


def test_dedupe_by_id_and_by_title_and_brand() -> None:
    first = item("icecat:1", "USB Hub 4-port", brand="Acme")
    hits = [
        scored(first),
        scored(first),
        scored(item("amazon:2", "usb hub (4 port)", brand="ACME")),
        scored(item("walmart:3", "USB Hub 4-port", brand="Other")),
    ]
    kept, dropped = dedupe(hits)
    assert [h.item_id for h in kept] == ["icecat:1", "walmart:3"]
    assert dropped == 2


def test_block_reasons_are_checked_in_order() -> None:
    plan = ShoppingPlan(exclude=(Constraint(term="refurbished"),))
    strict = scope(plan, brand="Acme", min_rating=4, price_usd_max=20)
    matchers = ItemMatchers(strict)
    everything = item("amazon:1", "Refurbished hub", brand="Other", price_usd=50)
    reasons = [r for r, _ in block_reasons(everything, strict, matchers)]
    assert reasons == ["brand", "exclude_term", "rating", "price"]
    only_price = item("amazon:2", "Hub", brand="Acme", rating=4.5, price_usd=25)
    assert block_reasons(only_price, strict, matchers) == (
        ("price", "$25.00 is above the $20.00 budget"),
    )
    fits = item("amazon:3", "Hub", brand="Acme", rating=4.5, price_usd=15)
    assert block_reasons(fits, strict, matchers) == ()
    floored = scope(price_usd_min=30, price_usd_max=80)
    assert block_reasons(fits, floored, ItemMatchers(floored)) == (
        ("price_floor", "$15.00, below the $30.00 floor"),
    )
    unpriced = item("amazon:4", "Hub", brand="Acme", price_usd=None)
    assert block_reasons(unpriced, floored, ItemMatchers(floored)) == (("price", "price unknown"),)
    lone_floor = scope(price_usd_min=30)
    assert block_reasons(unpriced, lone_floor, ItemMatchers(lone_floor)) == (
        ("price_floor", "price unknown, so the $30.00 floor cannot be checked"),
    )


def test_price_only_needs_every_blocked_item_to_fail_on_price_alone() -> None:
    budget = scope(price_usd_max=20)
    matchers = ItemMatchers(budget)
    over = [scored(item(f"icecat:{p}", f"Hub {p}", price_usd=p)) for p in (64, 30)]
    unknown = scored(item("amazon:9", "Hub n/a"))
    findings = explain_blocks([*over, unknown], set(), budget, matchers)
    verdict = findings.price_only
    assert verdict is not None
    assert (verdict.blocked, verdict.over_budget, verdict.unknown_price) == (3, 2, 1)
    assert verdict.cheapest_usd == 30
    sentence = PriceOnly(**vars(verdict)).sentence()
    assert sentence == (
        "2 matches are above your $20.00 budget; the cheapest is $30.00 (1 more has no known price)"
    )
    branded = scope(price_usd_max=20, brand="Acme")
    mixed = explain_blocks(over, set(), branded, ItemMatchers(branded))
    assert mixed.price_only is None
    assert {b.reason for b in mixed.blocked} == {"brand"}


def test_with_the_asked_product_the_verdict_weighs_the_items_that_name_it() -> None:
    budget = scope(price_usd_max=50)
    matchers = ItemMatchers(budget)
    strip = scored(item("icecat:1", "Tripp Lite Power Strip", price_usd=59))
    banks = [
        scored(item("icecat:2", "Anker PowerCore power bank", price_usd=119)),
        scored(item("icecat:3", "Tripp Lite Portable Power Bank 10,000 mAh", price_usd=77)),
    ]
    findings = explain_blocks([strip, *banks], set(), budget, matchers, product="power bank")
    verdict = findings.price_only
    assert verdict is not None
    assert (verdict.product, verdict.blocked, verdict.cheapest_usd) == ("power bank", 2, 77)
    assert [b.item.item_id for b in findings.blocked] == ["icecat:1", "icecat:2", "icecat:3"]
    unnamed = explain_blocks([strip], set(), budget, matchers, product="power bank")
    assert unnamed.price_only is not None
    assert (unnamed.price_only.product, unnamed.price_only.cheapest_usd) == (None, 59)
    sentence = PriceOnly(**vars(verdict)).sentence()
    assert (
        sentence
        == "2 matches for a power bank are above your $50.00 budget; the cheapest is $77.00"
    )


def test_a_must_have_that_is_the_brand_goes_before_the_product_in_the_verdict() -> None:
    budget = scope(price_usd_max=67)
    lycosa = item("walmart:1", "Razer Lycosa Gaming Keyboard", brand="Razer", price_usd=67.84)
    blocks = [Block(lycosa, block_reasons(lycosa, budget, ItemMatchers(budget)))]
    razer, wifi = make_terms(["razer", "wifi 6"])
    assert _asked_product("gaming keyboard", [razer], blocks) == "razer gaming keyboard"
    assert _asked_product("keyboard", [razer, wifi], blocks) == "razer keyboard with wifi 6"
    assert _asked_product("router", [wifi], blocks) == "router with wifi 6"


def test_irrelevant_or_kept_probe_hits_are_not_blocked() -> None:
    budget = scope(price_usd_max=20)
    junk = scored(item("icecat:1", "Hub", price_usd=64), relevance=0.05, lexical=False)
    kept = scored(item("icecat:2", "Hub", price_usd=64))
    findings = explain_blocks([junk, kept], {"icecat:2"}, budget, ItemMatchers(budget))
    assert findings.blocked == []
    assert findings.price_only is None
