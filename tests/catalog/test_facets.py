"""Catalog facets from items: counts most frequent first, price quartiles per category in the
catalog's own currency and in USD, the top-N cut, and the file stored with an index version
(read back, recomputed when absent or of another recipe)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.catalog.currency import usd_rates
from app.catalog.facets import (
    FACETS_FILE,
    CatalogFacets,
    build_facets,
    load_facets,
    read_facets,
)
from app.catalog.item import Item
from app.catalog.profile import build_profile
from app.catalog.schema import Offer


def offer(n: int, **fields: object) -> Item:
    base: dict[str, object] = {
        "id": f"p{n}",
        "shop": "myntra",
        "title": f"Men Cotton Kurta {n}",
        "brand": "Anouk",
        "category_path": ["Men", "Kurtas"],
        "price": 1000.0 + n * 100,
        "currency": "INR",
        "attributes": {"color": "Black", "gender": "Men"},
    }
    return Item.from_offer(Offer.model_validate({**base, **fields}))


@pytest.fixture(scope="module")
def items() -> list[Item]:
    kurtas = [offer(n) for n in range(5)]
    dresses = [
        offer(10 + n, title=f"Women Maxi Dress {n}", brand="Libas", category_path=["Dresses"],
              price=2000.0 + n, attributes={"color": "red", "gender": "Women"})
        for n in range(3)
    ]  # fmt: skip
    dollars = offer(20, shop="usshop", price=30.0, currency="USD", brand="Anouk")
    unpriced = offer(21, price=None, currency=None, category_path=[], title="Gift Card")
    return [*kurtas, *dresses, dollars, unpriced]


def test_counts_are_most_frequent_first(items: list[Item]) -> None:
    facets = build_facets(items)
    assert facets.items == len(items)
    assert [(s.value, s.count) for s in facets.shops] == [("myntra", 9), ("usshop", 1)]
    assert [(b.value, b.count) for b in facets.brands] == [("Anouk", 7), ("Libas", 3)]
    assert facets.brands_total == 2
    assert [(c.value, c.count) for c in facets.categories] == [("kurtas", 6), ("dresses", 3)]
    color = next(a for a in facets.attributes if a.name == "color")
    assert [(v.value, v.count) for v in color.values] == [("black", 7), ("red", 3)]
    assert (color.count, color.distinct) == (10, 2)
    assert [(c.value, c.count) for c in facets.currencies] == [("INR", 8), ("USD", 1)]
    assert facets.has_ratings is False
    assert facets.has_availability is False


def test_the_brief_tells_the_model_this_catalog(items: list[Item]) -> None:
    brief = build_facets(items).brief()
    assert "the shops myntra, usshop" in brief
    assert "prices mostly in INR" in brief
    assert "main categories: kurtas, dresses" in brief
    assert "ratings not listed" in brief
    rated = build_facets([*items, offer(30, rating=4.5, availability="in_stock")]).brief()
    assert "ratings listed for some items" in rated
    assert "stock listed" in rated


def test_prices_are_quartiles_in_the_display_currency_and_in_usd(items: list[Item]) -> None:
    facets = build_facets(items)
    assert facets.display_currency == "INR"
    kurtas = next(c for c in facets.categories if c.value == "kurtas")
    assert kurtas.prices is not None
    assert kurtas.prices_usd is not None
    inr = usd_rates()["INR"]
    # five listed in rupees (1000..1400) and one listed at $30, shown converted to rupees
    converted = round(round(30.0 * usd_rates()["USD"], 2) / inr, 2)
    listed = sorted([1000.0, 1100.0, 1200.0, 1300.0, 1400.0, converted])
    assert kurtas.prices.currency == "INR"
    assert kurtas.prices.count == 6
    assert (kurtas.prices.min, kurtas.prices.max) == (listed[0], listed[-1])
    assert kurtas.prices.median == listed[3]
    assert kurtas.prices_usd.currency == "USD"
    assert kurtas.prices_usd.max == 30.0
    assert kurtas.prices.p25 <= kurtas.prices.median <= kurtas.prices.p75
    assert facets.prices is not None
    assert facets.prices.count == 9, "every priced item, the uncategorised one too"


def test_title_kinds_name_categories_only_where_the_catalog_lists_none() -> None:
    bare = [
        offer(n, title=f"Men {c} Solid Kurta", category_path=[])
        for n, c in enumerate(("Black", "Red", "Blue", "Green", "White", "Navy"))
    ]
    listed = [offer(10 + n) for n in range(7)]
    facets = build_facets(bare, build_profile(bare))
    assert [(c.value, c.count) for c in facets.categories] == [("kurta", 6)]
    mostly_listed = [*listed, *bare]
    facets = build_facets(mostly_listed, build_profile(mostly_listed))
    assert [(c.value, c.count) for c in facets.categories] == [("kurtas", 7)]


def test_top_cuts_every_list_but_keeps_the_totals(items: list[Item]) -> None:
    top = build_facets(items).top(1)
    assert [b.value for b in top.brands] == ["Anouk"]
    assert top.brands_total == 2
    assert [c.value for c in top.categories] == ["kurtas"]
    assert all(len(a.values) == 1 for a in top.attributes)


def test_stored_facets_are_read_back_and_another_recipe_is_recomputed(
    items: list[Item], tmp_path: Path
) -> None:
    calls: list[int] = []

    def table() -> list[Item]:
        calls.append(1)
        return items

    assert read_facets(tmp_path) is None
    computed = load_facets(tmp_path, table)
    assert calls == [1]
    computed.save(tmp_path)
    assert read_facets(tmp_path) == computed
    assert load_facets(tmp_path, table) == computed
    assert calls == [1], "stored facets are not computed again"

    doc = json.loads((tmp_path / FACETS_FILE).read_text())
    (tmp_path / FACETS_FILE).write_text(json.dumps({**doc, "recipe": "facets:v0"}))
    assert read_facets(tmp_path) is None
    assert isinstance(load_facets(tmp_path, table), CatalogFacets)
    assert calls == [1, 1]
    (tmp_path / FACETS_FILE).write_text("{not json")
    assert read_facets(tmp_path) is None
