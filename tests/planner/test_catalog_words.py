"""The catalog's kinds merged into the planner's product nouns: a shopper asking for a kind
the lexicon lacks ("kurta", "dupatta") gets it as the plan's category only once the catalog's
profile is in use; junk title heads never reach the planner; the hook puts back what it
replaced."""

from __future__ import annotations

from app.catalog.currency import usd_rates
from app.catalog.item import Item
from app.catalog.profile import build_profile
from app.catalog.profile_kinds import CatalogVocabulary
from app.catalog.schema import Offer
from app.tools.plan import (
    catalog_vocabulary,
    current_vocabulary,
    is_catalog_kind,
    plan_from_text,
    use_catalog_vocabulary,
)


def fashion_vocabulary() -> CatalogVocabulary:
    """The vocabulary of a small fashion catalog whose items list no category."""
    titles = [
        "Women Printed Cotton Kurta",
        "Women Solid Silk Dupatta",
        "Kurta Set Black",
        "Dupatta Pink",
    ]
    items = [
        Item.from_offer(
            Offer.model_validate(
                {"id": f"{n}-{i}", "shop": "myntra", "title": f"Label{i} {title}"}
                | {"price": 900 + i, "currency": "INR", "brand": f"Label{i}"}
            )
        )
        for n, title in enumerate(titles)
        for i in range(6)
    ]
    return build_profile(items).vocabulary()


def test_a_catalog_kind_is_the_plan_category_only_when_merged() -> None:
    asks = {
        "cotton kurtas for women under $40": "kurtas",
        "a red kurta with embroidery": "kurta",
        "show me a silk dupatta": "dupatta",
    }
    for text in asks:
        assert plan_from_text([text]).category is None, text
    with catalog_vocabulary(fashion_vocabulary()):
        for text, category in asks.items():
            plan = plan_from_text([text])
            assert plan.category == category, text
            assert category not in plan.keywords
    assert plan_from_text(["a red kurta with embroidery"]).category is None, "put back"


def test_junk_title_heads_do_not_become_product_nouns() -> None:
    vocabulary = fashion_vocabulary()
    assert {"kurta", "kurtas", "dupatta", "dupattas"} <= vocabulary.kinds
    assert vocabulary.brands == {f"label{i}" for i in range(6)}
    with catalog_vocabulary(vocabulary):
        assert not is_catalog_kind("black")
        assert not is_catalog_kind("pink")
        assert not is_catalog_kind("case"), "a lexicon noun stays the lexicon's"
        assert plan_from_text(["a black case for my phone"]).category == "case"


def test_an_interest_asks_for_its_product_only_where_the_catalog_lists_it() -> None:
    """A fashion catalog sells no cameras: "he likes photography" stays the search word."""
    asked = "a gift for my dad who likes photography"
    assert plan_from_text([asked]).category == "camera"
    with catalog_vocabulary(fashion_vocabulary()):
        plan = plan_from_text([asked])
        assert (plan.category, plan.keywords) == (None, ("photography",))
    with catalog_vocabulary(CatalogVocabulary(kinds=frozenset({"camera", "kurta"}))):
        assert plan_from_text([asked]).category == "camera"


def test_the_hook_returns_what_it_replaces() -> None:
    mine = CatalogVocabulary(kinds=frozenset({"dupatta"}))
    before = use_catalog_vocabulary(mine)
    try:
        assert current_vocabulary() is mine
        assert is_catalog_kind("dupattas")
    finally:
        assert use_catalog_vocabulary(before) is mine
    assert current_vocabulary() is before
    assert not is_catalog_kind("dupatta")


def test_a_bare_amount_is_in_the_catalogs_currency() -> None:
    vocabulary = fashion_vocabulary()
    assert vocabulary.currency == "INR"
    rate = usd_rates()["INR"]
    with catalog_vocabulary(vocabulary):
        plan = plan_from_text(["jhumkas under 500"])
        assert (plan.currency, plan.budget_amount) == ("INR", 500)
        assert plan.budget_usd == round(500 * rate, 2)
        thousands = plan_from_text(["a 3 piece kurta set under 2k"])
        assert (thousands.currency, thousands.budget_usd) == ("INR", round(2000 * rate, 2))
        assert plan_from_text(["kurta budget 1200"]).currency == "INR"
        assert plan_from_text(["a kurta under $40"]).currency == "USD", "a written mark wins"
    assert plan_from_text(["jhumkas under 500"]).currency == "USD", "put back"


def test_a_kind_before_its_container_is_the_product() -> None:
    kinds = frozenset({"kurta", "kurtas", "set", "sets", "pair", "pairs"})
    with catalog_vocabulary(CatalogVocabulary(kinds=kinds)):
        plan = plan_from_text(["a kurta set for women"])
        assert (plan.category, "set" in plan.keywords) == ("kurta", True)
        assert plan_from_text(["a kurta pair"]).category == "kurta"
        assert plan_from_text(["a dining set"]).category == "dining set", "no kind before it"


def priced_vocabulary() -> CatalogVocabulary:
    """A catalog of laptops at $400-$1,400 and monitors at $300-$900, built like any other."""
    rows = [("Acme Laptop 15", 400 + 100 * i) for i in range(11)]
    rows += [("Acme 4K Monitor", 300 + 60 * i) for i in range(11)]
    items = [
        Item.from_offer(
            Offer.model_validate(
                {"id": f"p{n}", "shop": "demo", "title": title, "price": price}
                | {"currency": "USD", "brand": "Acme"}
            )
        )
        for n, (title, price) in enumerate(rows)
    ]
    return build_profile(items).vocabulary()


def test_a_bare_number_is_a_price_where_the_catalog_prices_the_product_so() -> None:
    """'over 300' and 'between 800 and 1200' carry no currency: they are prices only where
    the product's own prices make them so ('a monitor over 27' is a size), never without a
    catalog, and an unread range leaves its numbers to the search."""
    cases = {
        "a laptop between 800 and 1200": (800.0, 1200.0, ()),
        "a laptop between 13 and 15": (None, None, ("13", "15")),
        "a monitor over 500": (500.0, None, ()),
        "a monitor over 27": (None, None, ()),
        "a monitor for photo editing around 300": (None, 330.0, ()),
        "a monitor around 27": (None, None, ("27",)),
        "a laptop from 2020": (None, None, ()),
        "a gift for someone over 60": (None, None, ()),
    }
    with catalog_vocabulary(priced_vocabulary()):
        for text, expected in cases.items():
            plan = plan_from_text([text])
            assert (plan.budget_min_usd, plan.budget_usd, plan.keywords) == expected, text
        near = plan_from_text(["a monitor for photo editing around 300"]).budget_target_usd
    assert near == 300.0  # "around": the picker ranks prices near it first
    unpriced = plan_from_text(["a laptop between 800 and 1200"])
    assert (unpriced.budget_min_usd, unpriced.budget_usd) == (None, None)


def test_a_catalog_brand_said_with_only_is_a_must_have() -> None:
    brands = CatalogVocabulary(brands=frozenset({"razer", "western digital", "one"}))
    asks = {
        ("a gaming keyboard", "only razer"): ("razer",),
        ("a gaming keyboard", "razer only"): ("razer",),
        ("an external hard drive, only from western digital",): ("western digital",),
        ("i only need one mouse",): (),  # a number word is no brand, whatever the catalog
    }
    with catalog_vocabulary(brands):
        for messages, must_have in asks.items():
            plan = plan_from_text(list(messages))
            assert plan.must_have == must_have, messages
            assert not set(must_have) & set(plan.keywords), messages
    assert plan_from_text(["a gaming keyboard", "only razer"]).must_have == (), "no catalog"
