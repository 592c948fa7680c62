"""The catalog profile: the vocabulary a catalog teaches, computed at index time and saved
with the index. Categories (from category paths, else the head nouns titles end in) with
their singular and plural forms, brands, attribute names and values, units written in
titles, price ranges per category, and which fields the catalog fills at all."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.catalog.currency import usd_rates
from app.catalog.item import Item
from app.catalog.product_nouns import head, is_broad, singular
from app.catalog.profile_kinds import (
    MIN_HEAD_SHARE,
    PRICE_BAND,
    CatalogVocabulary,
    KindFilter,
    said_words,
    title_head,
)
from app.language import lexicon

__all__ = [
    "PROFILE_RECIPE",
    "CatalogProfile",
    "CategoryEntry",
    "PriceRange",
    "build_profile",
    "plural",
    "read_profile",
]

PROFILE_FILE = "profile.json"
PROFILE_RECIPE = "profile:v2"
"""Part of the index version: a profile computed differently rebuilds (vectors reused)."""
_MIN_HEAD_TITLES = 5
_MAX_VALUES = 100
_UNIT = re.compile(
    r"\b\d+(?:[.,]\d+)?\s?(" + lexicon.alternation("profile_units") + r")\b",
    re.IGNORECASE,
)


def plural(word: str) -> str:
    """A plain English plural of a product noun ("kurta" -> "kurtas", "dress" -> "dresses")."""
    if "-" in word:
        stem, _, last = word.rpartition("-")
        return f"{stem}-{plural(last)}"
    if not word.isalpha() or singular(word) != word:
        return word
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    return word + "s"


class PriceRange(BaseModel):
    """Quartiles of a category's prices in US dollars: what "cheap" means there."""

    model_config = ConfigDict(frozen=True)

    count: int
    min: float
    p25: float
    median: float
    p75: float
    max: float


class CategoryEntry(BaseModel):
    """One category: how many items, its noun forms, its price range, and whether the catalog
    lists it or it is the head noun of titles (None: a profile saved before this was kept)."""

    model_config = ConfigDict(frozen=True)

    count: int
    singular: str
    plural: str
    prices: PriceRange | None = None
    source: Literal["listed", "title"] | None = None


class CatalogProfile(BaseModel):
    """What the planner, picker and tool descriptions may know of this catalog."""

    model_config = ConfigDict(frozen=True)

    items: int
    shops: dict[str, int]
    categories: dict[str, CategoryEntry]
    brands: dict[str, int]
    attributes: dict[str, dict[str, int]]
    units: dict[str, int]
    has_ratings: bool
    has_availability: bool
    currencies: dict[str, int] = Field(default_factory=dict)

    def category_of(self, item: Item) -> str | None:
        """The profile's category of an item: its listed one, else its title's head noun."""
        return _category(item, self.categories)

    def kind_filter(self) -> KindFilter:
        """What this catalog says is no kind: its brands, attribute values and title units."""
        return KindFilter.of(self.brands, self.attributes, self.units)

    def vocabulary(self) -> CatalogVocabulary:
        """The product nouns and brands this catalog adds to the planner's: the head noun of
        each listed category that names one type, and each title kind, both forms of each,
        passed through the kind filter again. A profile saved before categories said their
        source gives only the heads of its many-word (listed) names: its title heads were
        never filtered."""
        keep = self.kind_filter()
        kinds: set[str] = set()
        for name, entry in self.categories.items():
            if entry.source is None and " " not in name:
                continue
            listed = entry.source != "title"
            noun = (None if is_broad(name) else head(name)) if listed else entry.singular
            if noun and keep.is_kind(noun):
                kinds.update({noun, plural(noun)})
        return CatalogVocabulary(
            kinds=frozenset(kinds),
            brands=frozenset(b.lower() for b in self.brands),
            attribute_values=keep.attribute_values,
            currency=self.main_currency(),
            price_bands=self._price_bands(),
        )

    def _price_bands(self) -> dict[str, tuple[float, float]]:
        """Per singular head noun, the band around the quartiles of its largest priced
        category (`PRICE_BAND`): where a number said of that product may be a price."""
        largest: dict[str, tuple[int, PriceRange]] = {}
        for name, entry in self.categories.items():
            noun = entry.singular if entry.source == "title" else head(name)
            if noun is None or entry.prices is None:
                continue
            noun = singular(noun)
            if noun not in largest or entry.count > largest[noun][0]:
                largest[noun] = (entry.count, entry.prices)
        return {
            noun: (prices.p25 / PRICE_BAND, prices.p75 * PRICE_BAND)
            for noun, (_, prices) in largest.items()
        }

    def main_currency(self) -> str:
        """The currency most items are priced in, when the rate table knows it; else USD."""
        known = [code for code in self.currencies if code.upper() in usd_rates()]
        return max(known, key=lambda code: self.currencies[code]).upper() if known else "USD"

    def save(self, folder: Path) -> Path:
        path = folder / PROFILE_FILE
        path.write_text(self.model_dump_json(indent=1))
        return path


def read_profile(folder: Path) -> CatalogProfile | None:
    """The profile saved with an index version, None for an index built without one."""
    path = folder / PROFILE_FILE
    return CatalogProfile.model_validate_json(path.read_text()) if path.is_file() else None


def build_profile(items: Iterable[Item]) -> CatalogProfile:
    """One pass over the items, then the title head nouns seen often enough to be kinds
    that the kind filter (lexicon, brands, attribute values, units) lets through."""
    listed: Counter[str] = Counter()
    heads: Counter[str] = Counter()
    said: Counter[str] = Counter()
    brands: Counter[str] = Counter()
    shops: Counter[str] = Counter()
    currencies: Counter[str] = Counter()
    units: Counter[str] = Counter()
    attributes: defaultdict[str, Counter[str]] = defaultdict(Counter)
    rated = stocked = False
    kept: list[Item] = []
    for item in items:
        kept.append(item)
        shops[item.platform] += 1
        if item.category:
            listed[item.category.lower()] += 1
        else:
            said.update(said_words(item.title))
            if kind := title_head(item.title):
                heads[kind] += 1
        if item.brand:
            brands[item.brand] += 1
        if item.currency:
            currencies[item.currency] += 1
        for name, value in item.attributes.items():
            attributes[name][value.lower()] += 1
        units.update(m.group(1).lower() for m in _UNIT.finditer(item.title))
        rated = rated or item.rating is not None
        stocked = stocked or item.availability != "unknown"
    keep = KindFilter.of(brands, attributes, units)
    names = dict(listed)
    names.update(
        {
            h: n
            for h, n in heads.items()
            if n >= _MIN_HEAD_TITLES
            and n >= MIN_HEAD_SHARE * said[h]
            and h not in names
            and keep.is_kind(h)
        }
    )
    prices: defaultdict[str, list[float]] = defaultdict(list)
    for item in kept:
        category = _category(item, names)
        if category is not None and item.price_usd is not None:
            prices[category].append(item.price_usd)
    return CatalogProfile(
        items=len(kept),
        shops=dict(shops.most_common()),
        categories={
            name: CategoryEntry(
                count=count,
                singular=singular(name),
                plural=plural(singular(name)),
                prices=_range(prices.get(name, [])),
                source="listed" if name in listed else "title",
            )
            for name, count in sorted(names.items(), key=lambda kv: (-kv[1], kv[0]))
        },
        brands=dict(brands.most_common()),
        attributes={
            name: dict(values.most_common(_MAX_VALUES))
            for name, values in sorted(attributes.items())
        },
        units=dict(units.most_common()),
        has_ratings=rated,
        has_availability=stocked,
        currencies=dict(currencies.most_common()),
    )


def _category(item: Item, names: Mapping[str, object]) -> str | None:
    if item.category:
        return item.category.lower()
    kind = title_head(item.title)
    return kind if kind in names else None


def _range(values: list[float]) -> PriceRange | None:
    if not values:
        return None
    values.sort()
    n = len(values)

    def at(q: float) -> float:
        return round(values[min(n - 1, int(q * (n - 1) + 0.5))], 2)

    return PriceRange(
        count=n, min=values[0], p25=at(0.25), median=at(0.5), p75=at(0.75), max=values[-1]
    )
