"""Attribute values the request names are hard: a pick that states the attribute must hold
one of them (unisex fits either gender); items that do not state it stay."""

from __future__ import annotations

from app.catalog.item import Item
from app.catalog.schema import Offer
from app.tools.plan.shopping_plan import ShoppingPlan
from tests.tools.picker_fixtures import filtered_for


def kurta(n: int, **attributes: str) -> Item:
    offer = Offer(id=str(n), shop="myntra", title=f"Kurta {n}", attributes=attributes)
    return Item.from_offer(offer)


ITEMS = [
    kurta(1, color="Red", gender="Women"),
    kurta(2, color="Red", gender="Men"),
    kurta(3, color="Blue", gender="Women"),
    kurta(4, color="Red", gender="Unisex"),
    kurta(5, gender="Women"),
    kurta(6, color="Red", gender="Girls"),
]


def kept(query: str) -> list[str]:
    filtered = filtered_for(ITEMS, ShoppingPlan(), query=query)
    return [p.item.item_id.split(":")[1] for p in filtered.pool]


def test_asked_colour_and_gender_must_match_where_stated() -> None:
    assert kept("red kurta for women") == ["1", "4", "5"]
    assert kept("women's red kurta") == ["1", "4", "5"]


def test_a_word_inside_another_is_not_asked() -> None:
    assert kept("a kurta for women") == ["1", "3", "4", "5"]
    assert kept("a kurta for men") == ["2", "4"]


def test_a_value_said_in_the_singular_is_asked() -> None:
    """ "a 5 year old girl" names Girls (a Women's kurta had been picked for her); "a man"
    names Men, and a unisex kurta fits him."""
    assert kept("a kurta for a 5 year old girl") == ["6"]
    assert kept("a kurta for a man") == ["2", "4"]


def test_nothing_asked_keeps_everything() -> None:
    assert kept("a kurta") == ["1", "2", "3", "4", "5", "6"]
    assert filtered_for(ITEMS, ShoppingPlan(), query="blue kurta").off_attribute == 4


TAGGED = [
    kurta(1, tags="Pot, Plants"),
    kurta(2, tags="Plants"),
    kurta(3, tags="Candle"),
    kurta(4, tags="men"),
    kurta(5, tags="women"),
    kurta(6, tags="Gold, Turquoise"),
    kurta(7, tags="Silver, Turquoise"),
]


def kept_tagged(query: str) -> list[str]:
    filtered = filtered_for(TAGGED, ShoppingPlan(), query=query)
    return [p.item.item_id.split(":")[1] for p in filtered.pool]


def test_a_list_attribute_is_a_bag_of_facets_not_one_value() -> None:
    """Shopify's tags: "Pot, Plants" holds plants; a tag with no rival kind rules nothing out."""
    assert kept_tagged("a pot for my plants") == ["1", "2", "3", "4", "5", "6", "7"]


def test_only_a_rival_audience_or_colour_in_a_list_rules_an_item_out() -> None:
    assert kept_tagged("a kurta for men") == ["1", "2", "3", "4", "6", "7"]
    assert kept_tagged("a silver kurta") == ["1", "2", "3", "4", "5", "7"]


def item_of(n: int, title: str, **attributes: str) -> Item:
    return Item.from_offer(Offer(id=str(n), shop="myntra", title=title, attributes=attributes))


def test_other_products_never_stand_in_for_the_asked_one_the_filters_rule_out() -> None:
    """Under the budget the one saree is not red: a red lipstick is no red saree."""
    items = [
        item_of(1, "Saree mall Pink & Green Printed Saree", color="Pink"),
        item_of(2, "Lakme Lip Color Rhythmic Red", color="Red"),
        item_of(3, "Boys Red Printed T-shirt", color="Red"),
    ]
    plan = ShoppingPlan(category="saree", keywords=("red",))
    filtered = filtered_for(items, plan, query="saree red")
    assert (filtered.pool, filtered.off_attribute, filtered.other_products) == ((), 1, 2)
    red_saree = item_of(4, "Shaily Red Printed Saree", color="Red")
    filtered = filtered_for([*items, red_saree], plan, query="saree red")
    assert [p.item.item_id for p in filtered.pool] == ["myntra:2", "myntra:3", "myntra:4"]
    assert filtered.other_products == 0


SIZED = [kurta(1, size="S"), kurta(2, size="M"), kurta(3, size="L"), kurta(4, size="XL")]
WORDED = [kurta(1, size="Small"), kurta(2, size="Medium"), kurta(3, size="Large")]


def kept_sized(items: list[Item], query: str) -> list[str]:
    filtered = filtered_for(items, ShoppingPlan(), query=query)
    return [p.item.item_id.split(":")[1] for p in filtered.pool]


def test_a_size_letter_is_asked_only_beside_the_word_size() -> None:
    """The "s" of "men's" and the "m" of "i'm" ask no size; "size l" and "xl size" do."""
    assert kept_sized(SIZED, "a men's kurta") == ["1", "2", "3", "4"]
    assert kept_sized(SIZED, "i'm after a kurta") == ["1", "2", "3", "4"]
    assert kept_sized(SIZED, "a kurta in size l") == ["3"]
    assert kept_sized(SIZED, "an xl size kurta") == ["4"]


def test_a_size_is_asked_by_any_of_its_names() -> None:
    """A shop listing sizes as words is asked them in letters and back ("size m" is Medium)."""
    assert kept_sized(WORDED, "a kurta, size: m") == ["2"]
    assert kept_sized(SIZED, "a large kurta") == ["3"]
