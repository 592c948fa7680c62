"""The catalog schema: validation of one offer, its conversion to an Item, the item table's
round trip of the new fields, and `pickwise catalog schema`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from app.catalog.currency import usd_rates
from app.catalog.item import Item
from app.catalog.item_table import read_items, write_items
from app.catalog.schema import Offer
from app.cli.catalog_cmd import app

SCHEMA_FIELDS = {
    "id", "shop", "title", "brand", "category_path", "description", "price", "currency",
    "availability", "rating", "review_count", "image_url", "url", "gtin", "mpn", "group_id",
    "attributes", "released",
}  # fmt: skip


def offer(**fields: object) -> Offer:
    return Offer.model_validate({"id": "a1", "shop": "Acme", "title": "Kettle", **fields})


def test_schema_command_prints_exactly_the_offer_fields() -> None:
    result = CliRunner().invoke(app, ["schema"])
    assert result.exit_code == 0, result.output
    schema = json.loads(result.stdout)
    assert set(schema["properties"]) == SCHEMA_FIELDS
    assert set(schema["required"]) == {"id", "shop", "title"}
    assert schema["properties"]["availability"]["enum"] == [
        "in_stock", "out_of_stock", "preorder", "unknown",
    ]  # fmt: skip


def test_offer_normalises_what_a_file_states() -> None:
    got = offer(
        description="<p>Boils <b>fast</b> &amp; quietly</p>",
        currency="eur",
        price="19.5",
        category_path="Home > Kitchen > Kettles",
        availability="In Stock",
        attributes={"Colour": " Red ", "Size": ""},
        brand="  ",
    )
    assert got.shop == "acme"
    assert got.description == "Boils fast & quietly"
    assert (got.price, got.currency) == (19.5, "EUR")
    assert got.category_path == ["Home", "Kitchen", "Kettles"]
    assert got.availability == "in_stock"
    assert got.attributes == {"color": "Red"}
    assert got.brand is None
    assert got.rating is None
    assert got.review_count is None
    assert got.released is None


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"title": ""}, "title"),
        ({"price": "abc", "currency": "USD"}, "price"),
        ({"price": -1, "currency": "USD"}, "greater than or equal to 0"),
        ({"price": 5, "currency": "XYZ"}, "unknown currency 'XYZ'"),
        ({"price": 5}, "a price needs a currency"),
        ({"rating": 7}, "rating"),
        ({"gtin": "12ab"}, "gtin"),
        ({"released": "last year"}, "released"),
        ({"url": "javascript:alert(1)"}, "http(s) URL"),
        ({"shop": "my shop"}, "shop name"),
        ({"availability": "maybe"}, "availability"),
        ({"colour": "red"}, "Extra inputs are not permitted"),
    ],
)
def test_offer_rejects_what_it_cannot_trust(fields: dict[str, object], reason: str) -> None:
    with pytest.raises(ValidationError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        offer(**fields)


def test_item_keeps_the_listed_price_beside_the_converted_one() -> None:
    item = Item.from_offer(
        offer(
            price=1999,
            currency="INR",
            gtin="4006381333931",
            mpn="WK-1",
            group_id="kettle",
            attributes={"color": "Black", "gender": "Unisex"},
            released="2021-05",
            category_path=["Home", "Kettles"],
        )
    )
    assert item.item_id == "acme:a1"
    assert item.platform == "acme"
    assert item.offer_id == "a1"
    assert (item.price, item.currency) == (1999, "INR")
    assert item.price_usd == round(1999 * usd_rates()["INR"], 2)
    assert item.category == "Kettles"
    assert item.color == "Black"
    assert item.ean == ("4006381333931",)
    assert item.model_number == "WK-1"
    assert item.released == 2021
    assert item.availability == "unknown"


def test_demo_item_lists_its_dollar_price() -> None:
    item = Item(item_id="x:1", platform="x", title="T", source="t", price_usd=12.5)
    assert (item.price, item.currency) == (12.5, "USD")
    assert Item(item_id="x:2", platform="x", title="T", source="t").currency is None


def test_item_table_round_trips_the_new_fields(tmp_path: Path) -> None:
    items = [
        Item.from_offer(offer(id="1", price=10, currency="GBP", attributes={"size": "M"})),
        Item.from_offer(offer(id="2", category_path=["A", "B"], availability="preorder")),
    ]
    write_items(tmp_path / "items.parquet", items)
    back = read_items(tmp_path / "items.parquet")
    assert [back[i.item_id] for i in items] == items
