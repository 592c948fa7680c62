"""The article before a product noun in generated sentences is the spoken one, none for a
plural."""

from __future__ import annotations

import pytest

from app.catalog.articles import with_article


@pytest.mark.parametrize(
    ("phrase", "said"),
    [
        ("ssd", "an ssd"),  # spelled letter by letter, "es"
        ("hdmi cable", "an hdmi cable"),
        ("armchair", "an armchair"),
        ("external hard drive", "an external hard drive"),
        ("usb hub", "a usb hub"),  # a vowel letter spoken "you"
        ("unit", "a unit"),
        ("euro plug", "a euro plug"),
        ("laptop", "a laptop"),
        ("tv", "a tv"),  # spelled, but "tee"
        ("printer", "a printer"),  # an English onset, read as a word
        ("smartphone", "a smartphone"),
        ("8 port switch", "an 8 port switch"),
        ("18 inch bag", "an 18 inch bag"),
        ("4k monitor", "a 4k monitor"),
        ("  saree ", "a saree"),
        ("earbuds", "earbuds"),  # a plural takes none
        ("running shoes", "running shoes"),
        ("glass", "a glass"),
        ("gps", "a gps"),
        ("ultrabook", "an ultrabook"),
        ("e-reader", "an e-reader"),
        ("xbox controller", "an xbox controller"),
        ("one-piece swimsuit", "a one-piece swimsuit"),
        ("u-lock", "a u-lock"),
        ("a quiet keyboard", "a quiet keyboard"),  # its own article stays
        ("monitors with 4k", "monitors with 4k"),  # the noun before "with" is plural
        ("pack of chips", "a pack of chips"),
        ("case for headphones", "a case for headphones"),
    ],
)
def test_the_article_is_the_spoken_one(phrase: str, said: str) -> None:
    assert with_article(phrase) == said


def test_an_empty_phrase_gets_no_article() -> None:
    assert with_article("") == ""
