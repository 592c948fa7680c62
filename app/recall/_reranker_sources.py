"""The raw material of reranker training drawn from the catalog itself: items whose category
says what the product is. A catalog that lists categories is read by those; one that lists
none by the kinds its titles name (the catalog profile's head nouns)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from app.catalog.item import Item
from app.catalog.labels import EvaluationSet
from app.catalog.product_nouns import head, is_broad, names_as_product
from app.catalog.profile import build_profile

CategoryOf = Callable[[Item], str | None]


@dataclass(frozen=True)
class TypedItem:
    """A catalog item whose category we trust to say what the product is."""

    item_id: str
    title: str
    category: str
    brand: str | None
    source: str


def category_reader(items: Iterable[Item]) -> CategoryOf:
    """The listed category when the catalog lists any, else the profile's title kind."""
    catalog = list(items)
    if any(item.category for item in catalog):
        return lambda item: item.category
    return build_profile(catalog).category_of


def source_family(item: Item) -> str:
    """The item's source without its variant ("feed-eu-2" -> "feed"): pair reports."""
    return item.source.split("-", 1)[0].split(":", 1)[0]


def typed_items(
    items: Iterable[Item],
    evaluation: EvaluationSet,
    *,
    min_items: int,
    category_of: CategoryOf,
) -> list[TypedItem]:
    """Items of narrow categories whose title names the category's product as itself.

    Listing categories are noisy ("printers" holding glue and toner), so every item must
    name its category's head noun outside an accessory phrase. Categories under `min_items`
    are dropped.
    """
    kept: list[TypedItem] = []
    for item in items:
        category = (category_of(item) or "").strip().lower()
        if not category or is_broad(category) or item.item_id in evaluation.item_ids:
            continue
        word = head(category)
        if word is None or not names_as_product(item.title, word):
            continue
        kept.append(TypedItem(item.item_id, item.title, category, item.brand, source_family(item)))
    sizes = Counter(t.category for t in kept)
    return [t for t in kept if sizes[t.category] >= min_items]
