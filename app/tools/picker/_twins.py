"""Listings of one product: two titles with most of their words in common, or one brand at
one price in two shops, unless their model codes or their amounts of a unit differ. Stage 2
leaves out the twins of picks shown before, stage 6 folds them into the listing it keeps."""

from __future__ import annotations

from app.catalog.item import Item
from app.catalog.matching_codes import different_models
from app.recall.filters import brand_key
from app.tools.terms import find_specs, jaccard


def same_product(a: Item, b: Item, *, threshold: float) -> bool:
    """Two listings of one product: title-token Jaccard at least `threshold`, or the same
    known brand at the same known price in two shops (one shop sells many of a vendor's
    products at one price point: a $50 shirt and a $50 jacket); never two that name
    different model codes or state different amounts of one unit (one catalog's title
    template fits many models and configurations: "16 GB" and "8 GB" ThinkBooks)."""
    if different_models(a, b) or _different_specs(a.title, b.title):
        return False
    if jaccard(a.title, b.title) >= threshold:
        return True
    brand_a, brand_b = brand_key(a.brand), brand_key(b.brand)
    price_a, price_b = a.price_usd, b.price_usd
    return (
        a.platform != b.platform
        and brand_a is not None
        and brand_a == brand_b
        and price_a is not None
        and price_b is not None
        and abs(price_a - price_b) < 0.005
    )


def _different_specs(a: str, b: str) -> bool:
    """Whether two titles state different amounts in a unit both of them state."""
    specs_a: dict[str, set[float]] = {}
    specs_b: dict[str, set[float]] = {}
    for specs, title in ((specs_a, a), (specs_b, b)):
        for spec in find_specs(title):
            value, unit = spec.key
            specs.setdefault(unit, set()).add(value)
    return any(specs_a[unit] != specs_b[unit] for unit in specs_a.keys() & specs_b.keys())
