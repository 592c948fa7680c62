"""The configurations the judgment evaluation compares, each turned into a ranking per query:
the single retrievers, the two fusions, the cross-encoder over the fused top 50, and
item_search exactly as the product runs it (the Runtime's tool, through `invoke_tool`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from app.config.params.search import MAX_TOP_K
from app.config.settings import Settings
from app.recall.bm25_retriever import SHEET_SOURCE, Bm25Retriever, sheet_tail
from app.recall.dense_retriever import DenseRetriever
from app.recall.filters import SearchFilters
from app.recall.pipeline import RecallConfig, RecallPipeline
from app.recall.reranker import Reranker
from app.recall.search_cache import SearchCache
from app.recall.search_index import SearchIndex

CONFIGS = ("bm25", "dense", "hybrid_rrf", "hybrid_weighted", "rerank", "pipeline")
SINGLE_RETRIEVERS = ("bm25", "dense")
RERANK_DEPTH = 50

Rankings = dict[str, list[str]]


@dataclass(frozen=True)
class ConfigRun:
    """One configuration's rankings (None when skipped), what it is, and any caveat."""

    name: str
    description: str
    rankings: Rankings | None
    note: str | None = None


@dataclass(frozen=True)
class EvalTarget:
    """What every configuration runs against: one opened index, the platform scope of the
    judged items, the depth asked of first stages, and the reranker (or why there is none)."""

    settings: Settings
    index: SearchIndex
    platform: str | None
    depth: int
    """How many results each configuration ranks (first stages are asked for at least this)."""
    reranker: Reranker | None = None
    no_reranker: str | None = None

    @property
    def filters(self) -> SearchFilters:
        """The payload filter the product applies for a platform scope."""
        return SearchFilters.build(platforms=[self.platform] if self.platform else None)


async def run_configs(
    target: EvalTarget, queries: Sequence[str], names: Sequence[str]
) -> dict[str, ConfigRun]:
    """Each named configuration over every query, in the order given."""
    unknown = [n for n in names if n not in CONFIGS]
    if unknown:
        raise ValueError(f"unknown configuration(s) {unknown}; known: {list(CONFIGS)}")
    runner = _Runner(target)
    methods = {
        "bm25": runner.bm25,
        "dense": runner.dense,
        "hybrid_rrf": runner.hybrid_rrf,
        "hybrid_weighted": runner.hybrid_weighted,
        "rerank": runner.rerank,
        "pipeline": runner.pipeline,
    }
    return {name: await methods[name](queries) for name in names}


class _Runner:
    """One method per configuration; the first-stage sources are shared between them."""

    def __init__(self, target: EvalTarget) -> None:
        self.t = target
        self.lexical = Bm25Retriever(target.index.bm25)
        sheet = target.index.bm25_sheet
        self.sheet = Bm25Retriever(sheet, source=SHEET_SOURCE) if sheet is not None else None
        self.semantic = DenseRetriever.from_index(target.index, SearchCache())

    async def _each(
        self, queries: Sequence[str], rank: Callable[[str], Awaitable[list[str]]]
    ) -> Rankings:
        return {q: await rank(q) for q in queries}

    async def bm25(self, queries: Sequence[str]) -> ConfigRun:
        async def rank(q: str) -> list[str]:
            hits = await self.lexical.recall(q, self.t.filters, top_k=self.t.depth)
            return [h.item_id for h in hits]

        recipes = self.t.index.manifest.recipes
        recipe = next((r for r in recipes if r.startswith("bm25")), "bm25")
        what = f"{recipe}, top {self.t.depth}"
        return ConfigRun("bm25", what, await self._each(queries, rank))

    async def dense(self, queries: Sequence[str]) -> ConfigRun:
        async def rank(q: str) -> list[str]:
            hits = await self.semantic.recall(q, self.t.filters, top_k=self.t.depth)
            return [h.item_id for h in hits]

        model = self.t.index.manifest.model_id
        return ConfigRun("dense", f"{model}, top {self.t.depth}", await self._each(queries, rank))

    def _fusion(self, method: str | None) -> RecallConfig:
        config = RecallConfig.from_params()
        if method is not None:
            config = dataclasses.replace(config, fusion=method)  # type: ignore[arg-type]
        return config

    async def _fused(self, queries: Sequence[str], config: RecallConfig) -> Rankings:
        pipeline = RecallPipeline(
            [self.semantic, self.lexical], config, tail=sheet_tail(self.sheet)
        )

        async def rank(q: str) -> list[str]:
            response = await pipeline.run(q, self.t.filters, top_k=self.t.depth)
            return [h.item_id for h in response.hits]

        return await self._each(queries, rank)

    async def hybrid_rrf(self, queries: Sequence[str]) -> ConfigRun:
        config = self._fusion("rrf")
        return ConfigRun("hybrid_rrf", _describe(config), await self._fused(queries, config))

    async def hybrid_weighted(self, queries: Sequence[str]) -> ConfigRun:
        config = self._fusion("weighted")
        return ConfigRun("hybrid_weighted", _describe(config), await self._fused(queries, config))

    async def rerank(self, queries: Sequence[str]) -> ConfigRun:
        config = self._fusion(None)
        what = f"cross-encoder over the top {RERANK_DEPTH} of the recall in force "
        what += f"({_describe(config)})"
        reranker = self.t.reranker
        if reranker is None:
            return ConfigRun("rerank", what, None, f"skipped: {self.t.no_reranker}")
        fused = await self._fused(queries, config)
        items = self.t.index.items
        out: Rankings = {}
        for query, ids in fused.items():
            head, tail = ids[:RERANK_DEPTH], ids[RERANK_DEPTH:]
            scores = await reranker.ascore(query, [items[i].title for i in head]) if head else []
            order = sorted(range(len(head)), key=lambda i: (-scores[i], i))
            out[query] = [head[i] for i in order] + tail
        return ConfigRun("rerank", f"{what}, model {reranker.model_id}", out)

    async def pipeline(self, queries: Sequence[str]) -> ConfigRun:
        top_k = MAX_TOP_K.get()
        args: dict[str, Any] = {"top_k": top_k}
        if self.t.platform:
            args["platform"] = self.t.platform
        out, failures = await item_search_rankings(self.t.settings, self.t.index, queries, args)
        note = (
            f"item_search returns at most MAX_TOP_K={top_k} hits, so its recall@100 counts "
            f"those only"
        )
        if failures:
            note += f"; {len(failures)} searches failed: " + "; ".join(failures[:3])
        recall = _describe(self._fusion(None))
        what = f"item_search via invoke_tool (top_k={top_k}, recall {recall})"
        return ConfigRun("pipeline", what, out, note)


async def item_search_rankings(
    settings: Settings, index: SearchIndex, queries: Sequence[str], args: dict[str, Any]
) -> tuple[Rankings, list[str]]:
    """item_search exactly as the product runs it (a Runtime over `index`, the tool through
    `invoke_tool`, in-process cache) for each query with `args`: the hit ids per query, and
    the failures (a failed search ranks nothing)."""
    from app.runtime import Runtime
    from app.tools.base import ToolContext, invoke_tool
    from app.tools.search import ItemSearchResult

    failures: list[str] = []
    out: Rankings = {}
    async with Runtime(settings.model_copy(update={"redis_url": None}), index=index) as runtime:
        tool = runtime.tool("item_search")
        for query in queries:
            ctx = ToolContext(session_id="eval", turn_id=query)
            outcome = await invoke_tool(tool, {"query": query, **args}, ctx)
            if isinstance(outcome.output, ItemSearchResult):
                out[query] = [h.item_id for h in outcome.output.hits]
            else:
                out[query] = []
                failures.append(f"{query!r}: {outcome.output.render()[:120]}")
    return out, failures


def _describe(config: RecallConfig) -> str:
    weights = ", ".join(f"{s}={w:g}" for s, w in sorted(config.weights.items()))
    k = f" k={config.rrf_k}" if config.fusion == "rrf" else ""
    return f"{config.fusion}{k}, weights {weights or 'equal'}, depth {config.depth}"
