"""The one singular the planner, the search and the picker compare product nouns with."""

from __future__ import annotations

import pytest

from app.catalog.product_nouns import singular


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
