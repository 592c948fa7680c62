"""Hits of the asked product go first: a shopper who asks for a "laptop" is shown laptops
before the sleeves and chargers made for one, however close their text reads to the query
(measured on the extended Icecat judgments, docs/evaluation.md)."""

from __future__ import annotations

from collections.abc import Sequence

from app.tools.search._postfilters import squash
from app.tools.search._product import names_product
from app.tools.search._relevance import ScoredHit

__all__ = ["named_first"]


def named_first(
    hits: Sequence[ScoredHit], product: str, request: str, window: int
) -> list[ScoredHit]:
    """When the request is the product's name and nothing more ("laptop", "micro sd card"),
    the first `window` hits that name `product` (`names_product`) go first, each group in its
    own order, the hits past the window where they are. Nothing moves for a request that
    says more ("pro controller" read as a controller, "d battery" as a battery: the product
    leaves out what it asks), with a window of 0, or when no hit in the window names it."""
    if window <= 0 or squash(product) != squash(request):
        return list(hits)
    head, tail = list(hits[:window]), list(hits[window:])
    named = [h for h in head if names_product(h.item, product, request)]
    if not named or len(named) == len(head):
        return list(hits)
    ids = {h.item_id for h in named}
    return named + [h for h in head if h.item_id not in ids] + tail
