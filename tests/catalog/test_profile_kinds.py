"""The catalog profile's kind filter: a title head is a category only when it can name a kind
of product (no colour, unit, size, gender, short letter, brand or attribute value of the
catalog's, nor a modifier most titles put before another noun); listed categories stay, and
each says where it came from. Older profiles without sources still read."""

from __future__ import annotations

import json
from pathlib import Path

from app.catalog.item import Item
from app.catalog.profile import build_profile, read_profile
from app.catalog.profile_kinds import KindFilter, title_head
from app.catalog.schema import Offer


def item(n: int, title: str, **fields: object) -> Item:
    offer = {"id": str(n), "shop": "fashion", "title": title, "price": 500 + n, "currency": "INR"}
    return Item.from_offer(Offer.model_validate(offer | fields))


def catalog() -> list[Item]:
    """Six titles of each ending, so every head is seen often enough to count."""
    endings = [
        "Women Printed Cotton Kurta",  # a kind the lexicon lacks
        "Women Solid Silk Dupatta",  # another
        "Men Slim Fit Jeans",  # a kind
        "Cotton Kurta Black",  # colour
        "Body Lotion 200 ml",  # unit
        "Slim Fit T-Shirt Size M",  # a size letter
        "Running Shoes for Men",  # the head is before "for"
        "Hair Oil, Original",  # an edition word after a comma
        "Formal Shirt Women",  # gender
        "Everyday Tote Zara",  # the catalog's brand
        "Cushion Cover Floral",  # the catalog's attribute value
    ]
    items = [
        item(10 * n + i, f"Label{i} {ending}", brand="Zara" if "Zara" in ending else None)
        for n, ending in enumerate(endings)
        for i in range(6)
    ]
    items[-1] = item(999, "Cushion Cover Floral", attributes={"print": "Floral"})
    return [*items, item(1000, "Steel Kettle 1.7 L", category_path=["Home", "Electric Kettles"])]


def test_title_heads_that_name_no_kind_are_dropped() -> None:
    profile = build_profile(catalog())
    titled = {name for name, entry in profile.categories.items() if entry.source == "title"}
    assert titled == {"kurta", "dupatta", "jean", "shoe", "oil"}
    assert profile.categories["electric kettles"].source == "listed"
    for dropped in ("black", "ml", "m", "original", "woman", "zara", "floral", "lotion"):
        assert dropped not in profile.categories, dropped


def test_a_word_titles_use_as_a_modifier_is_no_kind() -> None:
    cables = [item(i, f"USB Cable {i}m") for i in range(55)]
    usb_last = [item(100 + i, "Charging Cable USB") for i in range(5)]
    profile = build_profile([*cables, *usb_last])
    assert "cable" in profile.categories
    assert "usb" not in profile.categories, "five of the sixty titles that say it end in it"


def test_title_head_stops_before_what_the_product_is_for() -> None:
    assert title_head("Slim Case for iPhone 15 Pro") == "case"
    assert title_head("Roadster Men Black Slim Fit Jeans") == "jean"
    assert title_head("Anarkali Kurta with Embroidered Detail") == "kurta"
    assert title_head("HP 61 Ink Cartridge, Magenta") == "cartridge"
    assert title_head("for") == "for", "a title that is all clause keeps its last word"


def test_kind_filter_reads_the_catalog_and_the_lexicon() -> None:
    keep = KindFilter.of(["Philips"], {"colour": {"mauve": 3}}, ["ml"])
    assert keep.is_kind("kurta")
    assert not keep.is_kind("mauve"), "the catalog's attribute value"
    assert not keep.is_kind("philip"), "the catalog's brand, read as a plural"
    for word in ("ml", "aa", "beige", "magenta", "xxl", "women"):
        assert not keep.is_kind(word), word
    assert not keep.is_kind("certified"), "a participle"
    assert not keep.is_kind("usb-c"), "a standard a product has"
    assert KindFilter().is_kind("speed")


def test_vocabulary_has_both_forms_of_kinds_and_the_brands() -> None:
    vocabulary = build_profile(catalog()).vocabulary()
    assert {"kurta", "kurtas", "dupatta", "dupattas", "kettle", "kettles"} <= vocabulary.kinds
    assert "black" not in vocabulary.kinds
    assert vocabulary.brands == {"zara"}
    assert vocabulary.names_kind("Dupattas".lower())


def test_an_older_profile_without_sources_still_reads(tmp_path: Path) -> None:
    saved = json.loads(build_profile(catalog()).model_dump_json())
    for entry in saved["categories"].values():
        del entry["source"]
    (tmp_path / "profile.json").write_text(json.dumps(saved))
    profile = read_profile(tmp_path)
    assert profile is not None
    assert profile.categories["kurta"].source is None
    kinds = profile.vocabulary().kinds
    assert "kettle" in kinds, "the head of a many-word listed name"
    assert "kurta" not in kinds, "its title heads were never filtered: none is merged"


def test_the_main_currency_is_the_one_most_items_use_and_a_known_one() -> None:
    mixed = [item(n, "Label Cotton Kurta", currency="EUR" if n < 3 else "INR") for n in range(8)]
    assert build_profile(mixed).vocabulary().currency == "INR"
    assert build_profile([item(1, "Kurta", currency="EUR")]).main_currency() == "EUR"
    unknown = build_profile(catalog()).model_copy(update={"currencies": {"XYZ": 9}})
    assert unknown.main_currency() == "USD", "a code the rate table lacks cannot price a budget"
    assert build_profile([]).main_currency() == "USD"
