"""The speller: a word neither English nor common catalog text is read as the catalog word
one edit away that most titles use; known words, short words and model names stay."""

from __future__ import annotations

import pytest

from app.catalog.item import Item
from app.catalog.loader import Catalog
from app.catalog.spelling import Respelling, Speller
from app.config.registry import REGISTRY

ENGLISH = dict.fromkeys(["a", "with", "for", "my", "candle", "under", "quiet", "wireless"], 1)
ENGLISH |= {"mic": 50_000, "something": 2_000_000, "soothing": 20_000, "recommend": 5_000}


def item(n: int, title: str, brand: str | None = None, description: str = "") -> Item:
    return Item(
        item_id=f"icecat:{n}", platform="icecat", title=title, brand=brand,
        description=description, source="test",
    )  # fmt: skip


@pytest.fixture(scope="module")
def real_speller(catalog: Catalog) -> Speller:
    return Speller.from_items(catalog.items)


@pytest.fixture
def speller() -> Speller:
    titles = [
        "Sony WH-1000XM4 Wireless Headphones",
        "JBL Tune 510BT Headphones",
        "Bose QuietComfort Headphones",
        "Polk Audio Powered Subwoofer",
        "Klipsch Subwoofer 10 inch",
        "Yamaha Powered Subwoofer",
        "Sonix Wireless Headset",
    ]
    items = [item(i, t) for i, t in enumerate(titles)]
    items.append(item(99, "Onkyo AV Reciever", description="a reciever for home theater"))
    items += [item(100 + i, f"Denon AV Receiver {i}") for i in range(3)]
    return Speller.from_items(items, english=ENGLISH)


def test_a_slip_is_read_as_the_title_word_one_edit_away(speller: Speller) -> None:
    assert speller.word("hedphones") == "headphones"
    assert speller.word("subwoofr") == "subwoofer"
    assert speller.word("Headpohnes") == "headphones"


def test_known_words_stay(speller: Speller) -> None:
    assert speller.word("candle") is None
    assert speller.word("candles") is None
    assert speller.word("headphones") is None
    assert speller.word("quiet") is None


def test_a_word_the_catalog_uses_rarely_is_read_as_the_common_one(speller: Speller) -> None:
    assert speller.word("reciever") == "receiver"


def test_short_words_model_names_and_far_words_stay(speller: Speller) -> None:
    assert speller.word("sonic") is None
    assert speller.word("wh1000xm4") is None
    assert speller.word("headfones") is None
    assert speller.word("xheadphones") is None


def test_a_run_of_letters_longer_than_any_word_is_left_as_written(speller: Speller) -> None:
    word = "hedphones" * 4000
    assert speller.word(word) is None
    assert speller.text(f"wireless {word}") == (f"wireless {word}", ())


def test_the_title_count_floor_is_read_at_call_time(speller: Speller) -> None:
    assert speller.word("subwofer") == "subwoofer"
    with REGISTRY.overridden(PLANNER_SPELL_MIN_TITLES=4):
        assert speller.word("subwofer") is None


def test_text_keeps_the_rest_as_written_and_reports_each_word_once(speller: Speller) -> None:
    text, respelled = speller.text("Quiet HEDPHONES with mic, or hedphones for my Subwoffers!")
    assert text == "Quiet headphones with mic, or headphones for my subwoofers!"
    assert respelled == (
        Respelling("hedphones", "headphones"),
        Respelling("subwoffers", "subwoofers"),
    )
    assert speller.text("quiet headphones") == ("quiet headphones", ())


def test_without_a_catalog_word_a_slip_is_read_as_the_commonest_english_word(
    speller: Speller,
) -> None:
    assert speller.word("somthing") == "something"
    assert speller.word("recomend") is None
    with REGISTRY.overridden(PLANNER_SPELL_MIN_ENGLISH_COUNT=1000):
        assert speller.word("recomend") == "recommend"


@pytest.mark.parametrize(
    ("written", "read_as"),
    [
        ("hedphones", "headphones"),
        ("subwoffers", "subwoofers"),
        ("reciever", "receiver"),
        ("moniter", "monitor"),
        ("bluethooth", "bluetooth"),
        ("rechargable", "rechargeable"),
        ("tripoid", "tripod"),
        ("somthing", "something"),
        ("recomend", "recommend"),
    ],
)
def test_real_catalog_reads_slips(real_speller: Speller, written: str, read_as: str) -> None:
    assert real_speller.word(written) == read_as


@pytest.mark.parametrize(
    "word", ["sennheiser", "logitech", "istorage", "candle", "sodium", "alexa", "theyre"]
)
def test_real_catalog_leaves_known_words(real_speller: Speller, word: str) -> None:
    assert real_speller.word(word) is None
