"""The catalog's one product type, and the same-product labels that come with it."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["PLATFORMS", "Item", "MatchLabel", "Platform", "item_fields_fingerprint"]

Platform = Literal["icecat", "walmart", "amazon", "google", "abt", "buy"]
PLATFORMS: tuple[str, ...] = ("icecat", "walmart", "amazon", "google", "abt", "buy")


class Item(BaseModel):
    """One product offer on one platform, normalised from any source dataset.

    `item_id` is stable across rebuilds and prefixed by the platform (`icecat:3920564`).
    Unknown values are None, never guessed: most sources carry no rating, ditto has no
    images, ESCI has no prices. The one inference, `inferred_category`, is kept apart from the
    listed or title-derived `category` (see `app.catalog.spec_categories`); `features` are
    what the spec sheet states (see `app.catalog.spec_features`).
    """

    model_config = ConfigDict(frozen=True)

    item_id: str
    platform: Platform
    title: str = Field(min_length=1)
    brand: str | None = None
    color: str | None = None
    category: str | None = None
    description: str = ""
    price_usd: float | None = Field(None, ge=0)
    rating: float | None = Field(None, ge=0, le=5)
    image_url: str | None = None
    source: str
    model_number: str | None = None
    ean: tuple[str, ...] = ()
    inferred_category: str | None = None
    features: tuple[str, ...] = ()
    """Connections and built-ins the spec sheet lists ("HDMI", "Bluetooth"); Icecat only."""
    released: int | None = Field(None, ge=1900, le=2100)
    """The year the product came out (Icecat's release date); None elsewhere."""

    @property
    def known_category(self) -> str | None:
        """The listed or title-derived category, else the one inferred from the spec sheet."""
        return self.category or self.inferred_category

    @property
    def product_type(self) -> str | None:
        """What the item is in Icecat's taxonomy (its title's category or its spec sheet's);
        None for shop listings, whose categories are browse nodes ("laser printers" holds
        laser paper)."""
        return self.known_category if self.typed else None

    @property
    def typed(self) -> bool:
        """Whether the item comes from Icecat's taxonomy, which types products, even where
        neither its title nor its spec sheet gave it a type."""
        return self.platform == "icecat"


def item_fields_fingerprint() -> str:
    """The item table's columns, part of the index version: a new field rebuilds the table."""
    return "item-fields:" + ",".join(Item.model_fields)


class MatchLabel(BaseModel):
    """A published same-product judgement between two catalog items (ditto ER pairs)."""

    model_config = ConfigDict(frozen=True)

    dataset: Literal["walmart-amazon", "amazon-google", "abt-buy"]
    split: Literal["train", "valid", "test"]
    left_id: str
    right_id: str
    same_product: bool
