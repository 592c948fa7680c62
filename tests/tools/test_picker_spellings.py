"""A shopper's British spelling finds a title's American one and back ("noise cancelling"
headphones that say "Noise Canceling"), and a word the name catalogs give a thing ("a
notebook" for a laptop), so the pick reports the term as said."""

from __future__ import annotations

import pytest

from app.tools.terms._terms import make_term, term_in


@pytest.mark.parametrize(
    ("asked", "title"),
    [
        ("cancelling", "Koss Monaural Headset with Noise Canceling Microphone"),
        ("noise canceling", "Kensington Noise Cancelling Headphones"),
        ("noise cancellation", "Panasonic rp-hc55-s Noise-Cancelling Earbud Headphones"),
        ("fake", "Lorex Simulated Professional Outdoor Surveillance Camera"),
        ("dummy", "Lorex Simulated Bullet Style Surveillance Camera"),
        ("grey", "Logitech M185 Wireless Mouse Gray"),
        ("colour", "HP 301 Tri-color Ink Cartridge"),
        ("wifi", "Canon PIXMA Wi-Fi Printer"),
        ("wi-fi", "Netgear WiFi Range Extender"),
        ("touch screen", "Dell Inspiron touchscreen laptop"),
        ("mic", "Sennheiser PC 166 Gaming Headset with Noise-Canceling Microphone"),
        ("microphone", "Logitech H390 USB headset with mic"),
        ("laptop", "HP ProBook 450 G7 Notebook"),
        ("laptops", "Targus sleeve for 15.6in notebooks"),
        ("laptop", "Kingston 8GB DDR4 2666MHz SO-DIMM"),
        ("notebook", "Dell Latitude 5400 Laptop"),
        ("tv", "Philips 32in LCD television"),
        ("televisions", "Samsung 55in 4K Smart TV"),
        ("laptop", "Acer Aspire One 10.1in Netbook"),
        ("phone", "Panasonic KX-TG Cordless Telephone"),
        ("scan", "Lexmark Prospect pro205 Wireless Multifunction Inkjet Printer"),
        ("3 pack", "Cable Matters HDMI Cable (Pack of 3)"),
        ("3 pack", "Belkin HDMI Cable 3PK"),
        ("3 pcs", "AmazonBasics 3-Pack HDMI Cable"),
        ("2 packs", "GE High-Speed HDMI Cables with Ethernet 2-pack"),
        ("intel core", "DELL Precision 3630 9th gen Intel Core i7 i7-9700 32 GB DDR4-SDRAM"),
        ("amd", "ASUS ROG G15DH-DS562 PC AMD Ryzen 5 3600X 16 GB"),
        ("512 gig", "Samsung 860 EVO 512 GB SSD"),
        ("16g of ram", "HP ProDesk 400 G6 16 GB RAM, 256 GB SSD"),
        ("support 4g lte", "Samsung Galaxy Tab Active2 8in 16 GB Wi-Fi 5 4G LTE Black"),
        ("usb support", "Coby Kyros 7in Android Tablet with USB and HDMI"),
    ],
)
def test_either_spelling_says_the_term(asked: str, title: str) -> None:
    term = make_term(asked)
    assert term is not None
    assert term_in(title, term)


@pytest.mark.parametrize(
    ("asked", "title"),
    [
        ("cancelled", "Noise Canceling Headphones"),
        ("laptop", "Corsair 8GB DDR4 DIMM"),
        ("3 pack", "HDMI Cable 3ft 2 Pack"),
        ("headphones", "Logitech H390 USB Headset"),
        ("intel", "Lenovo V55t AMD Ryzen 3 3200G 8 GB"),
    ],
)
def test_a_different_word_is_not_a_spelling(asked: str, title: str) -> None:
    term = make_term(asked)
    assert term is not None
    assert not term_in(title, term)
