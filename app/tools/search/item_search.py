"""item_search: hybrid recall under the session's constraints, deterministic post-filters,
and the widening steps (relaxed search, probe, query expansion) that let the agent tell
"nothing like that exists" from "your filters hide it". Kept hits become slot candidates."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import ClassVar

from pydantic import BaseModel

from app.catalog.articles import with_article
from app.catalog.currency import usd
from app.catalog.item import Item
from app.config.params.item_search import (
    ITEM_SEARCH_EXPANSION_MAX_VARIANTS,
    ITEM_SEARCH_MIN_HITS,
    ITEM_SEARCH_NAMED_FIRST_WINDOW,
    ITEM_SEARCH_POOL,
    ITEM_SEARCH_PROBE_LIMIT,
    ITEM_SEARCH_RELEVANCE_WEIGHT,
    ITEM_SEARCH_RELEVANCE_WINDOW,
)
from app.config.params.recall import RRF_K
from app.config.params.search import DEFAULT_TOP_K, MAX_TOP_K
from app.errors import DependencyDown, InvalidRequest
from app.recall.filters import SearchFilters
from app.recall.fusion import rrf
from app.recall.pipeline import RecallPipeline
from app.recall.retriever import Hit
from app.recall.search_index import SearchIndex
from app.recall.trace import recall_trace
from app.tools.base import ToolContext
from app.tools.candidates import DEFAULT_SLOT
from app.tools.plan import catalog_alias
from app.tools.search._args import (
    ItemSearchArgs,
    SearchScope,
    planned_category,
    resolve_scope,
    stated_terms,
)
from app.tools.search._codes import codes_ahead
from app.tools.search._expansion import expansion_variants, listed_as_queries, listed_hits
from app.tools.search._lookups import CatalogLookups, ahead, best_score
from app.tools.search._memo import Finished, SearchMemo, register, replay
from app.tools.search._named import named_first
from app.tools.search._ordering import RelevanceOrder
from app.tools.search._postfilters import ItemMatchers, apply_postfilters, dedupe
from app.tools.search._probe import ProbeFindings, explain_blocks
from app.tools.search._product import names_product, none_named, searched_product
from app.tools.search._relevance import (
    EmbedderQueryVectors,
    QueryVectors,
    RelevanceFloor,
    RelevanceScorer,
    ScoredHit,
    on_topic,
)
from app.tools.search._result import ItemSearchResult
from app.tools.search._run import Pass, SearchRun, build_result, ms_since, timed
from app.tools.search._sheets import unstated
from app.tools.terms import Term

__all__ = ["ItemSearchArgs", "ItemSearchResult", "ItemSearchTool", "RelevanceFloor"]

log = logging.getLogger(__name__)

DESCRIPTION = (
    "Search the product catalog (every shop it holds; the system message names them) for "
    "items matching a short product query such as 'usb-c hub 4k' or 'waterproof hiking boots'. "
    "Put budget, brand, rating and platform in their own fields, not in the query. The "
    "shopper's budget, platform scope and ruled-out terms from the session plan apply "
    "automatically. Returns one line per item: [item_id] title | brand | price | platform; "
    "use those item ids in later tools. When filters hide matching items the result says "
    "which and why (e.g. all above budget, with the cheapest price), so tell the shopper "
    "instead of claiming nothing exists. min_rating filters only where the catalog lists "
    "ratings (the system message says whether it does); otherwise it is relaxed."
)


class ItemSearchTool:
    """The item_search tool over an opened index and a recall pipeline; safe to share."""

    name: ClassVar[str] = "item_search"
    description: ClassVar[str] = DESCRIPTION
    args_model: ClassVar[type[BaseModel]] = ItemSearchArgs
    concurrency_safe: ClassVar[bool] = True
    terminal: ClassVar[bool] = False

    def __init__(
        self,
        index: SearchIndex,
        pipeline: RecallPipeline,
        *,
        query_vectors: QueryVectors | None = None,
        relevance: RelevanceOrder | None = None,
    ) -> None:
        self.index = index
        self.relevance = relevance or RelevanceOrder(None, "no relevance model given")
        self.pipeline = pipeline
        vectors = query_vectors or EmbedderQueryVectors(index.embedder)
        self.scorer = RelevanceScorer(index.store, index.collection, vectors)
        self.lookups = CatalogLookups(index, self.scorer)
        self.memo = SearchMemo(lambda: index.cache_version)

    async def run(self, args: ItemSearchArgs, ctx: ToolContext) -> ItemSearchResult:
        """Search, filter, widen when thin, register the candidates of the slot, report; a
        repeat of a complete search is answered from the memo."""
        started = time.perf_counter()
        await self.index.refresh_live()
        scope = resolve_scope(
            args, ctx.plan, default_top_k=DEFAULT_TOP_K.get(), max_top_k=MAX_TOP_K.get()
        )
        shops = self.index.manifest.platforms
        unknown = [p for p in scope.platforms if p not in shops]
        if unknown:
            raise InvalidRequest(
                f"no shop {', '.join(unknown)} in this catalog; it has {', '.join(shops)}"
            )
        musts = stated_terms(ctx.plan) if scope.slot == DEFAULT_SLOT else ()
        category = planned_category(ctx.plan, scope.slot)
        product = searched_product(scope.query, ctx.plan, category, args.product)
        scope = replace(scope, product=product)
        key = self.memo.key(scope, [t.text for t in musts], category)
        finished = self.memo.get(key)
        if finished is not None:
            return replay(ctx, finished, started)
        pool = max(scope.top_k, ITEM_SEARCH_POOL.get())
        run = SearchRun(scope.without_near_floor())
        with recall_trace() as trace:
            main, chosen, kept, duplicates = await self._gather(run, pool, musts, product)
            run.cache = trace.cache_levels[0] if trace.cache_levels else None
            if (floor := scope.near_floor) is not None:
                kept = await self._near_first(run, scope, floor, kept, pool, musts, product)
            matchers = ItemMatchers(run.effective)
            run.hits = kept[: scope.top_k]
            found = _shown(run.hits, scope.top_k)
            unnamed = none_named(found, product, scope.query)
            run.absent = self.lookups.absent(product, scope.query) if unnamed else None
            if run.effective.has_hard_filters and (len(found) < scope.top_k or unnamed):
                with timed(run.steps, "probe"):
                    run.findings = await self._probe(
                        run, matchers, run.hit_ids(), product if unnamed else None
                    )
            run.steps.update({k: round(v, 3) for k, v in trace.steps_ms.items()})
        register(ctx, run.effective, kept[:pool])
        run.removed = replace(chosen.removed, duplicates=duplicates)
        if scope.top_k_capped:
            run.notes.append(f"top_k capped at {scope.top_k} (asked {scope.requested_top_k})")
        if scope.floor_set_aside is not None and scope.price_max is not None:
            run.notes.append(
                f"the {usd(scope.floor_set_aside)} price floor is above the "
                f"{usd(scope.price_max)} ceiling, so it was not applied"
            )
        run.notes += sorted({p.degraded for p in (main, chosen) if p.degraded})
        run.steps["total"] = ms_since(started)
        result = build_result(run, chosen.response)
        if run.complete and not any(_partial(p) for p in (main, chosen)):
            self.memo.put(
                key, Finished(result.model_copy(deep=True), run.effective, tuple(kept[:pool]))
            )
        return result

    async def _near_first(
        self,
        run: SearchRun,
        scope: SearchScope,
        floor: float,
        kept: list[ScoredHit],
        pool: int,
        musts: Sequence[Term],
        product: str | None,
    ) -> list[ScoredHit]:
        """The on-topic hits from an approximate price's soft floor up that name the product
        asked, searched the same way, put before those of the search at any price, which
        stays the run: the floor is a preference, never a block the shopper is told of."""
        near = SearchRun(scope)
        _, _, found, _ = await self._gather(near, pool, musts, product)
        named = [
            h for h in on_topic(found) if not product or names_product(h.item, product, scope.query)
        ]
        run.complete = run.complete and near.complete
        run.steps.update({f"near_price_{k}": v for k, v in near.steps.items()})
        run.notes.append(f"the price is approximate: {len(named)} hits from {usd(floor)} up first")
        return dedupe([*named, *kept])[0]

    async def _gather(
        self, run: SearchRun, pool: int, musts: Sequence[Term], product: str | None
    ) -> tuple[Pass, Pass, list[ScoredHit], int]:
        """Recall under the run's scope in force, widen when thin, look up the product's shelf
        and sheets, order, dedupe: the main pass, the pass chosen, the kept hits and the
        duplicates dropped."""
        scope = run.effective
        matchers = ItemMatchers(scope)
        with timed(run.steps, "main_recall"):
            main = await self._pass(scope.query, scope.filters(), pool, matchers)
        chosen = await self._maybe_relax(run, main, pool)
        kept = chosen.kept
        if len(on_topic(kept)) < ITEM_SEARCH_MIN_HITS.get():
            kept = await self._expand(run, kept, pool, matchers)
        if not on_topic(kept) or none_named(_shown(kept, scope.top_k), product, scope.query):
            kept = await self._listed_as(run, kept, product, pool, matchers)
        if product and none_named(_shown(kept, scope.top_k), product, scope.query):
            kept = await self._refocus(run, kept, product, pool, matchers)
        if product:
            kept = await self.lookups.by_shelf(run, kept, product, matchers)
            shown = _shown(kept, scope.top_k)  # a 1TB hard drive states no ssd's "1tb"
            unmet = unstated(musts, [i for i in shown if names_product(i, product, scope.query)])
            if unmet:
                kept = await self.lookups.by_sheet(run, kept, product, musts, unmet, matchers)
        with timed(run.steps, "relevance_order"):
            kept, run.ranking = await self.relevance.apply(
                scope.query,
                kept,
                weight=ITEM_SEARCH_RELEVANCE_WEIGHT.get(),
                window=ITEM_SEARCH_RELEVANCE_WINDOW.get(),
            )
        if product:
            kept = named_first(kept, product, scope.query, ITEM_SEARCH_NAMED_FIRST_WINDOW.get())
        kept, moved = codes_ahead(kept, run.scope.query)
        run.notes += [moved] if moved else []
        kept, duplicates = dedupe(kept)
        return main, chosen, kept, duplicates

    async def _pass(
        self, query: str, filters: SearchFilters, pool: int, matchers: ItemMatchers
    ) -> Pass:
        """Recall `pool` fused hits, score their relevance and apply the post-filters."""
        response = await self.pipeline.run(query, filters, top_k=pool)
        scoring = await self.scorer.score(query, response.hits, self.index.items)
        kept, removed = apply_postfilters(scoring.hits, matchers)
        return Pass(response, kept, removed, scoring.degraded)

    async def _widening_pass(
        self,
        run: SearchRun,
        step: str,
        query: str,
        filters: SearchFilters,
        pool: int,
        matchers: ItemMatchers,
    ) -> Pass | None:
        """A widening recall: a dependency that is down skips it with a note, never fails."""
        try:
            found = await self._pass(query, filters, pool, matchers)
        except DependencyDown as exc:
            log.warning("item_search: %s recall skipped: %s", step, exc)
            run.notes.append(f"{step} recall skipped: {exc}")
            run.complete = False
            return None
        run.complete = run.complete and not _partial(found)
        return found

    async def _widening_passes(
        self, run: SearchRun, step: str, queries: Sequence[str], pool: int, matchers: ItemMatchers
    ) -> list[Pass | None]:
        """Widening recalls of several queries at once under the run's filters, timed as one
        step."""
        filters = run.effective.filters()
        with timed(run.steps, step):
            return list(
                await asyncio.gather(
                    *(self._widening_pass(run, step, q, filters, pool, matchers) for q in queries)
                )
            )

    async def _maybe_relax(self, run: SearchRun, main: Pass, pool: int) -> Pass:
        """With min_rating set and too few hits, search once more without it (budget, brand
        and the relevance floor stay) and keep that result when it has more hits."""
        scope = run.effective
        if scope.min_rating is None or len(on_topic(main.kept)) >= ITEM_SEARCH_MIN_HITS.get():
            return main
        loose = scope.without_rating()
        with timed(run.steps, "relaxed_recall"):
            relaxed = await self._widening_pass(
                run, "relaxed", scope.query, loose.filters(), pool, ItemMatchers(loose)
            )
        if relaxed is None or len(on_topic(relaxed.kept)) <= len(on_topic(main.kept)):
            run.notes.append("searching without min_rating found no more items")
            return main
        run.effective, run.relaxed = loose, True
        return relaxed

    async def _expand(
        self, run: SearchRun, kept: list[ScoredHit], pool: int, matchers: ItemMatchers
    ) -> list[ScoredHit]:
        """Recall rewrites of the query and fuse their kept hits with the main ones (RRF)."""
        limit = ITEM_SEARCH_EXPANSION_MAX_VARIANTS.get()
        variants = expansion_variants(run.scope.query, limit=limit)
        if not variants:
            return kept
        passes = await self._widening_passes(run, "expansion", variants, pool, matchers)
        run.variants = [v for v, p in zip(variants, passes, strict=True) if p is not None]
        runs = {"main": kept}
        runs.update({f"variant{i}": p.kept for i, p in enumerate(passes) if p is not None})
        if len(runs) == 1:
            return kept
        first: dict[str, ScoredHit] = {}
        for hits in runs.values():
            for hit in hits:
                first.setdefault(hit.item_id, hit)
        fused = rrf(
            {name: [Hit(h.item_id, h.hit.score) for h in hits] for name, hits in runs.items()},
            k=RRF_K.get(),
        )
        return [first[f.item_id] for f in fused]

    async def _listed_as(
        self,
        run: SearchRun,
        kept: list[ScoredHit],
        product: str | None,
        pool: int,
        matchers: ItemMatchers,
    ) -> list[ScoredHit]:
        """When nothing on topic was found or no hit names the product, recall it under the
        names a shop may list it as ("lamp" as a light, "planter" as a plant pot) and put
        first the hits that say that name, nearest first."""
        asked = listed_as_queries(run.scope.query, product)
        if not asked:
            return kept
        queries = [q for q, _ in asked]
        passes = await self._widening_passes(run, "listed_as", queries, pool, matchers)
        found = listed_hits(asked, [p.kept if p else [] for p in passes])
        if not found:
            return kept
        names = ", ".join(dict.fromkeys(f'"{name}"' for _, name in asked))
        run.notes.append(f"no hit was what was asked; searched as {names} too")
        return ahead(found, kept)

    async def _refocus(
        self, run: SearchRun, kept: list[ScoredHit], product: str, pool: int, matchers: ItemMatchers
    ) -> list[ScoredHit]:
        """When no hit names the asked product ("monitor macbook": the rarer word took every
        place), put first, nearest to the query first and at the best recalled score, the
        deeper hits that name it and those of the product recalled alone (and under the
        catalogs' other name for it: "laptop" alone finds sleeves) under the same filters."""
        if product.lower() == " ".join(run.scope.query.lower().split()):
            return kept
        query = run.scope.query
        shown = {h.item_id for h in on_topic(kept)[: run.scope.top_k]}
        deeper = [
            h for h in kept if h.item_id not in shown and names_product(h.item, product, query)
        ]
        filters = run.effective.filters()
        alone = " ".join(dict.fromkeys(p for p in (product, catalog_alias(product)) if p))
        with timed(run.steps, "refocus"):
            focused = await self._widening_pass(run, "refocus", alone, filters, pool, matchers)
        found = focused.kept if focused else []
        named = [h for h in found if names_product(h.item, product, query)]
        a_product = with_article(product)
        if deeper:
            run.notes.append(f"no shown hit was {a_product}; put first {len(deeper)} deeper one(s)")
        if named:
            run.notes.append(f'no hit was {a_product}; put first the hits of "{alone}" alone')
        first = sorted(ahead(deeper, named), key=lambda h: -(h.relevance or 0.0))
        top = best_score(kept)
        return ahead([replace(h, hit=replace(h.hit, score=top)) for h in first], kept)

    async def _probe(
        self, run: SearchRun, matchers: ItemMatchers, kept_ids: set[str], product: str | None
    ) -> ProbeFindings | None:
        """Recall without the hard filters (platform scope kept) and explain what was blocked;
        `product` is the asked product when no hit names it."""
        scope = run.effective
        try:
            response = await self.pipeline.run(
                scope.query, scope.probe_filters(), top_k=ITEM_SEARCH_PROBE_LIMIT.get()
            )
            scoring = await self.scorer.score(scope.query, response.hits, self.index.items)
        except DependencyDown as exc:
            log.warning("item_search: probe recall skipped: %s", exc)
            run.complete = False
            return None
        run.complete = run.complete and not (scoring.degraded or response.failed_sources)
        return explain_blocks(scoring.hits, kept_ids, scope, matchers, product=product)


def _partial(found: Pass) -> bool:
    """Whether a recall pass lacks a source or its relevance scores."""
    return bool(found.degraded or found.response.failed_sources)


def _shown(hits: Sequence[ScoredHit], top_k: int) -> list[Item]:
    """The items of the first `top_k` hits on the topic (`on_topic`): what the decisions to
    widen, refocus or probe read, as if the floor had been kept whole."""
    return [h.item for h in on_topic(hits)[:top_k]]
