"""Standards spelled many ways read as one name, in requests, titles and the lexical index."""

from __future__ import annotations

import pytest

from app.catalog.standards import canonical_standards, standard_at, with_standard_words


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("usb c cable", "usb-c cable"),
        ("startech usb type-c to displayport", "startech usb-c to displayport"),
        ("usb type c hub", "usb-c hub"),
        ("type-c to type-a cable", "usb-c to type-a cable"),
        ("usbc charger", "usb-c charger"),
        ("cat 6 patch cable", "cat6 patch cable"),
        ("cat.6 utp", "cat6 utp"),
        ("cat-6a", "cat6a"),
        ("category 5e cable", "cat5e cable"),
        # not a standard: another connector, a longer word, a number that runs on
        ("hdmi type a (standard) hdmi type c (mini)", "hdmi type a (standard) hdmi type c (mini)"),
        ("usb cable", "usb cable"),
        ("bobcat 5 loader", "bobcat 5 loader"),
        ("cat 65 litter", "cat 65 litter"),
        ("a cat toy", "a cat toy"),
        ("usb c2g", "usb c2g"),
    ],
)
def test_one_name_per_standard(text: str, expected: str) -> None:
    assert canonical_standards(text) == expected


def test_a_standard_is_found_where_its_spelling_starts() -> None:
    text = "a usb type c to hdmi adapter"
    assert standard_at(text, text.index("usb")) == ("usb-c", text.index(" to"))
    assert standard_at(text, text.index("type")) == ("usb-c", text.index(" to"))
    assert standard_at(text, text.index("hdmi")) is None
    assert standard_at("cat 65", 0) is None


def test_lexical_text_adds_one_word_names_and_keeps_every_word() -> None:
    text = "StarTech USB-C to Cat 6 adapter, HDMI Type C"
    assert with_standard_words(text) == "startech usb-c usbc to cat 6 cat6 adapter, hdmi type c"
    assert with_standard_words("USB 2.0 A/B cable") == "usb 2.0 a/b cable"
