"""Merges offers that are the same listing twice on one platform, keeping labels resolvable.

Two items of one platform with the same normalised title, brand and price (and model number,
where the source gives one) are one offer to a shopper; the first is kept and every dropped
duplicate's id is aliased to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from app.catalog.item import Item, MatchLabel
from app.catalog.text import match_key

__all__ = ["DedupeKey", "Deduped", "dedupe_items", "dedupe_key", "remap_matches"]


class Deduped(NamedTuple):
    """The surviving items, in input order, and dropped id -> surviving id."""

    items: list[Item]
    aliases: dict[str, str]


DedupeKey = tuple[str, str, str, float | None, str]


def dedupe_key(item: Item) -> DedupeKey:
    """What makes two items the same offer: platform, title, brand, price, model number.

    The model number keeps apart listings that share a title but not a product (ditto's
    "Dell … Lid - Sangeet" in 14", 15" and 17"); merging those would contradict their labels.
    """
    price = None if item.price_usd is None else round(item.price_usd, 2)
    return (
        item.platform,
        match_key(item.title),
        match_key(item.brand or ""),
        price,
        match_key(item.model_number or ""),
    )


def dedupe_items(items: Iterable[Item]) -> Deduped:
    """Keep the first item of each `dedupe_key`; alias the ids of the later ones to it.

    An item whose id was already kept (the same record loaded twice) is dropped without alias.
    """
    survivors: dict[DedupeKey, Item] = {}
    kept_ids: set[str] = set()
    aliases: dict[str, str] = {}
    for item in items:
        if item.item_id in kept_ids or item.item_id in aliases:
            continue
        key = dedupe_key(item)
        first = survivors.get(key)
        if first is None:
            survivors[key] = item
            kept_ids.add(item.item_id)
        else:
            aliases[item.item_id] = first.item_id
    return Deduped(list(survivors.values()), aliases)


def remap_matches(matches: Iterable[MatchLabel], aliases: Mapping[str, str]) -> list[MatchLabel]:
    """Labels with every dropped id replaced by the id of the item that survived dedupe."""
    remapped: list[MatchLabel] = []
    for label in matches:
        left = aliases.get(label.left_id, label.left_id)
        right = aliases.get(label.right_id, label.right_id)
        if (left, right) != (label.left_id, label.right_id):
            label = label.model_copy(update={"left_id": left, "right_id": right})
        remapped.append(label)
    return remapped
