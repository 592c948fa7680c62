"""What an Icecat spec sheet says an item has, in a shopper's words ("HDMI", "Bluetooth",
"USB-C"): titles rarely list connections and built-ins, and a shopper who asks for them
should not hear "does not say hdmi" about a monitor whose sheet lists an HDMI port."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping

__all__ = ["SHEET_TEXT_MAX", "features_fingerprint", "sheet_features", "sheet_text"]

Row = Mapping[str, object]

SHEET_TEXT_MAX = 100
"""Longest spec-sheet text value kept as search words; longer ones are lists (every printer a
toner fits) whose words would match queries about other products."""
_TEXT_FIELD = "attr_t_"


def _flag(*fields: str) -> Callable[[Row], bool]:
    """True when any of the yes/no fields is true."""
    return lambda row: any(row.get(f) is True for f in fields)


def _ports(*words: str) -> Callable[[Row], bool]:
    """True when a port-count field whose name holds every word counts at least one."""

    def has(row: Row) -> bool:
        return any(
            all(w in key for w in words) and key.endswith("quantity") and _positive(value)
            for key, value in row.items()
        )

    return has


def _text(field: str, *needles: str) -> Callable[[Row], bool]:
    """True when the text field names any of the needles."""
    return lambda row: any(n in str(row.get(field) or "") for n in needles)


def _either(*checks: Callable[[Row], bool]) -> Callable[[Row], bool]:
    return lambda row: any(check(row) for check in checks)


def _positive(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value > 0


_FEATURES: tuple[tuple[str, Callable[[Row], bool]], ...] = (
    ("HDMI", _either(_flag("attr_b_hdmi"), _ports("hdmi"))),
    ("DisplayPort", _ports("displayport")),
    ("DVI", _either(_flag("attr_b_dvi_port"), _ports("dvi"))),
    ("VGA", _ports("vga")),
    ("USB-C", _either(_ports("type_c"), _text("attr_t_usb_connector_type", "Type-C"))),
    ("Ethernet", _either(_flag("attr_b_ethernet_lan"), _ports("rj_45"))),
    ("Wi-Fi", _flag("attr_b_wi_fi")),
    ("Wi-Fi 6", _text("attr_t_top_wi_fi_standard", "Wi-Fi 6")),
    ("Bluetooth", _flag("attr_b_bluetooth")),
    ("PoE", _flag("attr_b_power_over_ethernet__poe_")),
    ("GPS", _flag("attr_b_gps__satellite_")),
    ("touchscreen", _flag("attr_b_touchscreen")),
    ("webcam", _flag("attr_b_built_in_camera")),
    ("microphone", _flag("attr_b_built_in_microphone")),
    ("speakers", _flag("attr_b_built_in_speaker_s_")),
    ("backlit keyboard", _flag("attr_b_keyboard_backlit")),
    ("fingerprint reader", _flag("attr_b_fingerprint_reader")),
    ("rechargeable", _flag("attr_b_rechargeable")),
)


def sheet_features(row: Row) -> tuple[str, ...]:
    """The connections and built-ins an Icecat row's spec sheet says the item has, in a
    fixed order; a sheet that says "no" (or nothing) adds nothing."""
    return tuple(name for name, has in _FEATURES if has(row))


def sheet_text(row: Row) -> tuple[str, ...]:
    """The short text values of an Icecat row's spec sheet ("AAA / R03", "Zinc-Carbon"), in
    field order: words a shopper may search by that the title leaves out."""
    return tuple(
        text
        for key, value in row.items()
        if key.startswith(_TEXT_FIELD)
        and isinstance(value, str)
        and 0 < len(text := " ".join(value.split())) < SHEET_TEXT_MAX
    )


def features_fingerprint() -> str:
    """A short hash of the feature names, part of the index version (the item table holds
    them)."""
    names = "|".join(name for name, _ in _FEATURES)
    return "sheet-features:" + hashlib.sha256(names.encode()).hexdigest()[:8]
