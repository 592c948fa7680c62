"""item_search's ordering by product: within the window, hits that are the asked product go
before those that are only made for it, each group in its own order; nothing moves when
none is the product or the window is 0."""

from __future__ import annotations

from app.catalog.item import Item
from app.recall.fusion import FusedHit
from app.tools.search._named import named_first
from app.tools.search._product import names_product
from app.tools.search._relevance import ScoredHit

TITLES = [
    "Targus Sleeve for 15.6in laptops",
    "Lenovo IdeaPad 3 laptop 15.6in",
    "HP laptop charger 65W",
    "Acer Aspire 5 laptop",
]


def hit(title: str, n: int) -> ScoredHit:
    it = Item(item_id=f"icecat:{n}", platform="icecat", title=title, source="icecat")
    return ScoredHit(FusedHit(it.item_id, 1.0, {}, n), it, 0.5, True)


def ids(hits: list[ScoredHit]) -> list[str]:
    return [h.item_id for h in hits]


def test_the_product_goes_before_what_is_made_for_it_each_group_in_order() -> None:
    hits = [hit(t, n) for n, t in enumerate(TITLES)]
    named = [h.item_id for h in hits if names_product(h.item, "laptop", "laptop")]
    assert named == ["icecat:1", "icecat:3"]
    ordered = named_first(hits, "laptop", "laptop", window=len(hits))
    assert ids(ordered) == [*named, "icecat:0", "icecat:2"]


def test_only_the_window_is_reordered() -> None:
    hits = [hit(t, n) for n, t in enumerate(TITLES)]
    ordered = named_first(hits, "laptop", "laptop", window=2)
    assert ids(ordered) == ["icecat:1", "icecat:0", "icecat:2", "icecat:3"]


def test_no_window_or_no_hit_of_the_product_keeps_the_order() -> None:
    hits = [hit(t, n) for n, t in enumerate(TITLES)]
    assert named_first(hits, "laptop", "laptop", window=0) == hits
    assert named_first(hits, "printer", "printer", window=4) == hits


def test_a_request_that_says_more_than_the_product_keeps_the_order() -> None:
    hits = [hit(t, n) for n, t in enumerate(TITLES)]
    assert named_first(hits, "laptop", "refurbished laptop", window=4) == hits
