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


def test_nothing_asked_keeps_everything() -> None:
    assert kept("a kurta") == ["1", "2", "3", "4", "5", "6"]
    assert filtered_for(ITEMS, ShoppingPlan(), query="blue kurta").off_attribute == 4
