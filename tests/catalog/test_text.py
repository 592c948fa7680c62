"""Text normalisation: markup and symbols, ditto spacing, display casing."""

from __future__ import annotations

import pytest

from app.catalog.text import clean_text, display_case, match_key, tidy_ditto_spacing


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Intel® Core™ i5", "Intel Core i5"),
        ("Card™ 8GB", "Card 8GB"),
        ("Intel®Core", "Intel Core"),
        ("© 2020 Acme", "2020 Acme"),
        ("Dell&reg; Latitude &amp; more", "Dell Latitude & more"),
        ("<b>Features</b><br>Fast<br/>Quiet", "Features Fast Quiet"),
        ("a&lt;br&gt;b", "a b"),
        ("  many\t spaces\n\xa0here ", "many spaces here"),
        ("PAW Patrol , Rocky’s truck", "PAW Patrol, Rocky’s truck"),
        ("10 ,100 Mbit", "10 ,100 Mbit"),
        ("a < b and c > d", "a < b and c > d"),
        ("", ""),
    ],
)
def test_clean_text(raw: str, clean: str) -> None:
    assert clean_text(raw) == clean


@pytest.mark.parametrize("value", [None, float("nan"), 3, b"bytes"])
def test_clean_text_of_non_strings_is_empty(value: object) -> None:
    assert clean_text(value) == ""


@pytest.mark.parametrize(
    ("raw", "tidy"),
    [
        ("lg 2.0 cu . ft . over-the-range microwave", "lg 2.0 cu. ft. over-the-range microwave"),
        ("lg 5.6 cu.ft . freestanding", "lg 5.6 cu.ft. freestanding"),
        ("adobe flash cs3 professional ( mac )", "adobe flash cs3 professional (mac)"),
        ("acrobat v8 .0 professional", "acrobat v8.0 professional"),
        ("hp 85 ink , black", "hp 85 ink, black"),
        ("punch ! software", "punch! software"),
        ("shaadi - 17 ''", 'shaadi - 17"'),
        ("50 % off", "50% off"),
        ("mode : auto", "mode: auto"),
        ("sibelius-software-ltd .", "sibelius-software-ltd."),
        # ambiguous dots and ratios are left alone
        (
            "microsoft visual basic . net standard 2003",
            "microsoft visual basic . net standard 2003",
        ),
        ("apple . mac 4.0 family pack", "apple . mac 4.0 family pack"),
        ("16 : 9 screen", "16 : 9 screen"),
        ("lg 24 ' lds4821ww", "lg 24 ' lds4821ww"),
        ("10 ,100 mbit", "10 ,100 mbit"),
    ],
)
def test_tidy_ditto_spacing(raw: str, tidy: str) -> None:
    assert tidy_ditto_spacing(raw) == tidy


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("sony", "Sony"),
        (
            "sony cyber-shot dsc-w120 7.2 mp digital camera",
            "Sony Cyber-Shot dsc-w120 7.2 mp Digital Camera",
        ),
        ("dscw120p", "dscw120p"),
        ("kingston 2 gb 800mhz pc2-6400 ddr2", "Kingston 2 gb 800mhz pc2-6400 ddr2"),
        ("hp lg jvc", "HP LG JVC"),
        ("usb 2.0 hdmi cable", "USB 2.0 HDMI Cable"),
        ("case for ipod nano with clip", "Case for iPod Nano with Clip"),
        ("for the road", "For the Road"),
        ("a tale of two cities", "A Tale of Two Cities"),
        ("lg 2.0 cu. ft. over-the-range microwave", "LG 2.0 cu. ft. Over-the-Range Microwave"),
        ("d-link dgs-1008p 8-port switch", "D-Link dgs-1008p 8-port Switch"),
        ("men's shaver w/ case", "Men's Shaver w/ Case"),
        ("a/v receiver w/o remote", "a/v Receiver w/o Remote"),
        ("96 x 96 screen", "96 x 96 Screen"),
        ("model b manual screen", "Model b Manual Screen"),
        ("adobe flash cs3 professional (mac)", "Adobe Flash cs3 Professional (Mac)"),
        ("sibelius-software-ltd.", "Sibelius-Software-Ltd."),
        ("da-lite", "Da-Lite"),
        ("pencil-pal", "Pencil-Pal"),
        ("Already Mixed iPhone", "Already Mixed iPhone"),
        ('ipad 9.7"', 'iPad 9.7"'),
        ("", ""),
    ],
)
def test_display_case(raw: str, shown: str) -> None:
    assert display_case(raw) == shown


def test_match_key_ignores_case_and_spacing() -> None:
    assert match_key("Sony  DSC-W120 Camera") == match_key("sony dsc-w120 camera")
    assert match_key("Sony Camera") != match_key("Sony Cameras")
