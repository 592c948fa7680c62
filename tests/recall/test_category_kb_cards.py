"""Category cards from the real catalog: counts and prices agree with the items, labels merge
only when they differ in case, separators, plural or (ditto lists) word order, and summaries
hold what the items show. Also the label helpers on their own."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping

import pytest

from app.catalog.item import Item
from app.config.params.category_kb import KB_MIN_ITEMS
from app.config.settings import Settings
from app.recall._kb_cards import build_cards
from app.recall._kb_model import CategoryCard
from app.recall._kb_text import label_key, plural, singular, surface_forms, title_specs
from app.recall.filters import brand_key
from tests.contracts.knowledge_base_contract import real_kb_inputs

pytestmark = pytest.mark.slow

MERGED = (
    ("computers accessories", "computer accessories"),
    ("mice", "mouse"),
    ("keyboard", "keyboards"),
    ("usb flash drives", "USB flash drive"),
    ("camera lens", "camera lenses"),
    ("bags cases", "cases bags"),
    ("dvd-r discs", "dvd r discs"),
    ("HDMI cable", "hdmi cables"),
)
KEPT_APART = (
    ("label printer", "printer label"),
    ("notebook", "notebook case"),
    ("notebook", "laptops"),
    ("memory", "memory module"),
    ("usb drives", "usb flash drives"),
    ("headphones", "headphones/headset"),
    ("uninterruptible power supply", "uninterrupted power supply ups"),
)


@pytest.fixture(scope="module")
def items(built_index: Settings) -> Mapping[str, Item]:
    index, _ = real_kb_inputs(built_index)
    return index.items


@pytest.fixture(scope="module")
def cards(items: Mapping[str, Item]) -> list[CategoryCard]:
    return build_cards(items.values(), min_items=KB_MIN_ITEMS.get())


def card_of(cards: list[CategoryCard], label: str) -> CategoryCard:
    return next(c for c in cards if label in c.labels)


def members(items: Mapping[str, Item], card: CategoryCard) -> list[Item]:
    return [i for i in items.values() if i.category in card.labels]


def test_every_big_enough_label_is_on_exactly_one_card(
    items: Mapping[str, Item], cards: list[CategoryCard]
) -> None:
    per_label = Counter(i.category for i in items.values() if i.category)
    owners = Counter(label for c in cards for label in c.labels)
    assert all(n == 1 for n in owners.values()), "a label sits on two cards"
    for label, count in per_label.items():
        if count >= KB_MIN_ITEMS.get():
            assert owners[label] == 1, label
    assert len(cards) > 250


def test_counts_and_platforms_agree_with_the_items(
    items: Mapping[str, Item], cards: list[CategoryCard]
) -> None:
    for card in cards:
        own = members(items, card)
        assert card.summary.item_count == len(own) >= KB_MIN_ITEMS.get()
        assert card.summary.platforms == dict(Counter(i.platform for i in own))


def test_price_ranges_agree_with_the_items(
    items: Mapping[str, Item], cards: list[CategoryCard]
) -> None:
    for card in cards:
        prices = [i.price_usd for i in members(items, card) if i.price_usd is not None]
        price = card.summary.price
        if not prices:
            assert price is None
            continue
        assert price is not None
        assert price.priced == len(prices)
        assert (price.min, price.max) == (min(prices), max(prices))
        assert price.median == pytest.approx(statistics.median(prices), abs=0.0051)


def test_the_largest_categories_are_the_ones_the_catalog_has_most_of(
    items: Mapping[str, Item], cards: list[CategoryCard]
) -> None:
    assert [c.summary.item_count for c in cards] == sorted(
        (c.summary.item_count for c in cards), reverse=True
    )
    toner = card_of(cards, "toner cartridge")
    assert toner.summary.item_count == sum(
        1 for i in items.values() if i.category == "toner cartridge"
    )
    assert toner.summary.platforms == {"icecat": toner.summary.item_count}


@pytest.mark.parametrize(("left", "right"), MERGED)
def test_labels_that_name_the_same_category_merge(
    cards: list[CategoryCard], left: str, right: str
) -> None:
    card = card_of(cards, left)
    assert right in card.labels
    assert {left.lower(), right.lower()} <= set(card.aliases)


@pytest.mark.parametrize(("left", "right"), KEPT_APART)
def test_labels_that_differ_in_meaning_stay_apart(
    cards: list[CategoryCard], left: str, right: str
) -> None:
    owners = [c for c in cards if left in c.labels or right in c.labels]
    assert len(owners) == 2, [c.category for c in owners]


def test_the_display_name_is_the_singular_label_and_aliases_hold_both_numbers(
    cards: list[CategoryCard],
) -> None:
    assert card_of(cards, "mice").category == "mouse"
    assert card_of(cards, "usb flash drives").category == "USB flash drive"
    toner = card_of(cards, "toner cartridge")
    assert {"toner cartridge", "toner cartridges"} <= set(toner.aliases)
    aliases = Counter(a for c in cards for a in c.aliases)
    assert [a for a, n in aliases.items() if n > 1] == []


def test_summaries_describe_the_items(items: Mapping[str, Item], cards: list[CategoryCard]) -> None:
    for card in cards:
        own = members(items, card)
        brands = {brand_key(i.brand) for i in own}
        assert all(brand_key(b) in brands for b in card.summary.top_brands)
        titles = " ".join(i.title.lower() for i in own)
        assert all(term in titles for term in card.summary.top_terms)
        assert not {w for a in card.aliases for w in a.split()} & set(card.summary.top_terms)
    notebook = card_of(cards, "notebook")
    assert "15.6 inch" in notebook.summary.specs
    flash = card_of(cards, "usb flash drives")
    assert {"8gb", "16gb"} <= set(flash.summary.specs)


def test_min_items_drops_small_categories(items: Mapping[str, Item]) -> None:
    big = build_cards(items.values(), min_items=100)
    assert big
    assert all(c.summary.item_count >= 100 for c in big)
    assert len(big) < 40


VOCABULARY = {
    "lens": 270,
    "len": 2,
    "case": 1092,
    "cases": 18,
    "windows": 616,
    "window": 17,
    "accessory": 234,
    "accessories": 21,
    "series": 659,
}


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("cases", "case"),
        ("lenses", "lens"),
        ("lens", "lens"),
        ("accessories", "accessory"),
        ("windows", "windows"),
        ("series", "series"),
        ("mice", "mouse"),
        ("gps", "gps"),
        ("glass", "glass"),
        ("unknowns", "unknowns"),
    ],
)
def test_singular_follows_the_titles(word: str, expected: str) -> None:
    assert singular(word, VOCABULARY) == expected


def test_plural_forms() -> None:
    assert [plural(w) for w in ("mouse", "battery", "switch", "case", "key")] == [
        "mice",
        "batteries",
        "switches",
        "cases",
        "keys",
    ]


def test_label_keys_ignore_case_separators_and_plural_but_not_order() -> None:
    assert label_key("Camera & Lenses", VOCABULARY) == label_key("camera lens", VOCABULARY)
    assert label_key("label printer", {}) != label_key("printer label", {})
    assert surface_forms("Cases", VOCABULARY) == ["cases", "case"]
    assert surface_forms("9v", VOCABULARY) == ["9v"]


def test_specs_are_normalised() -> None:
    assert title_specs('ASUS notebook 39.6 cm (15.6") 16 GB DDR4 2.40 GHz 1TB') == {
        "39.6cm",
        "15.6 inch",
        "16gb",
        "2.4ghz",
        "1tb",
    }
    assert title_specs("Epson 4K projector, 3000 lumens, 20 ppm, 99.9 Wh battery") == {
        "4k",
        "20ppm",
        "99.9wh",
    }
