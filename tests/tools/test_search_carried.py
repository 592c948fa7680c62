"""Whether the catalog lists a product at all: every item saying the product's noun is read
the way a hit is, so an accessory for the product, another kind of it or an item named for
it in a live upsert each count as they should."""

from __future__ import annotations

from typing import Any

import pytest

from app.catalog.item import Item
from app.tools.search._carried import CarriedLookup


def item(item_id: str, title: str, **fields: Any) -> Item:
    return Item(item_id=item_id, platform="shop", title=title, source="test", **fields)


ITEMS = {
    i.item_id: i
    for i in (
        item("shop:1", "Inner-Ear Sports Clip Earbuds - Red"),
        item("shop:2", "NEC NP10LP projector lamp"),
        item("shop:3", "Targus Laptop Sleeve 15.6in"),
        item("shop:4", "Clay Plant Pot, 6 inch"),
        item("shop:5", "Anker Power-Bank 10000mAh"),
        item("shop:6", "Wacom Intuos Graphics Tablet"),
    )
}


@pytest.mark.parametrize(
    ("product", "carried"),
    [
        ("earrings", False),  # earbuds share no word with it
        ("desk lamp", False),  # a projector lamp says lamp, not desk lamp
        ("projector lamp", True),
        ("laptop", False),  # only a sleeve for one
        ("planter", True),  # listed as a plant pot
        ("power bank", True),  # a hyphenated compound names it
        ("tablet", False),  # a graphics tablet is another kind
    ],
)
def test_a_product_is_carried_when_an_item_names_it(product: str, carried: bool) -> None:
    assert CarriedLookup(ITEMS).carries(product) is carried


def test_an_item_added_later_is_read_and_an_earlier_answer_forgotten() -> None:
    items = dict(ITEMS)
    lookup = CarriedLookup(items)
    assert not lookup.carries("earrings")
    added = item("shop:7", "Guardian Angel Earrings")
    items[added.item_id] = added
    lookup.add(added)
    assert lookup.carries("earrings")


def test_an_item_whose_description_opens_with_the_product_is_one() -> None:
    high_tops = item(
        "shop:8", "LED High Tops", description="Black high top shoes with LED lights. Laces."
    )
    bulb = item("shop:9", "NP12 Spare", description="Original projector lamp for NEC units.")
    lookup = CarriedLookup({i.item_id: i for i in (high_tops, bulb)})
    assert lookup.carries("shoes")
    assert lookup.carries("projector lamp")
    assert not lookup.carries("desk lamp"), "the opening names a lamp, not a desk lamp"
    assert not lookup.carries("laces"), "only the first sentence's head counts"
