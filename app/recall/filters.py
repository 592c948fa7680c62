"""Payload filters shared by every recall source, the stores and the search cache."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from app.catalog.item import PLATFORMS
from app.errors import InvalidRequest

__all__ = ["SearchFilters", "brand_key"]


def brand_key(brand: str | None) -> str | None:
    """The form brands are compared in: lower-cased, inner whitespace collapsed."""
    if brand is None:
        return None
    key = " ".join(brand.lower().split())
    return key or None


@dataclass(frozen=True)
class SearchFilters:
    """Hard filters applied inside the stores; an empty field means "no constraint".

    An item whose filtered field is unknown (no price, no rating) does not pass a filter
    on that field: we cannot promise it fits.
    """

    platforms: tuple[str, ...] = ()
    price_min: float | None = None
    price_max: float | None = None
    rating_min: float | None = None
    rating_max: float | None = None
    brands_in: tuple[str, ...] = ()
    brands_out: tuple[str, ...] = ()

    @classmethod
    def build(
        cls,
        *,
        platforms: Iterable[str] | str | None = None,
        price_min: float | None = None,
        price_max: float | None = None,
        rating_min: float | None = None,
        rating_max: float | None = None,
        brands_in: Iterable[str] = (),
        brands_out: Iterable[str] = (),
    ) -> SearchFilters:
        """Validate and normalise filters: sorted platforms, brand keys, sane ranges."""
        if isinstance(platforms, str):
            platforms = [platforms]
        plats = tuple(sorted({p.strip().lower() for p in platforms or () if p.strip()}))
        if "all" in plats:
            plats = ()
        unknown = [p for p in plats if p not in PLATFORMS]
        if unknown:
            raise InvalidRequest(f"unknown platform(s) {unknown}; known: {list(PLATFORMS)}")
        for lo, hi, what in ((price_min, price_max, "price"), (rating_min, rating_max, "rating")):
            if lo is not None and hi is not None and lo > hi:
                raise InvalidRequest(f"{what} range is empty: min {lo} > max {hi}")
            if (lo is not None and lo < 0) or (hi is not None and hi < 0):
                raise InvalidRequest(f"{what} bounds must not be negative")
        return cls(
            platforms=plats,
            price_min=price_min,
            price_max=price_max,
            rating_min=rating_min,
            rating_max=rating_max,
            brands_in=_brand_keys(brands_in),
            brands_out=_brand_keys(brands_out),
        )

    def is_empty(self) -> bool:
        """True when nothing is filtered."""
        return self == SearchFilters()

    def without(self, *fields: str) -> SearchFilters:
        """A copy with the named constraints lifted (used by relaxed and probe recalls)."""
        empty = SearchFilters()
        return SearchFilters(
            **{
                name: getattr(empty if name in fields else self, name)
                for name in self.__dataclass_fields__
            }
        )

    def key(self) -> str:
        """A canonical text form for cache keys; brand parts only when set."""
        parts = [
            "p=" + ",".join(self.platforms),
            f"price={_num(self.price_min)}..{_num(self.price_max)}",
            f"rating={_num(self.rating_min)}..{_num(self.rating_max)}",
        ]
        if self.brands_in:
            parts.append("bin=" + ",".join(self.brands_in))
        if self.brands_out:
            parts.append("bout=" + ",".join(self.brands_out))
        return "|".join(parts)

    def matches(self, payload: Mapping[str, Any]) -> bool:
        """Whether an item payload passes: the reference semantics every store must follow."""
        if self.platforms and payload.get("platform") not in self.platforms:
            return False
        if not _in_range(payload.get("price_usd"), self.price_min, self.price_max):
            return False
        if not _in_range(payload.get("rating"), self.rating_min, self.rating_max):
            return False
        brand = payload.get("brand_key")
        if self.brands_in and brand not in self.brands_in:
            return False
        return not (self.brands_out and brand in self.brands_out)


def _brand_keys(brands: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted({k for b in brands if (k := brand_key(b))}))


def _num(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def _in_range(value: object, lo: float | None, hi: float | None) -> bool:
    if lo is None and hi is None:
        return True
    if not isinstance(value, int | float):
        return False
    return (lo is None or value >= lo) and (hi is None or value <= hi)
