"""The one singular the planner, the search and the picker compare product nouns with."""

from __future__ import annotations

import pytest

from app.catalog.product_nouns import singular, sold_for_another


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
        ("hoodies", "hoodie"),
        ("ties", "tie"),
        ("accessories", "accessory"),
    ],
)
def test_singular(word: str, one: str) -> None:
    assert singular(word) == one


@pytest.mark.parametrize(
    ("category", "asked", "sold"),
    [
        ("notebook case", ("laptop",), True),
        ("warranty/support extension", ("laptop",), True),
        ("warranty/support extension", ("3", "year", "warranty", "notebook"), False),
        ("warranty/support extension", ("notebook", "care", "pack"), False),
        ("notebook", ("laptop",), False),
        ("software license/upgrade", ("laptop",), False),
    ],
)
def test_accessories_and_services_not_asked_for_are_sold_for_another_product(
    category: str, asked: tuple[str, ...], sold: bool
) -> None:
    assert sold_for_another(category, asked) is sold
