"""The catalog profile: categories from paths or title head nouns with both noun forms,
brands, attribute values, units, price ranges; saved with the index and printed by
`pickwise catalog profile`."""

from __future__ import annotations

from pathlib import Path

from app.catalog.item import Item
from app.catalog.profile import build_profile, plural, read_profile
from app.catalog.schema import Offer


def item(n: int, title: str, price: float, **fields: object) -> Item:
    return Item.from_offer(
        Offer.model_validate(
            {"id": str(n), "shop": "fashion", "title": title, "price": price, "currency": "INR"}
            | fields
        )
    )


def test_plural_forms() -> None:
    assert [plural(w) for w in ("kurta", "dress", "t-shirt", "accessory", "jeans")] == [
        "kurtas", "dresses", "t-shirts", "accessories", "jeans",
    ]  # fmt: skip


def test_profile_learns_kinds_brands_attributes_and_prices(tmp_path: Path) -> None:
    kurtas = [
        item(i, f"Brand{i % 2} Women Red Printed Kurta", 500 + 100 * i, brand=f"Brand{i % 2}",
             attributes={"color": "Red", "gender": "Women"})
        for i in range(6)
    ]  # fmt: skip
    rare = [item(10, "Men Blue Cufflinks", 900, attributes={"gender": "Men"})]
    pathed = [item(20, "Steel Kettle 1.7 L", 2000, category_path=["Home", "Kettles"])]
    profile = build_profile([*kurtas, *rare, *pathed])
    assert profile.items == 8
    assert set(profile.categories) == {"kurta", "kettles"}, "a head noun needs five titles"
    kurta = profile.categories["kurta"]
    assert (kurta.count, kurta.singular, kurta.plural) == (6, "kurta", "kurtas")
    assert kurta.prices is not None
    assert kurta.prices.min == kurtas[0].price_usd
    assert kurta.prices.max == kurtas[-1].price_usd
    assert profile.brands == {"Brand0": 3, "Brand1": 3}
    assert profile.attributes == {"color": {"red": 6}, "gender": {"women": 6, "men": 1}}
    assert profile.units == {"l": 1}
    assert profile.currencies == {"INR": 8}
    assert profile.has_ratings is False
    assert profile.has_availability is False
    assert profile.category_of(rare[0]) is None
    profile.save(tmp_path)
    assert read_profile(tmp_path) == profile
    assert read_profile(tmp_path / "nowhere") is None
