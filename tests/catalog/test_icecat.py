"""Icecat loader: real counts and fields, cents prices, title categories, bad rows counted."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from app.catalog._tally import SkipTally
from app.catalog.icecat import (
    ICECAT_FILES,
    derive_icecat_category,
    icecat_item,
    icecat_model_number,
    icecat_price_usd,
    load_icecat,
)
from app.catalog.item import Item


@pytest.fixture(scope="module")
def icecat_items(data_dir: Path) -> list[Item]:
    return load_icecat([data_dir / "icecat" / name for name in ICECAT_FILES], SkipTally())


def _zip(path: Path, payload: str) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(path.stem, payload)
    return path


def _row(**overrides: object) -> dict[str, object]:
    row: dict[str, object] = {
        "id": "1",
        "name": "006R90321",
        "title": "Xerox 006R90321 toner cartridge Original Black 6 pc(s)",
        "supplier": "Xerox",
        "short_description": "Toner",
        "ean": ["0095205603217"],
        "price": 4995,
        "img_500x500": "http://images.example/1.jpg",
    }
    row.update(overrides)
    return row


def test_every_real_icecat_row_loads(icecat_items: list[Item]) -> None:
    assert len(icecat_items) == 19_406
    assert len({item.item_id for item in icecat_items}) == 19_406
    assert all(item.platform == "icecat" and item.rating is None for item in icecat_items)


def test_real_icecat_fields(icecat_items: list[Item]) -> None:
    item = next(i for i in icecat_items if i.item_id == "icecat:3920564")
    assert item.title == "Xerox 006R90321 toner cartridge Original Black 6 pc(s)"
    assert item.brand == "Xerox"
    assert item.category == "toner cartridge"
    assert item.model_number == "006R90321"
    assert item.price_usd == pytest.approx(49.95)
    assert item.ean == ("0095205603217",)
    assert item.description == "Toner (6 Per Box) for CopyCentre C65 Digital Copier"
    assert item.image_url is not None
    assert item.image_url.endswith(".jpg")
    assert item.color is None
    assert item.source == "icecat"
    assert item.released is not None
    assert 1994 <= item.released <= 2020


def test_real_icecat_release_years(icecat_items: list[Item]) -> None:
    by_id = {i.item_id: i for i in icecat_items}
    assert by_id["icecat:1593563"].released == 2008  # HP rp5700 Desktop PC, 2008-05-10
    assert by_id["icecat:77273040"].released == 2020
    assert all(i.released is not None for i in icecat_items)


@pytest.mark.parametrize("date", ["", "unknown", None, 2008, "0000-01-01T00:00:00Z"])
def test_an_unreadable_release_date_is_unknown(date: object) -> None:
    row = {"id": "1", "title": "HP 85 Original", "name": "85", "date_released": date}
    item = icecat_item(row)
    assert isinstance(item, Item)
    assert item.released is None


def test_real_icecat_text_is_clean(icecat_items: list[Item]) -> None:
    assert not any("®" in i.title or "™" in i.title for i in icecat_items)
    colours = {i.color for i in icecat_items if i.color}
    assert "Black, Silver" in colours
    assert "Black,Silver" not in colours


def test_real_icecat_category_coverage(icecat_items: list[Item]) -> None:
    """About 37% of Icecat titles follow the part-number + category pattern; the rest stay None."""
    with_category = [i for i in icecat_items if i.category]
    assert len(with_category) == 7_254
    assert all(i.category and not i.category[0].isdigit() for i in with_category)


@pytest.mark.parametrize(
    ("title", "name", "category"),
    [
        ("Xerox 006R90321 toner cartridge Original Black 6 pc(s)", "006R90321", "toner cartridge"),
        ("Intel Xeon E5320 processor 1.86 GHz Box 8 MB L2", "E5320", "processor"),
        ("HP C8091A power adapter/inverter Indoor 50 W Black", "C8091A", "power adapter/inverter"),
        ("Case Logic TBC302P camera case Pink", "TBC302P", "camera case"),
        ("Tripp Lite RBC2A UPS battery", "RBC2A", "UPS battery"),
        ("HEISSNER ZF405-00 ultraviolet (UV) bulb G23 5 W", "ZF405-00", "ultraviolet bulb"),
        (
            "Matrox Veos Display Unit AV transmitter & receiver Black",
            "Veos Display Unit",
            "AV transmitter & receiver",
        ),
        ("Denver KCA-1320GREEN kids' electronic", "KCA-1320GREEN", "kids' electronic"),
        ("ACT UTP Cat5E 2.0m networking cable 2 m Blue", "UTP Cat5E 2.0m", "networking cable"),
        # the pattern does not hold: no category rather than a wrong one
        ("HP 85 Original Light magenta", "85", None),
        ("Xerox Waste Toner Container 31000 pages", "Waste Toner Container", None),
        ("Canon BCI-6Y Original", "BCI-6Y", None),
        ("Tripp Lite USB 2.0 Hi-Speed A/B Cable (M/M)", "USB 2.0 Hi-Speed A/B Cable (M/M)", None),
        ("TP-LINK TL-WA860RE PowerLine network adapter", "TL-WA860RE", None),
        ("HP LaserJet Color CP3505n skrivare Colour", "Color LaserJet CP3505n skrivare", None),
        ("Brand X1 for", "X1", None),
        ("", "X1", None),
        ("Brand X1 cable", "", None),
    ],
)
def test_derive_icecat_category(title: str, name: str, category: str | None) -> None:
    assert derive_icecat_category(title, name) == category


@pytest.mark.parametrize(
    ("name", "model"),
    [
        ("006R90321", "006R90321"),
        ("83", "83"),
        ("3 ft Cat5e Purple Molded RJ45 UTP Cat 5e Patch Cable", None),
        ("Touchpad", None),
        ("", None),
    ],
)
def test_icecat_model_number(name: str, model: str | None) -> None:
    assert icecat_model_number(name) == model


@pytest.mark.parametrize(
    ("cents", "usd"),
    [
        (4995, 49.95),
        (95, 0.95),
        ("1299", 12.99),
        (1299.0, 12.99),
        (0, None),
        (-5, None),
        (None, None),
        ("", None),
        ("12.99 EUR", None),
        (12.5, None),
        (float("nan"), None),
        (True, None),
    ],
)
def test_icecat_price_is_integer_cents(cents: object, usd: float | None) -> None:
    assert icecat_price_usd(cents) == (pytest.approx(usd) if usd is not None else None)


def test_bad_icecat_rows_are_counted_not_fatal(tmp_path: Path) -> None:
    rows = [
        _row(id="1"),
        _row(id="2", title=""),
        _row(id="3", title=None),
        "not an object",
        _row(id=None),
        _row(id="1"),
        _row(id="4", price="n/a"),
        _row(id="5", price=0, ean="4006381333931", attr_t_product_colour="Black,Silver"),
    ]
    good = _zip(tmp_path / "1.json.zip", json.dumps(rows))
    broken = _zip(tmp_path / "2.json.zip", '[{"id": "9", "title": ')
    not_a_list = _zip(tmp_path / "3.json.zip", '{"id": "9"}')
    not_a_zip = tmp_path / "4.json.zip"
    not_a_zip.write_bytes(b"plain bytes")
    tally = SkipTally()

    items = load_icecat([good, broken, not_a_list, not_a_zip], tally)

    assert [i.item_id for i in items] == ["icecat:1", "icecat:4", "icecat:5"]
    assert items[1].price_usd is None
    assert items[2].price_usd is None
    assert items[2].ean == ("4006381333931",)
    assert items[2].color == "Black, Silver"
    assert tally.counts() == {
        "icecat:bad_file": 2,
        "icecat:bad_json": 1,
        "icecat:duplicate_id": 1,
        "icecat:malformed_row": 1,
        "icecat:no_id": 1,
        "icecat:no_title": 2,
    }


def test_skipped_rows_are_logged_in_one_summary_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = _zip(tmp_path / "1.json.zip", json.dumps([_row(id="1"), _row(id="2", title="")]))
    with caplog.at_level("INFO", logger="app.catalog"):
        load_icecat([path], SkipTally())
    summaries = [r for r in caplog.records if r.getMessage().startswith("icecat: loaded")]
    assert len(summaries) == 1
    assert summaries[0].levelname == "WARNING"
    assert "no_title=1" in summaries[0].getMessage()
