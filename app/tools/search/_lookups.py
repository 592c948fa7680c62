"""The catalog look-ups of item_search: when the hits shown are few of the asked product, or
state none of some must-haves, the items the catalog files as the product (shelf) or whose
spec sheets state the must-haves are looked up directly and put first; when none names the
asked product, every item saying its noun is checked for one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from app.catalog.item import Item
from app.config.params.item_search import ITEM_SEARCH_SHEET_LIMIT, ITEM_SEARCH_SHELF_LIMIT
from app.recall.search_index import SearchIndex
from app.tools.search._carried import CarriedLookup
from app.tools.search._postfilters import ItemMatchers, apply_postfilters, dedupe
from app.tools.search._relevance import RelevanceScorer, ScoredHit, Scoring, on_topic
from app.tools.search._run import SearchRun, timed
from app.tools.search._sheets import SHEET_SOURCE, SheetLookup, lookup_hits, sheet_price_verdict
from app.tools.search._shelves import SHELF_SOURCE, ShelfLookup, needs_shelf
from app.tools.terms import Term

__all__ = ["CatalogLookups", "ahead", "best_score"]


class CatalogLookups:
    """The shelf and spec-sheet look-ups over one index's item table, scored like hits."""

    def __init__(self, index: SearchIndex, scorer: RelevanceScorer) -> None:
        self.index = index
        self.scorer = scorer
        self.sheets = SheetLookup(index.items)
        self.shelves = ShelfLookup(index.items)
        self.carried = CarriedLookup(index.items)
        if index.live is not None:  # items a live upsert adds join the look-ups
            index.live.listen(self.sheets.add)
            index.live.listen(self.shelves.add)
            index.live.listen(self.carried.add)

    def absent(self, product: str | None, request: str) -> str | None:
        """The asked product when no item of the catalog names it (asked once no shown hit
        does): what is shown is something else, and the shop has none."""
        if product is None or self.carried.carries(product, request):
            return None
        return product

    async def by_shelf(
        self, run: SearchRun, kept: list[ScoredHit], product: str, matchers: ItemMatchers
    ) -> list[ScoredHit]:
        """When the product needs it (`needs_shelf`, read on the hits on the topic), put
        first the items whose product type it is (`_evidenced`), nearest to the query first;
        none when nearness cannot be measured."""
        limit = ITEM_SEARCH_SHELF_LIMIT.get()
        shown = [h.item for h in dedupe(on_topic(kept))[0][: run.scope.top_k]]
        if limit <= 0 or not needs_shelf(shown, product, run.scope.query):
            return kept
        shelf = self.shelves.shelved(product, run.effective.filters())
        if not shelf:
            return kept
        with timed(run.steps, "by_shelf"):
            scoring = await self._score(run, kept, shelf, SHELF_SOURCE)
        if scoring.degraded:
            run.complete = False
            return kept
        nearest = sorted(scoring.hits, key=lambda h: -(h.relevance or 0.0))[:limit]
        listed = _evidenced(nearest, matchers)
        if not listed:
            return kept
        run.notes.append(f"put first {len(listed)} item(s) the catalog files as {product}")
        return ahead(listed, kept)

    async def by_sheet(
        self,
        run: SearchRun,
        kept: list[ScoredHit],
        product: str,
        musts: Sequence[Term],
        unmet: Sequence[Term],
        matchers: ItemMatchers,
    ) -> list[ScoredHit]:
        """When no hit states some must-haves (`unmet`), put first the items of the product
        whose spec sheets list, or titles state the amounts of, the most must-haves, looked up
        under the same filters (`_evidenced`)."""
        filters = run.effective.filters()
        limit = ITEM_SEARCH_SHEET_LIMIT.get()
        found = self.sheets.stating(musts, product, run.scope.query, filters, limit=limit)
        shown = {h.item_id for h in kept[: run.scope.top_k]}
        found = [item for item in found if item.item_id not in shown]
        if not found:
            run.sheet_verdict = sheet_price_verdict(
                self.sheets, unmet, product, run.effective, matchers, limit=limit
            )
            return kept
        with timed(run.steps, "by_sheet"):
            scoring = await self._score(run, kept, found, SHEET_SOURCE)
        run.complete = run.complete and not scoring.degraded
        listed = _evidenced(scoring.hits, matchers)
        if not listed:
            return kept
        said = " or ".join(t.text for t in unmet)
        run.notes.append(
            f"put first {len(listed)} {product} item(s) whose spec sheet or title states {said}"
        )
        return ahead(listed, kept)

    async def _score(
        self, run: SearchRun, kept: list[ScoredHit], items: Sequence[Item], source: str
    ) -> Scoring:
        """Looked-up items scored as hits of their own source, each at the best recalled
        hit's score, since they go first."""
        hits = lookup_hits(items, best_score(kept), source)
        return await self.scorer.score(run.scope.query, hits, self.index.items)


def _evidenced(hits: Sequence[ScoredHit], matchers: ItemMatchers) -> list[ScoredHit]:
    """Looked-up hits that pass the post-filters; what the catalog says of them (a sheet
    feature, a product type) is evidence as shared words are, so each faces the whole
    lexical relevance floor (a look-up is no recall that found something)."""
    listed, _ = apply_postfilters([replace(h, lexical=True) for h in hits], matchers)
    return on_topic(listed)


def best_score(hits: Sequence[ScoredHit]) -> float:
    """The best recalled score, which the hits put first are given (1 when none)."""
    return max((h.hit.score for h in hits), default=1.0)


def ahead(first: list[ScoredHit], kept: list[ScoredHit]) -> list[ScoredHit]:
    """`first`, then the kept hits not among them."""
    ids = {h.item_id for h in first}
    return first + [h for h in kept if h.item_id not in ids]
