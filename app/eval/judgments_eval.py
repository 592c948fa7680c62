"""Offline recall evaluation on graded judgments (`query,docid,rating`): every configuration
(bm25, dense, both fusions, the reranker, item_search as shipped) on the same queries, with
ranx metrics, judged@10, paired significance against the best single retriever, and a chart.

The shipped Icecat judgments were pooled from a keyword engine: an unjudged item counts as
not relevant, which under-scores configurations that surface items the judges never saw;
`judged@10` and the condensed NDCG (unjudged items removed) make that bias visible.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.config.settings import Settings
from app.errors import ConfigError, InvalidRequest
from app.eval._judging_pool import unjudged_pool, write_pool
from app.eval._judgment_file import (
    MAX_RATING,
    JudgmentRows,
    Judgments,
    read_judgment_rows,
    resolve_judgments,
)
from app.eval._ranking_metrics import (
    STAT_TESTS,
    QuerySets,
    condensed,
    score_rankings,
    significance,
)
from app.eval._recall_ceiling import CEILING_CUT, CeilingInput, recall_ceiling
from app.eval._recall_configs import (
    CONFIGS,
    SINGLE_RETRIEVERS,
    ConfigRun,
    EvalTarget,
    run_configs,
)
from app.eval._recall_report import (
    bar_chart,
    ceiling_lines,
    markdown_table,
    side_by_side_table,
)
from app.recall.pipeline import RecallConfig
from app.recall.reranker import Reranker, build_reranker
from app.recall.search_index import SearchIndex

__all__ = [
    "CONFIGS",
    "RecallEvalOptions",
    "ceiling_lines",
    "evaluate_judgments",
    "markdown_table",
    "run_recall_eval",
    "run_recall_eval_files",
    "side_by_side_table",
]

NDCG_GOAL_RATIO = 1.15
RECALL_GOAL_DELTA = 0.05


@dataclass(frozen=True)
class RecallEvalOptions:
    """What to evaluate and how. `platform` scopes recall the way item_search does and names
    the item ids (`<platform>:<docid>` unless `id_prefix` says otherwise); None searches
    every platform and then needs `id_prefix`."""

    judgments: Path
    platform: str | None = "icecat"
    id_prefix: str | None = None
    configs: Sequence[str] = CONFIGS
    relevant: int = 2
    depth: int = 100
    stat_test: str = "student"
    chart: Path | None = None
    unjudged_out: Path | None = None
    """Where to write the unjudged top-10 items of every configuration, for judging."""
    ceiling_depth: int | None = None
    """Also ask each single source for this many hits and say where the first stage's
    missing Recall@100 is (`first_stage_ceiling` in the report)."""

    def prefix(self) -> str:
        if self.id_prefix is not None:
            return self.id_prefix
        if self.platform is None:
            raise InvalidRequest("searching every platform needs an explicit id prefix")
        return f"{self.platform}:"

    def check(self) -> None:
        unknown = [c for c in self.configs if c not in CONFIGS]
        if unknown or not self.configs:
            raise InvalidRequest(f"unknown or no configuration(s) {unknown}; known: {CONFIGS}")
        if not 1 <= self.relevant <= MAX_RATING:
            raise InvalidRequest(f"relevant must be 1..{MAX_RATING}, got {self.relevant}")
        if self.stat_test not in STAT_TESTS:
            raise InvalidRequest(f"stat test must be one of {STAT_TESTS}, got {self.stat_test!r}")
        if self.depth < 100:
            raise InvalidRequest(f"depth must be >= 100 (Recall@100), got {self.depth}")
        if self.ceiling_depth is not None and self.ceiling_depth < CEILING_CUT:
            raise InvalidRequest(
                f"ceiling depth must be >= {CEILING_CUT}, got {self.ceiling_depth}"
            )
        self.prefix()


def run_recall_eval(
    settings: Settings,
    options: RecallEvalOptions,
    *,
    index: SearchIndex | None = None,
    aliases: Mapping[str, str] | None = None,
    reranker: Reranker | None = None,
) -> dict[str, Any]:
    """Open what is not given (index, catalog aliases, reranker), evaluate, write the chart."""
    reports = run_recall_eval_files(
        settings, options, [options.judgments], index=index, aliases=aliases, reranker=reranker
    )
    return reports[0]


def run_recall_eval_files(
    settings: Settings,
    options: RecallEvalOptions,
    files: Sequence[Path],
    *,
    index: SearchIndex | None = None,
    aliases: Mapping[str, str] | None = None,
    reranker: Reranker | None = None,
) -> list[dict[str, Any]]:
    """Every configuration ranked once over the queries of all `files` and scored on each
    file, so two yardsticks compare the same rankings side by side; one report per file
    (the unjudged pool is written for the last file; a chart per file beside `chart`)."""
    options.check()
    if not files:
        raise InvalidRequest("no judgments file given")
    started = time.perf_counter()
    rows = [read_judgment_rows(path) for path in files]
    if aliases is None:
        from app.catalog.loader import load_catalog

        aliases = load_catalog(settings.data_dir, locale=settings.esci_locale).aliases
    return asyncio.run(_run(settings, options, rows, index, aliases, reranker, started))


async def _run(
    settings: Settings,
    options: RecallEvalOptions,
    rows: Sequence[JudgmentRows],
    index: SearchIndex | None,
    aliases: Mapping[str, str],
    reranker: Reranker | None,
    started: float,
) -> list[dict[str, Any]]:
    opened = index if index is not None else await asyncio.to_thread(SearchIndex.open, settings)
    try:
        no_reranker = None
        if reranker is None and "rerank" in options.configs:
            reranker, no_reranker = _open_reranker(settings)
        files = [
            resolve_judgments(r, id_prefix=options.prefix(), aliases=aliases, known=opened.items)
            for r in rows
        ]
        target = EvalTarget(
            settings, opened, options.platform, options.depth, reranker, no_reranker
        )
        queries = sorted({q for j in files for q in QuerySets.of(j, options.relevant).graded})
        runs = await run_configs(target, queries, options.configs)
        deep = None
        if options.ceiling_depth is not None:
            deeper = dataclasses.replace(target, depth=options.ceiling_depth)
            deep = await run_configs(deeper, queries, SINGLE_RETRIEVERS)
        last = len(files) - 1
        reports = [
            await evaluate_judgments(
                target,
                judgments,
                options if n == last else dataclasses.replace(options, unjudged_out=None),
                runs=runs,
                deep=deep,
            )
            for n, judgments in enumerate(files)
        ]
    finally:
        if index is None:
            await opened.close()
    for report in reports:
        report["elapsed_s"] = round(time.perf_counter() - started, 1)
        if options.chart is not None:
            chart = options.chart
            if len(reports) > 1:
                chart = chart.with_name(f"{chart.stem}-{Path(report['judgments']).stem}.png")
            report["chart"] = str(bar_chart(report, chart))
    return reports


def _open_reranker(settings: Settings) -> tuple[Reranker | None, str | None]:
    try:
        return build_reranker(settings), None
    except ConfigError as exc:
        return None, str(exc)


async def evaluate_judgments(
    target: EvalTarget,
    judgments: Judgments,
    options: RecallEvalOptions,
    *,
    runs: Mapping[str, ConfigRun] | None = None,
    deep: Mapping[str, ConfigRun] | None = None,
) -> dict[str, Any]:
    """Run every configuration over the judged queries (unless `runs` holds them already)
    and score them (the JSON report); with `deep` (the single sources at the ceiling depth),
    say where the first stage's missing recall is."""
    sets = QuerySets.of(judgments, options.relevant)
    if not sets.graded:
        raise InvalidRequest(f"{judgments.source}: no query has a rating above 0")
    if runs is None:
        runs = await run_configs(target, sets.graded, options.configs)
    ran = {
        name: {q: run.rankings[q] for q in sets.graded if q in run.rankings}
        for name, run in runs.items()
        if run.rankings is not None
    }
    configs = {}
    for name, rankings in ran.items():
        scores = score_rankings(judgments, rankings, sets)
        cond = score_rankings(judgments, condensed(judgments, rankings), sets)
        scores["ndcg@10_condensed"] = cond["ndcg@10"]
        configs[name] = scores
    pool = unjudged_pool(judgments, ran)
    if options.unjudged_out is not None:
        write_pool(pool, options.unjudged_out, id_prefix=options.prefix())
    best = _best_single(configs)
    p_values = significance(judgments, ran, sets, best, stat_test=options.stat_test) if best else {}
    ceiling = _ceiling(judgments, sets, options, ran, deep) if deep is not None else None
    return {
        "judgments": judgments.source,
        "index": target.index.version,
        "platform": target.platform,
        "n_queries": len(sets.graded),
        "n_queries_binary": len(sets.binary),
        "queries_in_file": judgments.queries_in_file,
        "queries_not_scored": sorted(set(judgments.graded) - set(sets.graded)),
        "relevant": options.relevant,
        "judged_docids_merged": judgments.merged,
        "judged_items_not_in_index": len(judgments.unknown),
        "unjudged_in_top10": len(pool),
        "configs": configs,
        "descriptions": {name: run.description for name, run in runs.items()},
        "notes": {name: run.note for name, run in runs.items() if run.note},
        "skipped": [name for name, run in runs.items() if run.rankings is None],
        "best_single": best,
        "significance": {"test": options.stat_test, "baseline": best, "p_values": p_values},
        "goal": _goal(configs, best),
        **({"first_stage_ceiling": ceiling} if ceiling is not None else {}),
    }


def _first_stage() -> str:
    """The configuration that is the product's first stage: the fusion in force."""
    fusion = RecallConfig.from_params().fusion
    return {"rrf": "hybrid_rrf", "weighted": "hybrid_weighted"}.get(fusion, fusion)


def _ceiling(
    judgments: Judgments,
    sets: QuerySets,
    options: RecallEvalOptions,
    ran: Mapping[str, Mapping[str, list[str]]],
    deep: Mapping[str, ConfigRun],
) -> dict[str, Any]:
    first_stage = _first_stage()
    if first_stage not in ran:
        return {"skipped": f"{first_stage} (the first stage in force) was not run"}
    sources = {name: run.rankings for name, run in deep.items() if run.rankings is not None}
    given = CeilingInput(sources, first_stage, ran[first_stage], options.ceiling_depth or 0)
    return recall_ceiling(judgments, sets.binary, options.relevant, given)


def _best_single(configs: Mapping[str, Mapping[str, float | None]]) -> str | None:
    singles = [n for n in SINGLE_RETRIEVERS if n in configs]
    if not singles:
        return None
    return max(singles, key=lambda n: configs[n]["ndcg@10"] or 0.0)


def _goal(configs: Mapping[str, Mapping[str, float | None]], best: str | None) -> dict[str, Any]:
    """The product goal: pipeline NDCG@10 >= 1.15 x the best single retriever, and the
    first-stage recall in force with Recall@100 >= the best single + 0.05."""
    if best is None:
        return {}
    base = configs[best]
    first_stage = _first_stage()
    named = first_stage if first_stage in CONFIGS else f"{first_stage} (not run)"
    out: dict[str, Any] = {"baseline": best, "first_stage": named}
    pipeline = configs.get("pipeline")
    fused = configs.get(first_stage)
    if pipeline and pipeline["ndcg@10"] is not None and base["ndcg@10"]:
        target = NDCG_GOAL_RATIO * base["ndcg@10"]
        out["pipeline_ndcg@10"] = {
            "target": round(target, 4),
            "value": pipeline["ndcg@10"],
            "ratio": round(pipeline["ndcg@10"] / base["ndcg@10"], 4),
            "met": pipeline["ndcg@10"] >= target,
        }
    if fused and fused["recall@100"] is not None and base["recall@100"] is not None:
        target = base["recall@100"] + RECALL_GOAL_DELTA
        out["first_stage_recall@100"] = {
            "target": round(target, 4),
            "value": fused["recall@100"],
            "met": fused["recall@100"] >= target,
        }
    return out
