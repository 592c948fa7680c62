"""item_search benchmarks shared by `scripts/bench_search.py` and `pickwise bench`: cold
(cache miss) against warm (L1) searches, and one encode for identical concurrent searches."""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Sequence
from typing import Any

from app.errors import PickwiseError
from app.eval.query_files import read_queries
from app.runtime import Runtime
from app.tools.base import Tool, ToolContext, invoke_tool
from app.tools.search import ItemSearchResult

__all__ = [
    "COLD_WARM_QUERIES",
    "CONCURRENCY",
    "CONCURRENT_QUERY",
    "WARMUP",
    "cold_vs_warm",
    "concurrent_identical",
    "ms",
    "timed_search",
]

WARMUP = ("usb flash drive", "printer paper")
COLD_WARM_QUERIES = read_queries("cold_warm")
CONCURRENT_QUERY = "rechargeable aa batteries with charger"
CONCURRENCY = 8


def ms(seconds: float) -> float:
    return round(seconds * 1000.0, 3)


async def timed_search(tool: Tool[Any, Any], query: str) -> tuple[float, ItemSearchResult]:
    """One item_search through `invoke_tool`: seconds taken and the result."""
    started = time.perf_counter()
    outcome = await invoke_tool(tool, {"query": query}, ToolContext("bench", "turn"))
    elapsed = time.perf_counter() - started
    if not isinstance(outcome.output, ItemSearchResult):
        raise PickwiseError(f"item_search failed: {outcome.output.render()}")
    return elapsed, outcome.output


async def cold_vs_warm(
    tool: Tool[Any, Any], repeats: int, queries: Sequence[str] = COLD_WARM_QUERIES
) -> dict[str, Any]:
    """Each query searched twice in a row: first a cache miss, then `repeats` L1 hits."""
    for query in WARMUP:
        await timed_search(tool, query)
    rows: list[dict[str, Any]] = []
    for query in queries:
        cold_s, cold = await timed_search(tool, query)
        warm = [await timed_search(tool, query) for _ in range(repeats)]
        warm_ms = statistics.median(ms(s) for s, _ in warm)
        levels = {r.cache for _, r in warm}
        rows.append(
            {
                "query": query,
                "cold_ms": ms(cold_s),
                "warm_ms": round(warm_ms, 3),
                "cold_cache": cold.cache,
                "warm_cache": sorted(str(level) for level in levels),
                "hits": len(cold.hits),
            }
        )
    cold_p50 = statistics.median(r["cold_ms"] for r in rows)
    warm_p50 = statistics.median(r["warm_ms"] for r in rows)
    ratios = [r["cold_ms"] / r["warm_ms"] for r in rows]
    return {
        "queries": len(rows),
        "cold_p50_ms": round(cold_p50, 3),
        "warm_p50_ms": round(warm_p50, 3),
        "ratio_of_medians": round(cold_p50 / warm_p50, 1),
        "median_of_ratios": round(statistics.median(ratios), 1),
        "min_ratio": round(min(ratios), 1),
        "meets_20x": cold_p50 / warm_p50 >= 20,
        "all_cold_were_misses": all(r["cold_cache"] == "miss" for r in rows),
        "all_warm_were_l1": all(r["warm_cache"] == ["l1"] for r in rows),
        "per_query": rows,
    }


async def concurrent_identical(
    runtime: Runtime, tool: Tool[Any, Any], concurrency: int = CONCURRENCY
) -> dict[str, Any]:
    """Identical searches at once: the cache and the vector memo let one through."""
    before = runtime.dense.counters
    started = time.perf_counter()
    results = await asyncio.gather(
        *(timed_search(tool, CONCURRENT_QUERY) for _ in range(concurrency))
    )
    wall = time.perf_counter() - started
    after = runtime.dense.counters
    return {
        "searches": concurrency,
        "encodes": after.encodes - before.encodes,
        "vector_queries": after.vector_queries - before.vector_queries,
        "cache_fetches": after.cache.fetches - before.cache.fetches,
        "joined": after.cache.joined - before.cache.joined,
        "same_hits": len({tuple(h.item_id for h in r.hits) for _, r in results}) == 1,
        "wall_ms": ms(wall),
    }
