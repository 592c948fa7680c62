"""Which product a search asks for and whether a hit names it: the trigger that probes a full
result holding none of the asked product."""

from __future__ import annotations

import pytest

from app.catalog.item import Item
from app.tools.plan.readings import counting_readings
from app.tools.search._product import (
    accessory_asked,
    as_sold,
    asked_product,
    is_named_target,
    names_only_as_feature,
    names_product,
    none_named,
    read_product,
    target_codes,
)


def item(title: str, category: str | None = None, description: str = "") -> Item:
    return Item(
        item_id="icecat:1",
        platform="icecat",
        title=title,
        category=category,
        description=description,
        source="icecat",
    )


@pytest.mark.parametrize(
    ("query", "planned", "given", "product"),
    [
        ("monitor macbook", "monitor", None, "monitor"),
        ("laptop sleeve", "laptop", "laptop sleeve", "laptop sleeve"),
        ("laptop sleeve", "laptop", None, "laptop"),
        ("mouse", "laptop", "Mouse", "mouse"),
        ("mouse", "laptop", None, None),
        ("laptop cheap", "laptop", None, "laptop"),
        ("laptop notebook stylus", "laptop", None, "laptop"),
    ],
)
def test_the_product_named_by_the_caller_wins_else_the_plans_when_the_query_names_it(
    query: str, planned: str, given: str | None, product: str | None
) -> None:
    """Typed values only: the query is never read as a plan."""
    with counting_readings() as readings:
        assert asked_product(query, planned, given) == product
    assert readings.count == 0


@pytest.mark.parametrize(
    ("product", "request_text", "features", "accessory"),
    [
        ("laptop", "laptop sleeve", (), "laptop sleeve"),
        ("laptop", "laptop stylus", (), "laptop stylus"),
        ("laptop", "laptop stylus", ("stylus",), None),
        ("laptop", "cheap laptop", (), None),
        ("monitor", "monitor macbook", (), None),
        ("keyboard", "gaming keyboard", (), None),
        ("camera", "camera 1080p hd carrying case", (), None),
    ],
)
def test_an_accessory_request_names_the_product_only_as_its_target(
    product: str, request_text: str, features: tuple[str, ...], accessory: str | None
) -> None:
    """One reading serves item_search (which product to refocus on) and the picker's gate
    (whether the category contradicts the request)."""
    assert accessory_asked(product, request_text, features) == accessory


@pytest.mark.parametrize(
    ("query", "product"),
    [("power bank", "power bank"), ("a gaming keyboard", "gaming keyboard"), ("hello", None)],
)
def test_a_search_outside_any_plan_reads_its_query_once(query: str, product: str | None) -> None:
    with counting_readings() as readings:
        assert read_product(query) == product
    assert readings.count == 1


@pytest.mark.parametrize(
    ("title", "category", "product", "named"),
    [
        ("Anker PowerCore+ 26800mAh power bank Black", None, "power bank", True),
        ("Kids Power Fun for Kids", None, "power bank", False),
        ("Xiaomi Mi Power-Bank 10000", None, "power bank", True),
        # a hyphen joins the noun to a count, not the noun to the accessory after it
        ("Tripp Lite Triple-Monitor USB-C Docking Station with 4K HDMI", None, "monitor", False),
        ("Indesit CAA 55 fridge-freezer Freestanding", None, "fridge", True),
        # a compound after one letter is a word of its own, one ending "-style" a description
        ("ADIDAS Men Blue Printed Round Neck T-shirt", None, "shirt", False),
        ("Roadster Men Blue Casual Shirt", None, "shirt", True),
        ("ID Men Brown Shoe-Style Leather Sandals", None, "shoe", False),
        ("Dynabook Power Cord - 2-pin", None, "power bank", False),
        ("HP Compaq 6910p Notebook 35.8 cm", None, "laptop", True),
        ("Targus sleeve for 15in laptops", None, "laptop", False),
        ("Verbatim Vi550 internal solid state drive 2.5in", None, "ssd", True),
        ("Sony Xperia 10 Black", "Mobile phone/Smartphone", "smartphone", True),
        ("Microsoft Wheel Optical Mouse", None, "gaming mouse", False),
        ("Steelseries Kinzu Optical Gaming Mouse", None, "gaming mouse", True),
        ("Philips Wireless Portable Speaker", "bluetooth speakers", "bluetooth speaker", True),
        ("a4 Tech Laser Gaming Mouse", "keyboards mice input devices", "gaming keyboard", False),
        ("Logitech G213", "keyboards mice input devices", "keyboard", False),
        ("Logitech G213", "gaming keyboards", "gaming keyboard", True),
        ("Integral COURIER USB flash drive 32 GB", None, "usb stick", True),
        ("Integral COURIER flash drive 32 GB", None, "usb stick", False),
        ("APC Back-UPS ES 550VA uninterruptible power supply (UPS) 330 W", None, "ups", True),
        ("APC Back-UPS CS 500 uninterruptible power supply 500 VA", None, "battery backup", True),
        ("APC RBC47 UPS battery", None, "battery backup", False),
        ("Tripp Lite Portable Charger - 10,050mAh Power Bank", None, "portable charger", True),
        ("HP rp5700 Desktop PC", None, "desktop computer", True),
        ("HP Pro 3010 Small Form Factor PC", None, "desktop computer", False),
        ("Retrospect 6.0 Desktop Mac", None, "desktop computer", False),
        ("Elite Screens Manual Pull Down Projection Screen", None, "projector screen", True),
        ("Elite Screens Manual Pull Down Projection Screen", None, "projector", False),
        # the catalog files it as an accessory of the product, whatever the title says
        (
            "Kensington WindFall Tablet Stand tablet security enclosure 25.9 cm",
            "tablet security enclosure",
            "tablet",
            False,
        ),
        ("HP Compaq tc4400 Tablet PC", None, "tablet", True),
        (
            "Kensington WindFall tablet security enclosure",
            "tablet security enclosure",
            "tablet security enclosure",
            True,
        ),
        # a bracket after an accessory says what it is for
        ("Macally Holder (iPhone / iPod) Black", None, "ipod", False),
        ("Dell UltraSharp Monitor (27 inch)", None, "monitor", True),
        # a hyphenated word says each of its parts ("CD-ROM Drive" is a cd drive), and
        # catalogs' names for what shoppers call otherwise name it too
        ("HP 48X PATA CD-ROM Drive", None, "cd drive", True),
        ("HP MultiBay 24X CD-RW/DVD-ROM Combo Drive", None, "dvd drive", True),
        ("Philips CD-RW CW7D2CC05/00", None, "cd drive", False),
        ("HP 48X/32X combo drive (carbonite) optical disc drive Internal", None, "cd drive", True),
        ("HP USB External Diskette Drive", None, "cd drive", False),
        ("JVC GZ-MS230 camcorder Black", None, "video camera", True),
        ("Philips Webcam SPC900NC/00", None, "video camera", False),
        # an accessory category that never names the product leaves the title to decide
        ("BABY born 828311 doll accessory Doll shoes", "doll accessory", "shoes", True),
        # a carrier names what it carries as its target
        ("Thule WanderWay 2 Bicycle carrier Black,Silver", None, "bicycle", False),
        ("Thule WanderWay 2 Bicycle carrier Black,Silver", None, "bicycle carrier", True),
    ],
)
def test_a_hit_names_the_product_in_its_title_or_category(
    title: str, category: str | None, product: str, named: bool
) -> None:
    assert names_product(item(title, category), product) is named


def test_the_makers_name_at_the_head_of_a_title_names_no_product() -> None:
    """Myntra's "Lychee bags Women Grey Solid Backpack" was read as a bag for "a handbag"."""
    backpack = item("Lychee bags Women Grey Solid Backpack").model_copy(
        update={"brand": "Lychee bags"}
    )
    assert not names_product(backpack, "bag")
    assert names_product(backpack, "backpack")
    assert names_product(item("Lychee bags Women Grey Solid Backpack"), "bag"), "no brand known"


def test_a_category_implied_by_the_spec_sheet_names_the_product() -> None:
    dell = 'DELL SE2719H 68.6 cm (27") 1920 x 1080 pixels Full HD LCD Black'
    assert not names_product(item(dell), "monitor")
    implied = item(dell).model_copy(update={"inferred_category": "computer monitor"})
    assert names_product(implied, "monitor")
    assert not names_product(implied, "tv")


def test_a_category_that_spells_out_a_short_name_names_it() -> None:
    kingston = item("Kingston Technology KC2500 M.2 500 GB PCI Express 3.0 3D TLC NVMe")
    assert not names_product(kingston, "ssd")
    filed = kingston.model_copy(update={"inferred_category": "internal solid state drive"})
    assert names_product(filed, "ssd")
    assert not names_product(filed, "hdd")


def test_an_add_on_does_not_name_its_target() -> None:
    protector = item("HP FB019AA screen protector Mobile phone/Smartphone 1 pc(s)")
    described = item("Sony PRS-3SCREENPRO Mobile phone/Smartphone", None, "Screen Protector")
    assert not names_product(protector, "smartphone")
    assert not names_product(described, "smartphone")
    assert names_product(item("Sony PRS-3SCREENPRO Mobile phone/Smartphone"), "smartphone")


def test_another_kind_names_the_product_only_when_the_request_asks_for_that_kind() -> None:
    pen = item("Wacom intuos4 Small Pen Tablet", "graphics tablets")
    assert not names_product(pen, "tablet")
    assert names_product(pen, "tablet", "tablet drawing")
    assert names_product(pen, "pen tablet")
    assert names_product(item("Coby Kyros Android Touchscreen Tablet"), "tablet")
    assert none_named([pen], "tablet")
    assert not none_named([pen], "tablet", "graphics tablet")


def test_none_named_needs_an_asked_product_and_no_hit_naming_it() -> None:
    toys = [item("Kids Power Fun for Kids"), item("Power Strip")]
    assert none_named(toys, "power bank")
    assert not none_named([*toys, item("Portable Power Bank")], "power bank")
    assert not none_named(toys, None)
    assert none_named([], "power bank")


@pytest.mark.parametrize(
    ("title", "noun", "feature"),
    [
        ("Sennheiser PC 36 USB Binaural Headset with Microphone", "microphone", True),
        ("Gear Head USB Webcam Pro with Snapshot and Microphone", "microphone", True),
        ("HP Pavilion Laptop with Backlit Keyboard", "keyboard", True),
        ("Philips Corded Microphone SBCMD110/00", "microphone", False),
        ("Blue Yeti USB Microphone with Stand", "microphone", False),
        ("iPad Case with Keyboard", "case", False),
        ("Microphone stand with boom arm", "microphone", False),
        # an amount sizing a part after another product's noun
        ("DELL Optiplex Desktop Computer - 16GB DDR3, New 1TB SSD", "ssd", True),
        ("ASUS TUF notebook Black 16 GB DDR4-SDRAM 1000 GB SSD", "ssd", True),
        ("HP ZBook 15 G6 Mobile workstation 32 GB DDR4-SDRAM 1000 GB SSD", "ssd", True),
        ("Samsung 870 EVO 1TB SSD", "ssd", False),
        ("Tripp Lite Portable Charger - 10,050mAh Power Bank", "bank", False),
    ],
)
def test_a_product_named_after_with_or_an_amount_is_a_feature_of_another(
    title: str, noun: str, feature: bool
) -> None:
    assert names_only_as_feature(title, noun) is feature


def test_a_product_after_w_slash_comes_with_another() -> None:
    enclosure = item("StarTech.com 3.5in USB 3.0 SATA Hard Drive Enclosure w/ Fan")
    assert not names_product(enclosure, "usb fan")
    assert names_product(enclosure, "hard drive enclosure")
    assert names_product(item("USB Desk Fan w/o Remote"), "usb fan")
    assert as_sold("Case w/Stand, w/o Strap") == "Case with Stand, without Strap"


def test_boys_and_girls_things_are_kids_things() -> None:
    assert names_product(item("Campus Boys Black Running Shoes"), "kids shoes")
    assert names_product(item("Zoop Girls Pink Digital Watch"), "kids watch")
    assert not names_product(item("Campus Men Black Running Shoes"), "kids shoes")


def test_a_headset_with_a_microphone_does_not_name_a_usb_microphone() -> None:
    assert not names_product(item("Sennheiser PC 36 USB Headset with Microphone"), "usb microphone")
    assert names_product(item("Blue Yeti USB Microphone with Stand"), "usb microphone")


@pytest.mark.parametrize(
    ("title", "product", "named"),
    [
        ("Chicago White Sox Pink iPhone 4 Hard Case", "phone case", True),
        ("Samsung Galaxy smartphone case Black", "phone case", True),
        ("Belkin iPad Case", "phone case", False),
    ],
)
def test_a_word_the_title_says_by_another_name_is_said(
    title: str, product: str, named: bool
) -> None:
    assert names_product(item(title), product) is named


@pytest.mark.parametrize(
    ("title", "product", "named"),
    [
        ("Sandisk 32gb Microsdhc Memory Card Bulk Package", "micro sd card", True),
        ("V7 32GB Class 10 Micro SDXC Card + Adapter", "micro sd card", True),
        ("Verbatim Premium SDHC Card 32GB", "sd card", True),
        ("Verbatim Premium SDHC Card 32GB", "micro sd card", False),
        ("Belkin Cassette Adapter", "cassette", False),
    ],
)
def test_a_cards_one_word_name_and_what_a_plus_adds_name_the_product(
    title: str, product: str, named: bool
) -> None:
    assert names_product(item(title), product, product) is named


@pytest.mark.parametrize(
    ("title", "category", "musts", "target"),
    [
        ("HP OfficeJet 6500 Thermal Inkjet A4 Wi-Fi", "ink", ["officejet 6500"], True),
        ("HP 920 Cyan Officejet 6500 Ink Cartridge", "ink", ["officejet 6500"], False),
        ("HP OfficeJet 6000 inkjet printer", "ink", ["officejet 6500"], False),
        ("Samsung Galaxy S10 128 GB smartphone", "case", ["s10"], True),
        ("Samsung Galaxy S10 Clear View Cover", "case", ["s10"], False),
        ("MSI notebook GeForce RTX 2060", "laptop", ["rtx 2060"], False),
        ("HP OfficeJet 6500 Thermal Inkjet", "ink", [], False),
    ],
)
def test_the_model_an_asked_accessory_is_for_is_no_accessory(
    title: str, category: str, musts: list[str], target: bool
) -> None:
    assert is_named_target(item(title), target_codes(category, musts)) is target
