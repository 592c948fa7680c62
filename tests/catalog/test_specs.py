"""Quantities read once for the picker and the lexical index: one word per whole number in its
canonical unit, terabytes as the gigabytes catalogs also write."""

from __future__ import annotations

import pytest

from app.catalog.specs import (
    as_spec_words,
    in_metres,
    quantities,
    same_part,
    with_spec_words,
    without_quantities,
)


def test_quantities_carry_value_unit_and_where_they_are_written() -> None:
    low = 'a 15.6" laptop with 1 tb ssd, 20,100mah and 1080p'
    found = [(q.value, q.unit, q.text, low[q.start : q.end].strip()) for q in quantities(low)]
    assert found == [
        (15.6, "inch", '15.6"', '15.6"'),
        (1.0, "tb", "1 tb", "1 tb"),
        (20100.0, "mah", "20,100mah", "20,100mah"),
        (1080.0, "p", "1080p", "1080p"),
    ]
    assert quantities("model 7p and 5 cats") == []


def test_bytes_spelled_out_are_the_short_units() -> None:
    found = [
        (q.value, q.unit) for q in quantities("32 gigabytes of ram, 2 terabytes, 512 megabyte")
    ]
    assert found == [(32.0, "gb"), (2.0, "tb"), (512.0, "mb")]


def test_a_bare_g_is_gigabytes_only_before_the_part_it_sizes() -> None:
    found = [(q.value, q.unit, q.text) for q in quantities("16g of ram and a 240g ssd")]
    assert found == [(16.0, "gb", "16g"), (240.0, "gb", "240g")]
    assert quantities("a 4g lte phone, 500g of coffee") == []
    assert as_spec_words("8g ram") == "8gb ram"


def test_a_bare_t_is_terabytes_only_before_the_drive_it_sizes() -> None:
    found = [(q.value, q.unit, q.part) for q in quantities("a 1t ssd, a 4t hard drive")]
    assert found == [(1.0, "tb", "ssd"), (4.0, "tb", "hdd")]
    assert quantities("the 2t model, type 1t") == []
    assert as_spec_words("2t nvme ssd") == "2000gb nvme ssd"


def test_lengths_in_metres_are_units_and_compare_with_feet() -> None:
    found = [(q.value, q.unit) for q in quantities("a 2m cable, 3 metres, 1.5 meter, 6 ft")]
    assert found == [(2.0, "m"), (3.0, "m"), (1.5, "m"), (6.0, "ft")]
    assert [in_metres(6, "ft"), in_metres(50, "cm"), in_metres(2, "m")] == [1.8288, 0.5, 2.0]
    assert in_metres(15.6, "inch") is None
    assert [q.unit for q in quantities("2 mins, a 16 mm jack")] == ["mm"]


@pytest.mark.parametrize(
    ("low", "parts"),
    [
        ("notebook 8 gb ddr4-sdram 256 gb pcie nvme ssd", ["ram", "ssd"]),
        ("16gb ram, 1tb hdd", ["ram", "hdd"]),
        ("4gb ram 64gb rom", ["ram", "storage"]),
        ("celeron 4 gb 32 gb emmc", [None, "emmc"]),
        ("rtx 2060 6 gb gddr6", ["video"]),
        ("sandisk 64 gb microsdxc", ["card"]),
        ("a 32gb memory card", ["card"]),
        ("a 2tb hard drive, 1tb of storage", ["hdd", "storage"]),
        ("64gb of ram", ["ram"]),
        ("a phone with 128gb memory", ["memory"]),
        ("32gb (2x16gb) ddr4", [None]),
        ('15.6" 8 gb', [None, None]),
    ],
)
def test_an_amount_of_bytes_says_the_part_the_words_after_it_name(
    low: str, parts: list[str | None]
) -> None:
    assert [q.part for q in quantities(low)] == parts


@pytest.mark.parametrize(
    ("low", "parts"),
    [
        ("ram 2gb rom 16gb", ["ram", "storage"]),
        ("ram: 4gb, storage: 64gb", ["ram", "storage"]),
        ("16gb ram 512gb", ["ram", None]),
        ("8 gb ddr4-sdram 256 gb ssd", ["ram", "ssd"]),
        ("kingston ddr4 16gb", ["ram"]),
    ],
)
def test_a_part_named_before_an_amount_no_earlier_amount_took_is_its_part(
    low: str, parts: list[str | None]
) -> None:
    assert [q.part for q in quantities(low)] == parts


def test_storage_of_any_kind_serves_an_asked_storage_and_memory_ram_or_storage() -> None:
    served = [("ssd", "ssd"), ("ssd", None), (None, "hdd"), ("storage", "hdd"), ("ssd", "storage")]
    assert all(same_part(asked, stated) for asked, stated in served)
    assert not same_part("ssd", "hdd")
    assert not same_part("ram", "emmc")
    assert not same_part("storage", "ram")
    assert same_part("memory", "card")
    assert same_part("memory", "ram")
    assert not same_part("memory", "video")


def test_rates_and_energy_are_units_too() -> None:
    found = [(q.value, q.unit) for q in quantities("16000 dpi, 30 ppm, 99.9wh")]
    assert found == [(16000.0, "dpi"), (30.0, "ppm"), (99.9, "wh")]


@pytest.mark.parametrize(
    ("low", "counts"),
    [
        ("8-port switch, 8 rj-45 ports", [8.0, 8.0]),
        ("hub with 4 usb 3.0 ports", [4.0]),
        ("usb-c hub 7 ports, 8 cores", [7.0, 8.0]),
        ("usb 3.2 gen 2 ports", []),
    ],
)
def test_ports_and_cores_are_counted_in_whole_numbers_only(low: str, counts: list[float]) -> None:
    """A version ("usb 3.0", "gen 2") or a name's number ("rj-45") before them counts none."""
    assert [q.value for q in quantities(low) if q.unit in {"port", "core"}] == counts


@pytest.mark.parametrize(
    ("low", "count", "kind", "query"),
    [
        ("at least 4 usb ports", 4.0, "usb", "at least usb 4port"),
        ("4 x usb 3.0 ports", 4.0, "usb 3.0", "usb 3.0 4port"),
        ("8 gigabit ethernet ports", 8.0, "gigabit ethernet", "gigabit ethernet 8port"),
        ("router with 4 x rj-45 ports", 4.0, "rj-45", "router with rj-45 4port"),
    ],
)
def test_a_count_of_ports_of_a_kind_is_a_port_count(
    low: str, count: float, kind: str, query: str
) -> None:
    """ "At least 4 usb ports" had planned the words "4 usb" and "ports"; a lexical query
    keeps the kind beside the count's one word."""
    (found,) = quantities(low)
    assert (found.value, found.unit, found.part) == (count, "port", kind)
    assert found.at_least == low.startswith("at least")
    assert as_spec_words(low) == query


@pytest.mark.parametrize(
    ("low", "at_least", "reach"),
    [
        ("a monitor at least 24 inch", True, "at least 24 inch"),
        ("16gb or more ram", True, "16gb or more"),
        ("a 24 inch or larger monitor", True, "24 inch or larger"),
        ("minimum of 8gb", True, "minimum of 8gb"),
        ("20000mah+ bank", True, "20000mah+"),
        ("1tb and up", True, "1tb and up"),
        ("no more than 24 inch", False, "24 inch"),
        ("not over 50 inch", False, "50 inch"),
        ("a 27 inch monitor", False, "27 inch"),
    ],
)
def test_a_minimum_is_read_with_its_cue(low: str, at_least: bool, reach: str) -> None:
    (quantity,) = quantities(low)
    start, end = quantity.reach if quantity.at_least else (quantity.start, quantity.end)
    assert (quantity.at_least, low[start:end]) == (at_least, reach)


@pytest.mark.parametrize(
    ("low", "above"),
    [
        ("a tv over 50 inch", True),
        ("more than 16gb ram", True),
        ("longer than 6 ft", True),
        ("at least 24 inch", False),
        ("16gb or more", False),
    ],
)
def test_a_minimum_asked_above_the_amount_is_strict(low: str, above: bool) -> None:
    (found,) = quantities(low)
    assert (found.at_least, found.above, found.at_most) == (True, above, False)


@pytest.mark.parametrize(
    ("low", "reach"),
    [
        ("under 24 inches", "under 24 inches"),
        ("no bigger than 13 inch", "no bigger than 13 inch"),
        ("a 14 inch or smaller laptop", "14 inch or smaller"),
        ("maximum of 500gb", "maximum of 500gb"),
    ],
)
def test_a_maximum_is_read_with_its_cue(low: str, reach: str) -> None:
    (found,) = quantities(low)
    assert (found.at_most, found.at_least, low[found.reach[0] : found.reach[1]]) == (
        True,
        False,
        reach,
    )
    assert found.below == low.startswith("under")


def test_a_model_name_before_an_amount_asks_no_maximum() -> None:
    (found,) = quantities("iphone 13 pro max 6.7 inch")
    assert (found.at_most, found.at_least) == (False, False)


def test_a_plus_between_amounts_joins_them_and_asks_no_minimum() -> None:
    assert [q.at_least for q in quantities("a tv box 4gb+64gb")] == [False, False]


def test_without_quantities_blanks_amounts_and_bound_cues() -> None:
    assert without_quantities("at least 16gb ram").split() == ["ram"]
    assert without_quantities("no more than 24 inch screen").split() == ["screen"]
    assert without_quantities("not over 50 inch, sharp").split() == [",", "sharp"]


@pytest.mark.parametrize(
    ("text", "document", "query"),
    [
        ("internal ssd m.2 1000 gb", "internal ssd m.2 1000 gb 1000gb", "internal ssd m.2 1000gb"),
        ("samsung 1tb ssd", "samsung 1tb 1000gb ssd", "samsung 1000gb ssd"),
        ("wd 2 tb drive", "wd 2 tb 2000gb drive", "wd 2000gb drive"),
        ("0.5 tb", "0.5 tb 500gb", "500gb"),
        ("64gb stick", "64gb stick", "64gb stick"),
        ("20,100mah bank", "20,100mah 20100mah bank", "20100mah bank"),
        ('15.6" laptop', '15.6" laptop', '15.6" laptop'),
        ("usb cable", "usb cable", "usb cable"),
    ],
)
def test_one_word_per_quantity_for_documents_and_queries(
    text: str, document: str, query: str
) -> None:
    assert with_spec_words(text) == document
    assert as_spec_words(text) == query
