"""Which column of an import file fills which offer field: `--map FIELD=COLUMN` pairs, a
TOML mapping file, or a column already named like the field. Turns one raw row into the
fields an `Offer` validates."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.catalog.schema import Offer
from app.catalog.text import clean_text
from app.errors import InvalidRequest

__all__ = ["ATTRIBUTE_PREFIX", "ColumnMapping", "RowFields", "mapping_defaults", "parse_price"]

ATTRIBUTE_PREFIX = "attributes."
_FIELDS = tuple(Offer.model_fields)
_PRICE = re.compile(
    r"^(?P<pre>[A-Za-z]{3})?\s*(?P<num>[-+]?[\d.,\s]*\d[\d.,]*)\s*(?P<post>[A-Za-z]{3})?$"
)


@dataclass(frozen=True)
class RowFields:
    """The offer fields read from one row, and what is worth a warning though it imports."""

    fields: dict[str, Any]
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class ColumnMapping:
    """Offer field -> column, and attribute name -> column."""

    fields: Mapping[str, str] = field(default_factory=dict)
    attributes: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def parse(cls, pairs: Sequence[str], toml_file: Path | None = None) -> ColumnMapping:
        """`FIELD=COLUMN` pairs (after the TOML file's `[map]` table, so they win)."""
        raw: dict[str, str] = {}
        if toml_file is not None:
            raw.update(_read_toml(toml_file))
        for pair in pairs:
            name, sep, column = pair.partition("=")
            if not sep or not name.strip() or not column.strip():
                raise InvalidRequest(f"--map {pair!r} is not FIELD=COLUMN")
            raw[name.strip()] = column.strip()
        fields: dict[str, str] = {}
        attributes: dict[str, str] = {}
        for name, column in raw.items():
            if name.startswith(ATTRIBUTE_PREFIX) and name[len(ATTRIBUTE_PREFIX) :].strip():
                attributes[name[len(ATTRIBUTE_PREFIX) :].strip().lower()] = column
            elif name in _FIELDS and name != "attributes":
                fields[name] = column
            else:
                raise InvalidRequest(
                    f"cannot map {name!r}: fields are {', '.join(_FIELDS)} or attributes.NAME"
                )
        return cls(fields, attributes)

    def resolve(self, header: Sequence[str], file: str) -> ColumnMapping:
        """This mapping for a file's header: columns named like a field fill it unless mapped
        elsewhere; a mapped column the file lacks is an InvalidRequest naming it."""
        columns = set(header)
        missing = [
            c for c in [*self.fields.values(), *self.attributes.values()] if c not in columns
        ]
        if missing:
            raise InvalidRequest(
                f"{file}: no column {', '.join(map(repr, missing))}; it has {', '.join(header)}"
            )
        fields = {f: f for f in _FIELDS if f in columns and f not in self.fields}
        return ColumnMapping({**fields, **self.fields}, self.attributes)

    def row_fields(self, row: Mapping[str, Any], shop: str | None, currency: str) -> RowFields:
        """The offer fields of one row: price strings parsed ("15.00 USD"), the shop and the
        default currency filled where the row states none. ValueError names a bad value."""
        out: dict[str, Any] = {}
        for name, column in self.fields.items():
            value = row.get(column)
            if value is not None and value != "":
                out[name] = value
        attributes = dict(out.pop("attributes", None) or {})
        for name, column in self.attributes.items():
            value = row.get(column)
            if value is not None and str(value).strip():
                attributes[name] = str(value)
        if attributes:
            out["attributes"] = attributes
        if shop is not None:
            out["shop"] = shop
        warnings: list[str] = []
        description = out.get("description")
        if (
            isinstance(description, str)
            and ("<" in description or "&" in description)
            and not clean_text(description)
        ):
            warnings.append("description is HTML only; imported without a description")
        if "price" in out:
            amount, code = parse_price(out["price"])
            out["price"] = amount
            if code is not None:
                out.setdefault("currency", code)
        if out.get("price") is not None and not out.get("currency"):
            out["currency"] = currency
        for name in ("id", "gtin", "mpn", "group_id", "released"):
            if isinstance(out.get(name), int | float):
                out[name] = _number_text(out[name])
        return RowFields(out, tuple(warnings))


def parse_price(value: Any) -> tuple[float, str | None]:
    """An amount and the currency code written with it: 15, "15.00", "15.00 USD", "1,299";
    ValueError when it is not a price."""
    if isinstance(value, bool):
        raise ValueError(f"price {value!r} is not a number")
    if isinstance(value, int | float):
        return float(value), None
    text = str(value).strip()
    match = _PRICE.match(text)
    if not match:
        raise ValueError(f"price {text!r} is not a number")
    pre, post = match.group("pre"), match.group("post")
    if pre and post:
        raise ValueError(f"price {text!r} names two currencies")
    num = match.group("num").replace(" ", "")
    if "," in num and "." not in num and re.fullmatch(r"\d+,\d{1,2}", num):
        num = num.replace(",", ".")
    elif re.fullmatch(r"[-+]?\d{1,3}(,\d{3})+(\.\d+)?", num):
        num = num.replace(",", "")
    try:
        amount = float(num)
    except ValueError:
        raise ValueError(f"price {text!r} is not a number") from None
    return amount, (pre or post or "").upper() or None


def _number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def mapping_defaults(path: Path) -> dict[str, str]:
    """The mapping file's top-level `shop`, `currency` and `format` (what the command line
    would otherwise say)."""
    data = _load_toml(path)
    return {k: str(data[k]) for k in ("shop", "currency", "format") if k in data}


def _load_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InvalidRequest(f"cannot read the mapping file {path}: {exc}") from exc


def _read_toml(path: Path) -> dict[str, str]:
    data = _load_toml(path)
    table = data.get("map", {})
    attrs = data.get("attributes", {})
    if not isinstance(table, dict) or not isinstance(attrs, dict):
        raise InvalidRequest(f"{path}: [map] and [attributes] must be tables of FIELD = COLUMN")
    out = {str(k): str(v) for k, v in table.items()}
    out.update({f"{ATTRIBUTE_PREFIX}{k}": str(v) for k, v in attrs.items()})
    return out
