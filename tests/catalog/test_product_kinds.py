"""A word before a product noun that makes it another product ("Graphics Tablet")."""

from __future__ import annotations

import pytest

from app.catalog.product_kinds import other_kind, other_kind_in


@pytest.mark.parametrize(
    ("text", "noun", "asked", "kind"),
    [
        ("Genius Easypen i405 Graphics Tablet Silver", "tablet", (), "graphics tablet"),
        ("Wacom intuos4 Small Pen Tablet", "tablet", ("tablet",), "pen tablet"),
        ("graphics tablets", "tablet", (), "graphics tablets"),
        ("Coby Kyros 7-inch Android Touchscreen Tablet", "tablet", (), None),
        ("Wacom Pen Tablet", "tablet", ("tablet", "drawing"), None),
        ("Wacom Pen Tablet", "tablet", ("graphics", "tablet"), None),
        ("Pen Tablet and Android Tablet bundle", "tablet", (), None),
        ("Motorola MBP36 baby monitor", "monitor", (), "baby monitor"),
        ("AOC 27B2H computer monitor", "monitor", (), None),
        ("Yamaha PSR-E373 Piano Keyboard", "keyboard", (), "piano keyboard"),
        ("Genius Graphics Tablet", "mouse", (), None),
        ("Tablet", "tablet", (), None),
        ("Motorola t305 Bluetooth Visor Speaker Phone Car Kit", "speaker", (), "speaker phone"),
        ("Jabra Speak 510 Speaker Phone", "speaker", ("speaker", "phone"), None),
        ("Sony Portable Bluetooth Speaker MBS-100 docking speaker", "speaker", (), None),
    ],
)
def test_a_word_beside_the_noun_names_another_kind_unless_asked(
    text: str, noun: str, asked: tuple[str, ...], kind: str | None
) -> None:
    assert other_kind(text, noun, asked) == kind


def test_any_text_of_an_item_may_name_the_other_kind() -> None:
    assert other_kind_in(("Wacom intuos4 Wireless", "graphics tablets"), "tablet") == (
        "graphics tablets"
    )
    assert other_kind_in(("Samsung Galaxy Tab S6", None), "tablet") is None
