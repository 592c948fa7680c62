"""Hits of the asked product go first: a shopper who asks for a "laptop" is shown laptops
before the sleeves and chargers made for one, however close their text reads to the query
(measured on the extended Icecat judgments, docs/evaluation.md)."""

from __future__ import annotations

from collections.abc import Sequence

from app.tools._search_product import names_product
from app.tools._search_relevance import ScoredHit

__all__ = ["named_first"]


def named_first(
    hits: Sequence[ScoredHit], product: str, request: str, window: int
) -> list[ScoredHit]:
    """Among the first `window` hits, those that name `product` (`names_product`) first, each
    group in its own order; the hits past the window stay where they are. Nothing moves with
    a window of 0 or when no hit in it names the product."""
    head, tail = list(hits[:window]), list(hits[window:])
    named = [h for h in head if names_product(h.item, product, request)]
    if not named or len(named) == len(head):
        return list(hits)
    ids = {h.item_id for h in named}
    return named + [h for h in head if h.item_id not in ids] + tail
