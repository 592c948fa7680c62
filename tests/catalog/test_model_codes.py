"""Model codes a shopper types and whether an item writes them: codes are model-like tokens,
short series marks and numbers after a series word; quantities, sizes and decimals are not."""

from __future__ import annotations

import pytest

from app.catalog.item import Item
from app.catalog.model_codes import named_codes, query_codes


def item(title: str, description: str = "", model: str | None = None) -> Item:
    return Item(
        item_id="icecat:1",
        platform="icecat",
        title=title,
        description=description,
        model_number=model,
        source="icecat",
    )


@pytest.mark.parametrize(
    ("query", "codes"),
    [
        ("rtx 2060", ["rtx 2060"]),
        ("an xbox 360 controller", ["xbox 360"]),
        ("brother tn-2110 toner", ["tn-2110"]),
        ("galaxy s10 case", ["s10"]),
        ("logitech g502 mouse", ["g502"]),
        ("a laptop with an i7-9750h", ["i7-9750h"]),
        ("model 1234 remote", ["model 1234"]),
        ("1080p monitor", []),
        ("32gb ram laptop", []),
        ("usb 3.0 hub", []),
        ("ps4 games", []),
        ("windows 10", []),
        ("a 198 gram box", []),
        ("i need 300 sheets", []),
        ("100% cotton", []),
        ('a 50"x60" throw', []),
        ("size-12 sneakers", []),
        ("a 12-pack of aa batteries", []),
        ("10th gen intel laptop", []),
    ],
)
def test_codes_name_a_model_and_quantities_sizes_and_common_words_do_not(
    query: str, codes: list[str]
) -> None:
    assert [c.text for c in query_codes(query)] == codes


@pytest.mark.parametrize(
    "title",
    ["ASUS Dual GeForce RTX 2060 6 GB", "MSI GeForce RTX2060 VENTUS", "Gigabyte RTX-2060 OC"],
)
def test_a_code_is_named_with_or_without_separators(title: str) -> None:
    assert named_codes(item(title), query_codes("rtx 2060")) == 1


def test_a_near_code_is_not_the_code() -> None:
    codes = query_codes("rtx 2060")
    assert named_codes(item("ASUS Dual RTX 2070 8 GB"), codes) == 0
    assert named_codes(item("ASUS RTX 20600"), codes) == 0


def test_model_number_and_description_name_a_code_too() -> None:
    codes = query_codes("brother tn-2110 toner")
    assert named_codes(item("Brother toner Original Black", model="TN2110"), codes) == 1
    assert named_codes(item("Brother toner", "Toner TN 2110 for HL-2140"), codes) == 1


def test_each_code_named_counts() -> None:
    codes = query_codes("asus pn41 with a celeron n4500")
    assert [c.text for c in codes] == ["pn41", "n4500"]
    assert named_codes(item("ASUS PN41 mini PC", "Intel Celeron N4500"), codes) == 2
    assert named_codes(item("ASUS PN41 mini PC", "Intel Celeron N5100"), codes) == 1
