"""Add-ons named before their target or only in the description read as accessories."""

from __future__ import annotations

import pytest

from app.catalog.add_ons import describes_add_on, names_only_as_add_on_target


@pytest.mark.parametrize(
    ("title", "word", "only_target"),
    [
        ("HP FB019AA screen protector Mobile phone/Smartphone 1 pc(s)", "smartphone", True),
        ("Targus ASF154WEU screen protector Desktop/Laptop Universal", "laptop", True),
        ("Acme Made Smart Laptop Sleeve Netbook Wet Black", "laptop", True),
        ("Canon EW-83J Lens Hood camera lens adapter", "camera", True),
        ("Sony PRS-3SCREENPRO Mobile phone/Smartphone", "smartphone", False),
        ("Sandisk 8gb Cruzer Micro Skin Flash Drive", "drive", False),
        ("Motorola Edge smartphone 17 cm (6.7in) with screen protector", "smartphone", False),
        ("Targus sleeve for 15in laptops", "laptop", True),
        ("Acer Aspire 5 laptop", "laptop", False),
        ("Corsair 8 gb 200-pin ddr2 Laptop Memory Kit", "laptop", True),
        ("Lenovo 2gb ddr3 Sodimm Notebook Memory Module", "laptop", True),
        ("HP 15s Notebook 16 GB DDR4-SDRAM 512 GB SSD", "laptop", False),
        ("Origin Storage Laptop Internal UK Keyboard for D520 88 Keys", "laptop", True),
        ("Origin Storage Laptop Internal US INTL KBD for D410", "laptop", True),
        ("HP Jetdirect 690n print server Internal Gray Ethernet LAN", "server", False),
        ("Lenovo Thinkpad x60 Tablet Tether", "tablet", True),
        ("Lenovo Thinkpad x60 Tablet Digitizer Pen Tether 3pk", "tablet", True),
        ("Samsung Galaxy Tab tablet with tether strap", "tablet", False),
        ("Sony GP-VPT2BT tripod Digital/film cameras 3 leg(s) Black", "camera", True),
        ("Kensington SD6000 mobile device dock station Tablet Gray", "tablet", True),
        ("Canon EOS Rebel camera kit with tripod", "camera", False),
        ("Boss kit-2 Complete 8 Gauge Amplifier Installation Kit", "amplifier", True),
        ("Pyramid pbin3 1000 Watt Amplifier Installation Wiring Kit", "amplifier", True),
        ("Alpine V-Power Series 4/3/2 Channel Power Amplifier mrpf300", "amplifier", False),
    ],
)
def test_a_product_named_after_an_add_on_is_its_target(
    title: str, word: str, only_target: bool
) -> None:
    assert names_only_as_add_on_target(title, word) is only_target


@pytest.mark.parametrize(
    ("description", "word", "add_on"),
    [
        ("PRS-3SCREENPRO- Screen Protector, clear", "smartphone", True),
        ("ET120 Lens Hood", "camera", True),
        ("Big screen", "monitor", False),
        ("Smartphone screen protector", "smartphone", False),
        (
            "Capture every moment with the triple camera and a clear screen protector",
            "phone",
            False,
        ),
        ("", "smartphone", False),
    ],
)
def test_a_description_that_opens_with_an_add_on_label_says_what_it_is(
    description: str, word: str, add_on: bool
) -> None:
    assert describes_add_on(description, word) is add_on
