"""The catalog's one product type, and the same-product labels that come with it."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.catalog.currency import to_usd
from app.catalog.schema import Availability, Offer

__all__ = ["PLATFORMS", "Item", "MatchLabel", "Platform", "item_fields_fingerprint"]

Platform = str
"""A shop's name: open, lower-case (see `app.catalog.schema.normalise_shop`)."""
PLATFORMS: tuple[str, ...] = ("icecat", "walmart", "amazon", "google", "abt", "buy")
"""The demo catalog's shops, in the order reports list them."""


class Item(BaseModel):
    """One product offer on one shop, normalised from an imported `Offer` or a demo source.

    `item_id` is stable across rebuilds and prefixed by the shop (`icecat:3920564`); `price`
    and `currency` are as the shop lists them, `price_usd` their conversion (filters and
    budgets compare in it).
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
    spec_text: tuple[str, ...] = ()
    """The spec sheet's short text values ("AAA / R03"): search words only, never facets or
    filters; Icecat only."""
    released: int | None = Field(None, ge=1900, le=2100)
    """The year the product came out (Icecat's release date); None elsewhere."""
    price: float | None = Field(None, ge=0)
    currency: str | None = None
    availability: Availability = "unknown"
    review_count: int | None = Field(None, ge=0)
    url: str | None = None
    group_id: str | None = None
    """Shared by the variants of one product (sizes, colours)."""
    category_path: tuple[str, ...] = ()
    attributes: dict[str, str] = Field(default_factory=dict)
    """name -> value as the shop states them (color, size, material, gender, ...)."""

    @model_validator(mode="before")
    @classmethod
    def _listed_price(cls, data: Any) -> Any:
        """Demo sources state US dollars only: their listed price is the dollar price."""
        if (
            isinstance(data, dict)
            and data.get("price") is None
            and data.get("price_usd") is not None
        ):
            return {**data, "price": data["price_usd"], "currency": "USD"}
        return data

    @classmethod
    def from_offer(cls, offer: Offer) -> Item:
        """The catalog item of an imported offer; `price_usd` converted by the rate table."""
        attrs = offer.attributes
        return cls(
            item_id=f"{offer.shop}:{offer.id}",
            platform=offer.shop,
            title=offer.title,
            brand=offer.brand,
            color=attrs.get("color"),
            category=offer.category_path[-1] if offer.category_path else None,
            description=offer.description,
            price_usd=to_usd(offer.price, offer.currency),
            price=offer.price,
            currency=offer.currency,
            rating=offer.rating,
            image_url=offer.image_url,
            source=f"import:{offer.shop}",
            model_number=offer.mpn,
            ean=(offer.gtin,) if offer.gtin else (),
            released=offer.year if offer.year and 1900 <= offer.year <= 2100 else None,
            availability=offer.availability,
            review_count=offer.review_count,
            url=offer.url,
            group_id=offer.group_id,
            category_path=tuple(offer.category_path),
            attributes=dict(attrs),
        )

    @property
    def offer_id(self) -> str:
        """The shop's own id (the item id without its shop prefix)."""
        return self.item_id.split(":", 1)[1] if ":" in self.item_id else self.item_id

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
