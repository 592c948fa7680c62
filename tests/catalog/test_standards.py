"""Standards spelled many ways read as one name, in requests, titles and the lexical index."""

from __future__ import annotations

import pytest

from app.catalog.standards import (
    canonical_standards,
    model_after,
    newer_than,
    standard_at,
    standard_labels,
    standard_words,
    with_standard_words,
)


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
        ("wi-fi 6 (802.11ax) router", "wifi6 (wifi6) router"),
        ("802.11ac usb adapter", "wifi5 usb adapter"),
        ("wifi 6e card", "wifi6e card"),
        ("usb 3.0 flash drive", "usb-3.0 flash drive"),
        ("usb3.0 hub", "usb-3.0 hub"),
        ("usb type-a 3.2 gen 1 (3.1 gen 1) black", "usb-3.0 (3.1 gen 1) black"),
        ("usb 3.1 gen 1 cable", "usb-3.0 cable"),
        ("usb 3.2 gen2 ssd", "usb-3.2-gen2 ssd"),
        ("usb 3.1 gen 2 hub", "usb-3.2-gen2 hub"),
        ("usb 3.2 gen 2x2 enclosure", "usb-3.2-gen2x2 enclosure"),
        ("type-a 2.0 port", "usb-2.0 port"),
        ("usb 3.0 type-c hub", "usb-3.0 usb-c hub"),
        ("8 gb ddr4-sdram 3600 mhz", "8 gb ddr4-sdram 3600 mhz"),
        ("kingston ddr 4 8gb", "kingston ddr4 8gb"),
        ("hp 2gb pc2-6400 so-dimm", "hp 2gb ddr2 so-dimm"),
        ("4gb pc3l-12800 ddr3l", "4gb ddr3 ddr3"),
        ("hp elitebook intel core i7 4 gb", "hp elitebook core-i7 4 gb"),
        ("9th gen intel core i7 i7-9700", "9th gen core-i7 core-i7-9700"),
        ("an i5 laptop", "an core-i5 laptop"),
        ("amd ryzen 5 3500u", "ryzen-5 3500u"),
        # not a standard: another connector, a longer word, a number that runs on
        ("hdmi type a (standard) hdmi type c (mini)", "hdmi type a (standard) hdmi type c (mini)"),
        ("usb cable", "usb cable"),
        ("bobcat 5 loader", "bobcat 5 loader"),
        ("cat 65 litter", "cat 65 litter"),
        ("a cat toy", "a cat toy"),
        ("usb c2g", "usb c2g"),
        ("usb 3.1 hub", "usb 3.1 hub"),
        ("usb 3.2 gen 1x1", "usb 3.2 gen 1x1"),
        ("usb 3.00", "usb 3.00"),
        ("wi-fi 60 ghz", "wi-fi 60 ghz"),
        ("802.11a/b/g", "802.11a/b/g"),
        ("4 gb lpddr4-sdram", "4 gb lpddr4-sdram"),
        ("ddr400 memory", "ddr400 memory"),
        ("pc-6400", "pc-6400"),
        ("galaxy s5 i9000", "galaxy s5 i9000"),
        ("hi7 speaker", "hi7 speaker"),
        ("ryzen threadripper 3970x", "ryzen threadripper 3970x"),
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
    assert with_standard_words("USB 2.0 A/B cable") == "usb 2.0 usb20 a/b cable"
    assert with_standard_words("USB 3.2 Gen 1 hub") == "usb 3.2 gen 1 usb30 hub"
    assert with_standard_words("Wi-Fi 6 (802.11ax)") == "wi-fi 6 wifi6 (802.11ax)"


def test_a_lexical_query_asks_for_the_standard_weighted() -> None:
    assert standard_words("Laptop with Wi-Fi 6") == "laptop with wifi6"
    assert standard_words("usb type c cable", repeat=2) == "usbc usbc cable"
    assert standard_words("usb cable", repeat=3) == "usb cable"
    assert standard_words("usb 3.0 hub", repeat=2) == "usb30 usb30 hub"


@pytest.mark.parametrize(
    ("name", "asked", "ahead"),
    [
        ("usb-3.2-gen2", "usb-3.0", 1),
        ("usb-3.2-gen2x2", "usb-2.0", 3),
        ("wifi6e", "wifi6", 1),
        ("cat6a", "cat6", 2),
        ("usb-3.0", "usb-3.0", None),
        ("usb-2.0", "usb-3.0", None),
        ("wifi6", "usb-3.0", None),
        ("usb-c", "usb-3.0", None),
    ],
)
def test_a_newer_standard_of_the_same_line_is_ahead(
    name: str, asked: str, ahead: int | None
) -> None:
    assert newer_than(name, asked) == ahead


@pytest.mark.parametrize(
    ("names", "shown"),
    [
        ("usb-c", "USB-C"),
        ("has usb-c, cat6", "has USB-C, Cat 6"),
        ("wifi6e", "Wi-Fi 6E"),
        ("usb-3.2-gen2, newer than usb-3.0", "USB 3.2 Gen 2, newer than USB 3.0"),
        ("usb-3.2-gen2x2", "USB 3.2 Gen 2x2"),
        ("ddr4", "DDR4"),
        ("core-i7, ryzen-5", "Core i7, Ryzen 5"),
        ("usb-3.0.", "USB 3.0."),
        ("core-i75 xusb-c usb-3.0.1", "core-i75 xusb-c usb-3.0.1"),
    ],
)
def test_standards_are_shown_as_people_write_them(names: str, shown: str) -> None:
    assert standard_labels(names) == shown


@pytest.mark.parametrize("name", ["usb-c", "cat5e", "wifi6e", "usb-3.2-gen2x2", "ddr3", "core-i9"])
def test_a_shown_standard_reads_back_as_its_one_name(name: str) -> None:
    assert canonical_standards(standard_labels(name).lower()) == name


@pytest.mark.parametrize(
    ("low", "name", "end", "model"),
    [
        ("i7-1165g7 laptop", "core-i7", 2, ("1165g7", 9)),
        ("core i5 4200u", "core-i5", 7, ("4200u", 13)),
        ("ryzen 5 3600 pc", "ryzen-5", 7, ("3600", 12)),
        ("core i7 2020 laptop", "core-i7", 7, None),
        ("core i5 6700 xt gaming desktop", "core-i5", 7, None),
        ("core i7 laptop", "core-i7", 7, None),
        ("usb-c 3000 mah", "usb-c", 5, None),
    ],
)
def test_a_processor_tier_keeps_the_model_number_after_it(
    low: str, name: str, end: int, model: tuple[str, int] | None
) -> None:
    assert model_after(low, name, end) == model
