"""The catalog schema: one product offer of one shop, as an import file states it.

`pickwise catalog schema` prints it as JSON Schema and docs/catalog.md documents it. Values
a file does not state stay None; nothing is guessed.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from app.catalog.currency import usd_rates
from app.catalog.text import clean_text

__all__ = ["AVAILABILITIES", "Availability", "Offer", "normalise_shop", "offer_json_schema"]

Availability = Literal["in_stock", "out_of_stock", "preorder", "unknown"]
AVAILABILITIES: tuple[str, ...] = ("in_stock", "out_of_stock", "preorder", "unknown")

_SHOP = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")
_RELEASED = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")
_GTIN = re.compile(r"^\d{8,14}$")
_AVAILABILITY_WORDS = {
    "in stock": "in_stock",
    "instock": "in_stock",
    "available": "in_stock",
    "true": "in_stock",
    "out of stock": "out_of_stock",
    "outofstock": "out_of_stock",
    "sold out": "out_of_stock",
    "false": "out_of_stock",
    "pre order": "preorder",
    "pre-order": "preorder",
    "backorder": "preorder",
    "": "unknown",
}


def normalise_shop(name: str) -> str:
    """A shop name as filters compare it: stripped, lower-cased; ValueError when unusable."""
    shop = name.strip().lower()
    if not _SHOP.match(shop):
        raise ValueError(
            f"shop name {name!r} must be 1-64 letters, digits, '.', '_' or '-' (no spaces or ':')"
        )
    return shop


def _blank_to_none(value: Any) -> Any:
    if isinstance(value, str):
        value = value.strip()
        return value or None
    return value


class Offer(BaseModel):
    """One product offer of one shop: the unit every import format is converted to."""

    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True)

    id: str = Field(min_length=1, max_length=256, description="The shop's own id, unique per shop.")
    shop: str = Field(description="The shop's name (an open name; a catalog may hold many).")
    title: str = Field(min_length=1, max_length=1_000)
    brand: str | None = None
    category_path: list[str] = Field(
        default_factory=list, description='Broad to narrow, e.g. ["Home", "Kitchen", "Kettles"].'
    )
    description: str = Field("", description="Plain text; HTML tags and entities are stripped.")
    price: float | None = Field(None, ge=0, description="As the shop lists it, in `currency`.")
    currency: str | None = Field(
        None, description="ISO 4217 code of `price`; one the rate table converts."
    )
    availability: Availability = "unknown"
    rating: float | None = Field(None, ge=0, le=5)
    review_count: int | None = Field(None, ge=0)
    image_url: str | None = None
    url: str | None = None
    gtin: str | None = Field(None, description="GTIN-8/12/13/14 digits (UPC, EAN, ISBN).")
    mpn: str | None = Field(None, description="The manufacturer's part number.")
    group_id: str | None = Field(
        None, description="Shared by the variants of one product (sizes, colours)."
    )
    attributes: dict[str, str] = Field(
        default_factory=dict, description="name -> value: color, size, material, gender, ..."
    )
    released: str | None = Field(None, description="Release date: YYYY, YYYY-MM or YYYY-MM-DD.")

    @field_validator(
        "brand",
        "image_url",
        "url",
        "gtin",
        "mpn",
        "group_id",
        "released",
        "currency",
        mode="before",
    )
    @classmethod
    def _blank(cls, value: Any) -> Any:
        return _blank_to_none(value)

    @field_validator("id", "title", mode="before")
    @classmethod
    def _text_field(cls, value: Any) -> Any:
        return clean_text(value) if isinstance(value, str) and "<" in value else value

    @field_validator("shop", mode="before")
    @classmethod
    def _shop(cls, value: Any) -> Any:
        return normalise_shop(value) if isinstance(value, str) else value

    @field_validator("description", mode="before")
    @classmethod
    def _description(cls, value: Any) -> Any:
        return clean_text(value) if value is not None else ""

    @field_validator("category_path", mode="before")
    @classmethod
    def _path(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = re.split(r"\s*(?:>|/)\s*", value)
        if isinstance(value, list | tuple):
            return [p for p in (clean_text(v) for v in value) if p]
        return value

    @field_validator("currency")
    @classmethod
    def _currency(cls, value: str | None) -> str | None:
        if value is None:
            return None
        code = value.upper()
        if code not in usd_rates():
            raise ValueError(f"unknown currency {value!r}; known: {', '.join(sorted(usd_rates()))}")
        return code

    @field_validator("availability", mode="before")
    @classmethod
    def _availability(cls, value: Any) -> Any:
        if value is None:
            return "unknown"
        if isinstance(value, str):
            key = " ".join(value.strip().lower().replace("_", " ").split())
            return _AVAILABILITY_WORDS.get(key, key.replace(" ", "_"))
        return value

    @field_validator("gtin")
    @classmethod
    def _gtin(cls, value: str | None) -> str | None:
        if value is not None and not _GTIN.match(value):
            raise ValueError(f"gtin {value!r} is not 8 to 14 digits")
        return value

    @field_validator("released")
    @classmethod
    def _released(cls, value: str | None) -> str | None:
        if value is not None and not _RELEASED.match(value):
            raise ValueError(f"released {value!r} is not YYYY, YYYY-MM or YYYY-MM-DD")
        return value

    @field_validator("image_url", "url")
    @classmethod
    def _link(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError(f"{value!r} is not an http(s) URL")
        return value

    @field_validator("attributes", mode="before")
    @classmethod
    def _attributes(cls, value: Any) -> Any:
        if not isinstance(value, dict):
            return value
        out: dict[str, str] = {}
        for name, raw in value.items():
            text = clean_text(str(raw)) if raw is not None else ""
            key = " ".join(str(name).strip().lower().split())
            if key and text:
                out["color" if key == "colour" else key] = text
        return out

    @model_validator(mode="after")
    def _priced_in_a_currency(self) -> Offer:
        if self.price is not None and self.currency is None:
            raise ValueError("a price needs a currency (map one or pass --currency)")
        return self

    @property
    def year(self) -> int | None:
        """The release year, when a release date is stated."""
        return int(self.released[:4]) if self.released else None


def offer_json_schema() -> dict[str, Any]:
    """The JSON Schema of one offer (what `pickwise catalog schema` prints)."""
    schema = Offer.model_json_schema()
    schema["$id"] = "https://pickwise.dev/schema/offer.json"
    schema["title"] = "Pickwise catalog offer"
    return schema
