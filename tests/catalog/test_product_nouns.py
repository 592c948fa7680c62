"""The one singular the planner, the search and the picker compare product nouns with, and
the product types that file a product."""

from __future__ import annotations

import pytest

from app.catalog.product_nouns import shelf_key, shelf_keys, singular


@pytest.mark.parametrize(
    ("word", "one"),
    [
        ("cables", "cable"),
        ("batteries", "battery"),
        ("mice", "mouse"),
        ("boxes", "box"),
        ("shelves", "shelf"),
        ("knives", "knife"),
        ("lenses", "lens"),
        ("tvs", "tv"),
        ("pcs", "pc"),
        ("glasses", "glasses"),
        ("gps", "gps"),
        ("ups", "ups"),
        ("wireless", "wireless"),
        ("flip-flops", "flip-flops"),
        ("ssds", "ssd"),
    ],
)
def test_singular(word: str, one: str) -> None:
    assert singular(word) == one


def test_a_product_is_filed_under_its_name_its_catalog_name_and_its_kinds_types() -> None:
    assert shelf_keys("usb stick") == {shelf_key("usb stick"), shelf_key("usb flash drive")}
    assert shelf_key("pc") in shelf_keys("desktop computer")
    assert shelf_key("workstation") in shelf_keys("gaming desktop")
    assert shelf_key("pc") not in shelf_keys("laptop")
