"""Connections and built-ins read off Icecat spec sheets: toy rows for each kind of field,
the real catalog's monitors, and the item table keeping them."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.catalog.item import Item
from app.catalog.item_table import read_items, write_items
from app.catalog.loader import Catalog
from app.catalog.spec_features import SHEET_TEXT_MAX, sheet_features, sheet_text


@pytest.mark.parametrize(
    ("row", "features"),
    [
        ({"attr_n_hdmi_ports_quantity": 2.0}, ("HDMI",)),
        ({"attr_b_hdmi": True, "attr_n_hdmi_ports_quantity": 1.0}, ("HDMI",)),
        ({"attr_n_hdmi_ports_quantity": 0.0, "attr_b_hdmi": False}, ()),
        ({"attr_n_usb_3_2_gen_1__3_1_gen_1__type_c_ports_quantity": 1.0}, ("USB-C",)),
        ({"attr_t_usb_connector_type": "USB Type-C"}, ("USB-C",)),
        ({"attr_t_usb_connector_type": "Micro-USB"}, ()),
        (
            {"attr_b_wi_fi": True, "attr_t_top_wi_fi_standard": "Wi-Fi 6 (802.11ax)"},
            ("Wi-Fi", "Wi-Fi 6"),
        ),
        ({"attr_b_bluetooth": False, "attr_b_touchscreen": True}, ("touchscreen",)),
        (
            {"attr_b_keyboard_backlit": True, "attr_b_fingerprint_reader": "True"},
            ("backlit keyboard",),
        ),
        ({"title": "HDMI cable", "attr_t_cable_type": "HDMI"}, ()),
    ],
)
def test_a_sheet_lists_what_its_fields_say_yes_to(
    row: dict[str, object], features: tuple[str, ...]
) -> None:
    assert sheet_features(row) == features


def test_real_monitors_list_their_ports(catalog: Catalog) -> None:
    by_id = {i.item_id: i for i in catalog.items}
    dell = by_id["icecat:78829860"]  # DELL SE2719H: the title names no port
    assert "hdmi" not in dell.title.lower()
    assert {"HDMI", "VGA"} <= set(dell.features)
    assert sum(1 for i in catalog.items if "HDMI" in i.features) > 400
    assert all(not i.features for i in catalog.items if i.platform != "icecat")


def test_the_item_table_keeps_the_features(tmp_path: Path) -> None:
    item = Item(
        item_id="icecat:1",
        platform="icecat",
        title="x",
        source="icecat",
        features=("HDMI",),
        spec_text=("AAA / R03",),
        released=2008,
    )
    other = Item(item_id="amazon:1", platform="amazon", title="y", source="amazon")
    write_items(tmp_path / "items.parquet", [item, other])
    back = read_items(tmp_path / "items.parquet")
    assert (back["icecat:1"].features, back["icecat:1"].released) == (("HDMI",), 2008)
    assert back["icecat:1"].spec_text == ("AAA / R03",)
    assert (back["amazon:1"].features, back["amazon:1"].spec_text) == ((), ())


def test_a_sheet_text_keeps_the_short_text_values_in_field_order() -> None:
    """Numbers, yes/no fields, blanks and lists too long to be one value are left out."""
    row = {
        "attr_t_type": "AAA /  R03",
        "attr_n_battery_voltage": 1.5,
        "attr_b_rechargeable": False,
        "attr_t_compatibility": ", ".join(f"LaserJet {n}" for n in range(40)),
        "attr_t_battery_technology": "Zinc-Carbon",
        "attr_t_product_colour": " ",
        "title": "Sony R03NUB4A household battery",
    }
    assert len(str(row["attr_t_compatibility"])) >= SHEET_TEXT_MAX
    assert sheet_text(row) == ("AAA / R03", "Zinc-Carbon")


def test_real_batteries_carry_their_sizes_in_the_sheet_text(catalog: Catalog) -> None:
    sony = next(i for i in catalog.items if i.title == "Sony R03NUB4A household battery")
    assert "aaa" not in sony.title.lower()
    assert "AAA / R03" in sony.spec_text
    assert sum(1 for i in catalog.items if i.spec_text) > 15_000
    assert all(not i.spec_text for i in catalog.items if i.platform != "icecat")
