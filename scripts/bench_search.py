"""Benchmark item_search on the full catalog and print one JSON document: cold vs warm (L1)
searches, one encode for eight concurrent identical searches, recall p50 per source and
fused, and what the relevance floor keeps and costs on the Icecat dev judgments.

    .venv/bin/python scripts/bench_search.py [--repeats 3] [--skip-floor]

The search cache runs on its embedded L2 so a cold search is a real miss (use --redis to
keep REDIS_URL). Figures depend on the machine's load, which is reported with them.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import os
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from app.config.params.item_search import ITEM_SEARCH_POOL
from app.config.registry import REGISTRY
from app.config.settings import Settings, get_settings
from app.eval.bench_search import cold_vs_warm, concurrent_identical, ms, timed_search
from app.eval.bench_stats import percentile
from app.recall.filters import SearchFilters
from app.runtime import Runtime
from app.tools.search import ItemSearchTool, RelevanceFloor

GIBBERISH = [
    "asdkjh qwe", "xyzzy plugh", "qwertyuiop", "zzzzzz", "blorft snazzle", "hjkl asdf",
    "sdfgsdfg", "kjhkjh lkjlkj", "florp", "vxcvbn mnbv", "ffffff ggggg", "?!?",
]  # fmt: skip
RELEVANT_GRADE = 2


def p(values: list[float], q: float) -> float:
    """The q-quantile (0-1), rounded."""
    return round(percentile(values, q * 100), 3)


def dev_judgments(data_dir: Path) -> dict[str, dict[str, int]]:
    graded: dict[str, dict[str, int]] = defaultdict(dict)
    with (data_dir / "icecat" / "judgments_dev.csv").open(encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            graded[row["query"]][f"icecat:{row['docid']}"] = int(row["rating"])
    return graded


async def recall_latency(runtime: Runtime, queries: list[str]) -> dict[str, Any]:
    """The pipeline with the search cache off, once per query: p50/p95 per source and fused."""
    per_source: dict[str, list[float]] = defaultdict(list)
    fused: list[float] = []
    depth = max(ITEM_SEARCH_POOL.get(), 1)
    with REGISTRY.overridden(SEARCH_CACHE_ENABLED=False):
        for query in queries:
            started = time.perf_counter()
            response = await runtime.pipeline.run(query, SearchFilters(), top_k=depth)
            fused.append(ms(time.perf_counter() - started))
            for source, took in response.timings_ms.items():
                per_source[source].append(took)
    report = {s: {"p50_ms": p(v, 0.5), "p95_ms": p(v, 0.95)} for s, v in per_source.items()}
    report["fused"] = {"p50_ms": p(fused, 0.5), "p95_ms": p(fused, 0.95)}
    return {"queries": len(queries), "fused_top_k": depth, "cache": "off", **report}


async def relevance_floor(
    runtime: Runtime, tool: ItemSearchTool, graded: dict[str, dict[str, int]]
) -> dict[str, Any]:
    """Recall@10/@50 of judged-relevant Icecat items among the fused pool, with and without
    the floor, what the floor removes, and which gibberish queries still return hits."""
    floor = RelevanceFloor.current()
    pool = ITEM_SEARCH_POOL.get()
    found = {10: [0, 0], 50: [0, 0]}
    total = removed = scored_hits = relevant_lost = 0
    for query, grades in graded.items():
        relevant = {i for i, g in grades.items() if g >= RELEVANT_GRADE}
        if not relevant:
            continue
        total += len(relevant)
        response = await runtime.pipeline.run(query, SearchFilters(), top_k=pool)
        scoring = await tool.scorer.score(query, response.hits, runtime.index.items)
        ranked = [h.item_id for h in scoring.hits]
        kept = [h.item_id for h in scoring.hits if floor.passes(h.relevance, h.lexical)]
        scored_hits += len(ranked)
        removed += len(ranked) - len(kept)
        relevant_lost += len(relevant & (set(ranked) - set(kept)))
        for k, counts in found.items():
            counts[0] += len(relevant & set(ranked[:k]))
            counts[1] += len(relevant & set(kept[:k]))
    gibberish_with_hits = []
    for query in GIBBERISH:
        _, result = await timed_search(tool, query)
        if result.hits:
            gibberish_with_hits.append(query)
    return {
        "floor": {"semantic": floor.semantic, "lexical": floor.lexical},
        "queries": sum(1 for g in graded.values() if max(g.values()) >= RELEVANT_GRADE),
        "relevant_items": total,
        **{
            f"recall_at_{k}": {"no_floor": round(a / total, 4), "floor": round(b / total, 4)}
            for k, (a, b) in found.items()
        },
        "relevant_in_pool_removed": relevant_lost,
        "pool_hits_removed": f"{removed}/{scored_hits}",
        "gibberish_queries": len(GIBBERISH),
        "gibberish_with_hits": gibberish_with_hits,
    }


async def main(args: argparse.Namespace) -> dict[str, Any]:
    settings: Settings = get_settings()
    if not args.redis:
        settings = settings.model_copy(update={"redis_url": None})
    graded = dev_judgments(settings.data_dir)
    report: dict[str, Any] = {"load_avg_start": os.getloadavg()[0], "cpus": os.cpu_count()}
    async with Runtime(settings) as runtime:
        tool = runtime.tool("item_search")
        assert isinstance(tool, ItemSearchTool)
        report["index"] = {"version": runtime.index.version, "items": len(runtime.index.items)}
        report["cold_vs_warm"] = await cold_vs_warm(tool, args.repeats)
        report["concurrent_identical"] = await concurrent_identical(runtime, tool)
        report["recall_p50"] = await recall_latency(runtime, list(graded))
        if not args.skip_floor:
            report["relevance_floor_dev"] = await relevance_floor(runtime, tool, graded)
    report["load_avg_end"] = os.getloadavg()[0]
    return report


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="Warm searches per query.")
    parser.add_argument("--skip-floor", action="store_true", help="Skip the dev evaluation.")
    parser.add_argument("--redis", action="store_true", help="Keep REDIS_URL for the cache L2.")
    print(json.dumps(asyncio.run(main(parser.parse_args())), indent=2))
