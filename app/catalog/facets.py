"""Catalog facets: what a chat page shows as filters. Categories, shops, brands and attribute
values with their counts, price quartiles per category in the catalog's display currency (and
in US dollars, the unit budgets are edited in), and whether ratings and stock are known.

Computed from the item table of one index version: written beside it at build time and
read back (or, for an index built before facets existed, computed once) per version."""

from __future__ import annotations

import json
import logging
import os
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from app.catalog.currency import usd_rates
from app.catalog.item import Item
from app.catalog.profile import CatalogProfile, read_profile

__all__ = [
    "FACETS_FILE",
    "FACETS_RECIPE",
    "AttributeFacet",
    "CatalogFacets",
    "CategoryFacet",
    "FacetValue",
    "PriceStats",
    "build_facets",
    "load_facets",
    "read_facets",
]

log = logging.getLogger(__name__)

FACETS_FILE = "facets.json"
FACETS_RECIPE = "facets:v1"
"""Stored with the facets: a file of another recipe is computed again, not trusted."""
_KEPT = 500
"""Most categories, brands and values per attribute a stored facet file keeps."""


class FacetValue(BaseModel):
    """One value of a facet and how many items carry it."""

    model_config = ConfigDict(frozen=True)

    value: str
    count: int


class PriceStats(BaseModel):
    """Quartiles of prices in one currency (nearest rank)."""

    model_config = ConfigDict(frozen=True)

    currency: str
    count: int
    min: float
    p25: float
    median: float
    p75: float
    max: float


class CategoryFacet(BaseModel):
    """One category with its item count and price ranges (display currency and USD)."""

    model_config = ConfigDict(frozen=True)

    value: str
    count: int
    prices: PriceStats | None = None
    prices_usd: PriceStats | None = None


class AttributeFacet(BaseModel):
    """One attribute name (colour, size, ...): items stating it, distinct values, the values."""

    model_config = ConfigDict(frozen=True)

    name: str
    count: int
    distinct: int
    values: list[FacetValue]


class CatalogFacets(BaseModel):
    """The facets of one catalog; lists are most frequent first (ties by name)."""

    model_config = ConfigDict(frozen=True)

    recipe: str = FACETS_RECIPE
    items: int
    display_currency: str = Field(description="The catalog's most listed currency.")
    currencies: list[FacetValue]
    shops: list[FacetValue]
    categories: list[CategoryFacet]
    categories_total: int
    brands: list[FacetValue]
    brands_total: int
    attributes: list[AttributeFacet]
    prices: PriceStats | None = None
    prices_usd: PriceStats | None = None
    has_ratings: bool
    has_availability: bool
    availability: list[FacetValue]

    def top(self, n: int) -> CatalogFacets:
        """A copy with at most `n` categories, brands and values per attribute."""
        attributes = [a.model_copy(update={"values": a.values[:n]}) for a in self.attributes]
        return self.model_copy(
            update={
                "categories": self.categories[:n],
                "brands": self.brands[:n],
                "attributes": attributes,
            }
        )

    def brief(self, top: int = 8) -> str:
        """What the model is told of this catalog: its shops, main kinds and whether ratings
        and stock are listed, so prompts describe the catalog served, not a fixed one."""
        shops = ", ".join(f.value for f in self.shops)
        kinds = ", ".join(c.value for c in self.categories[:top])
        return (
            f"The catalog: {self.items:,} items from the shops {shops or 'of one shop'}; "
            f"prices mostly in {self.display_currency}; main categories: {kinds or 'none listed'}"
            f"; ratings {'listed for some items' if self.has_ratings else 'not listed'}; stock "
            f"{'listed' if self.has_availability else 'not listed'}. Shop names in tool arguments "
            "and platforms are these names."
        )

    def save(self, folder: Path) -> Path:
        """Write the facets beside an index version (atomically: readers never see half)."""
        path = folder / FACETS_FILE
        tmp = folder / f".{FACETS_FILE}.{os.getpid()}"
        tmp.write_text(self.model_dump_json())
        tmp.replace(path)
        return path


def read_facets(folder: Path) -> CatalogFacets | None:
    """The facets stored with an index version; None when absent or of another recipe."""
    path = folder / FACETS_FILE
    if not path.is_file():
        return None
    try:
        doc = json.loads(path.read_text())
        if doc.get("recipe") != FACETS_RECIPE:
            return None
        return CatalogFacets.model_validate(doc)
    except (OSError, ValueError) as exc:
        log.warning("ignoring unreadable facets %s: %s", path, exc)
        return None


def load_facets(folder: Path, items: Callable[[], Iterable[Item]]) -> CatalogFacets:
    """The facets of the index version in `folder`: the stored ones, else computed from
    `items()` (its item table) with its saved profile's category names."""
    found = read_facets(folder)
    if found is not None:
        return found
    log.info("computing the facets of %s (not stored with the index)", folder.name)
    return build_facets(items(), read_profile(folder))


def build_facets(items: Iterable[Item], profile: CatalogProfile | None = None) -> CatalogFacets:
    """One pass over the items. Categories are the listed (or spec-sheet) ones; in a catalog
    that names none for most items, the rest get the kind the profile reads from their
    titles ("kurta"), which in a catalog that does list categories is often a colour or a
    size, so there it is not used."""
    shops: Counter[str] = Counter()
    brands: Counter[str] = Counter()
    currencies: Counter[str] = Counter()
    stock: Counter[str] = Counter()
    attributes: defaultdict[str, Counter[str]] = defaultdict(Counter)
    named: list[tuple[str | None, Item]] = []
    rated = False
    for item in items:
        shops[item.platform] += 1
        stock[item.availability] += 1
        if item.brand:
            brands[item.brand] += 1
        if item.currency:
            currencies[item.currency.upper()] += 1
        for name, value in item.attributes.items():
            if value.strip():
                attributes[name][value.strip().lower()] += 1
        known = item.known_category
        named.append((known.lower() if known else None, item))
        rated = rated or item.rating is not None
    total = len(named)
    unnamed = sum(1 for category, _ in named if category is None)
    if profile is not None and unnamed * 2 > total:
        named = [(c or profile.category_of(i), i) for c, i in named]
    categories = Counter(c for c, _ in named if c)
    priced = [(c, i) for c, i in named if i.price_usd is not None]
    display = currencies.most_common(1)[0][0] if currencies else "USD"
    by_category, by_category_usd = _category_prices(priced, display)
    ranked = _ranked(categories)
    return CatalogFacets(
        items=total,
        display_currency=display,
        currencies=_ranked(currencies),
        shops=_ranked(shops),
        categories=[
            CategoryFacet(
                value=v.value,
                count=v.count,
                prices=_stats(by_category.get(v.value, []), display),
                prices_usd=_stats(by_category_usd.get(v.value, []), "USD"),
            )
            for v in ranked[:_KEPT]
        ],
        categories_total=len(categories),
        brands=_ranked(brands)[:_KEPT],
        brands_total=len(brands),
        attributes=[
            AttributeFacet(
                name=name,
                count=values.total(),
                distinct=len(values),
                values=_ranked(values)[:_KEPT],
            )
            for name, values in sorted(attributes.items(), key=lambda kv: (-kv[1].total(), kv[0]))
        ],
        prices=_stats([p for values in by_category.values() for p in values], display),
        prices_usd=_stats([i.price_usd for _, i in priced if i.price_usd is not None], "USD"),
        has_ratings=rated,
        has_availability=any(state != "unknown" for state in stock),
        availability=_ranked(stock),
    )


def _ranked(counts: Counter[str]) -> list[FacetValue]:
    return [
        FacetValue(value=v, count=n) for v, n in sorted(counts.items(), key=lambda x: (-x[1], x[0]))
    ]


def _category_prices(
    priced: list[tuple[str | None, Item]], display: str
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Prices per category in the display currency (the listed price when the item is listed
    in it, else its dollar price converted) and in USD; "" holds the uncategorised."""
    rate = usd_rates().get(display)
    shown: defaultdict[str, list[float]] = defaultdict(list)
    usd: defaultdict[str, list[float]] = defaultdict(list)
    for category, item in priced:
        assert item.price_usd is not None
        key = category or ""
        usd[key].append(item.price_usd)
        if item.price is not None and (item.currency or "").upper() == display:
            shown[key].append(item.price)
        elif rate:
            shown[key].append(round(item.price_usd / rate, 2))
    return dict(shown), dict(usd)


def _stats(values: list[float], currency: str) -> PriceStats | None:
    if not values:
        return None
    values = sorted(values)
    n = len(values)

    def at(q: float) -> float:
        return round(values[min(n - 1, int(q * (n - 1) + 0.5))], 2)

    return PriceStats(
        currency=currency,
        count=n,
        min=round(values[0], 2),
        p25=at(0.25),
        median=at(0.5),
        p75=at(0.75),
        max=round(values[-1], 2),
    )
