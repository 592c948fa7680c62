"""item_search's ordering by model code: hits naming the asked code go first, each group in
its own order, and nothing moves when no hit names it."""

from __future__ import annotations

from app.catalog.item import Item
from app.catalog.model_codes import query_codes
from app.recall.fusion import FusedHit
from app.tools.search._codes import codes_first
from app.tools.search._relevance import ScoredHit


def hit(title: str, n: int) -> ScoredHit:
    it = Item(item_id=f"icecat:{n}", platform="icecat", title=title, source="icecat")
    return ScoredHit(FusedHit(it.item_id, 1.0, {}, n), it, 0.5, True)


def test_hits_naming_the_code_go_first_each_group_keeping_its_order() -> None:
    hits = [
        hit("RTX 2070 notebook", 1),
        hit("RTX 2060 notebook", 2),
        hit("RTX 2080 card", 3),
        hit("RTX 2060 card", 4),
    ]
    ordered = codes_first(hits, query_codes("rtx 2060"))
    assert [h.item_id for h in ordered] == ["icecat:2", "icecat:4", "icecat:1", "icecat:3"]


def test_hits_naming_more_of_the_codes_go_before_those_naming_fewer() -> None:
    hits = [hit("ASUS PN41 Celeron N5100", 1), hit("ASUS PN41 Celeron N4500", 2)]
    ordered = codes_first(hits, query_codes("asus pn41 celeron n4500"))
    assert [h.item_id for h in ordered] == ["icecat:2", "icecat:1"]


def test_no_code_or_no_hit_naming_one_keeps_the_order() -> None:
    hits = [hit("RTX 2070", 1), hit("RTX 2080", 2)]
    assert codes_first(hits, query_codes("rtx 2060")) == hits
    assert codes_first(hits, query_codes("graphics card")) == hits
