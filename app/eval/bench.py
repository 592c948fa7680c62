"""All benchmarks in one run (`pickwise bench`, `scripts/bench.py`): index build figures,
item_search cold/warm, single flight, the relevance gate and whole offline turns; medians
over repeated runs on fresh runtimes, with the load average, logged to bench/results.jsonl;
then, once, the load test against a real `pickwise serve` (section `load`)."""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.agent.chat import ShoppingAgent, collect
from app.config.settings import Settings
from app.errors import ConfigError
from app.eval.bench_catalog import bench_import
from app.eval.bench_index import bench_build, last_build
from app.eval.bench_live import bench_live
from app.eval.bench_picker import GateCase, gate_cases, gate_latency
from app.eval.bench_scale import bench_scale
from app.eval.bench_search import COLD_WARM_QUERIES, cold_vs_warm, concurrent_identical
from app.eval.bench_stats import (
    RESULTS,
    append_result,
    git_commit,
    load_averages,
    median_of,
    percentile,
)
from app.eval.demo_script import SCENARIOS
from app.eval.load import LoadOptions, run_load
from app.eval.load_serve import private_redis, served
from app.language.vocabulary_measure import measure
from app.recall.reranker import Reranker, build_reranker
from app.recall.search_index import SearchIndex
from app.runtime import Runtime

__all__ = ["TURN_MESSAGES", "AgentFactory", "BenchOptions", "run_bench", "summarise"]

AgentFactory = Callable[[Runtime], ShoppingAgent]
TURN_MESSAGES = tuple(s.message for s in SCENARIOS)
"""The demo's six shopper messages, each the first turn of a new session."""


@dataclass(frozen=True)
class BenchOptions:
    """How much to measure; `results` None leaves the results log alone."""

    repeats: int = 3
    warm_repeats: int = 3
    gate_repeats: int = 5
    rebuild: bool = False
    queries: Sequence[str] = COLD_WARM_QUERIES
    turn_messages: Sequence[str] = TURN_MESSAGES
    results: Path | None = RESULTS
    load: LoadOptions | None = None
    """The load test's size; None (the default) skips it."""
    scale_sizes: Sequence[int] = ()
    """Catalog sizes of the store-only scale curve (`catalog.scale`); empty skips it."""


def run_bench(
    settings: Settings,
    options: BenchOptions,
    agent_factory: AgentFactory,
    *,
    index: SearchIndex | None = None,
) -> dict[str, Any]:
    """Measure everything `options.repeats` times and report medians (call outside a running
    event loop). The cache runs in-process so a cold search is a real miss; no LLM."""
    if options.repeats < 1:
        raise ConfigError(f"repeats must be >= 1, got {options.repeats}")
    settings = settings.model_copy(update={"redis_url": None, "openai_base_url": None})
    load_start = load_averages()
    build = bench_build(settings) if options.rebuild else last_build(settings)
    runs = asyncio.run(_measure(settings, options, agent_factory, index))
    load = bench_load(settings, options.load) if options.load is not None else None
    scale = {"scale": bench_scale(settings, options.scale_sizes)} if options.scale_sizes else {}
    report = {
        "index": build,
        **summarise(runs),
        "catalog": {**bench_import(settings), **bench_live(settings), **scale},
        "language": bench_language(),
        **({"load": load} if load is not None else {}),
        "repeats": options.repeats,
        "load_avg": {"start": load_start, "end": load_averages()},
        "cpus": os.cpu_count(),
        "cache_l2": "in-process",
        "runs": runs,
    }
    if options.results is not None:
        row = append_result("bench", report, options.results)
        return {"commit": row["commit"], "at": row["at"], **report}
    return {"commit": git_commit(), **report}


def bench_language() -> dict[str, Any]:
    """The vocabulary measure of this checkout: word lists still typed into Python (product
    vocabulary and grammar) and the size of the data/lexicon files (not timed, counted)."""
    found = measure(Path(__file__).resolve().parents[2])
    keys = (
        "typed_vocabulary_lines",
        "product_vocabulary_lines",
        "grammar_lines",
        "lexicon_files",
        "lexicon_lists",
        "lexicon_entries",
    )
    return {key: found[key] for key in keys}


def bench_load(settings: Settings, options: LoadOptions) -> dict[str, Any]:
    """The load test once, against a real `pickwise serve` with its own redis-server when
    one is installed (else sessions and cache in the server's process)."""
    load_start = load_averages()
    with ExitStack() as stack:
        redis_url = stack.enter_context(private_redis()) if shutil.which("redis-server") else None
        base_url = stack.enter_context(served(settings, redis_url))
        report = asyncio.run(run_load(base_url, options))
    return {
        **report,
        "redis": "private redis-server" if redis_url else "none (in-process)",
        "load_avg": {"start": load_start, "end": load_averages()},
    }


def summarise(runs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Medians over the repeated runs (counts: the largest, so one bad run shows)."""

    def med(section: str, key: str) -> float:
        return median_of([r[section][key] for r in runs])

    gate_runs = [r["gate"] for r in runs if "p50_ms" in r["gate"]]
    readings = [n for r in runs for n in r["turn"].get("readings", [])]
    gate: dict[str, Any] = {"candidates": runs[0]["gate"].get("candidates")}
    if gate_runs:
        gate |= {
            "p50_ms": median_of([g["p50_ms"] for g in gate_runs]),
            "p95_ms": median_of([g["p95_ms"] for g in gate_runs]),
            "model": gate_runs[0]["model"],
        }
    else:
        gate |= {"p50_ms": None, "error": runs[0]["gate"].get("error")}
    return {
        "search": {
            "cold_ms": med("search", "cold_ms"),
            "warm_ms": med("search", "warm_ms"),
            "warm_speedup": round(med("search", "cold_ms") / med("search", "warm_ms"), 1),
            "queries": runs[0]["search"]["queries"],
            "all_cold_were_misses": all(r["search"]["all_cold_were_misses"] for r in runs),
            "all_warm_were_l1": all(r["search"]["all_warm_were_l1"] for r in runs),
        },
        "singleflight": {
            key: max(r["singleflight"][key] for r in runs)
            for key in ("concurrent", "encodes", "vector_queries", "cache_fetches", "joined")
        },
        "gate": gate,
        "turn": {
            "p50_ms": med("turn", "p50_ms"),
            "p95_ms": med("turn", "p95_ms"),
            "turns": runs[0]["turn"]["turns"],
            "failed": max(r["turn"]["failed"] for r in runs),
            "readings_p50": median_of([float(n) for n in readings]) if readings else None,
            "readings_max": max(readings, default=None),
        },
    }


async def _measure(
    settings: Settings,
    options: BenchOptions,
    agent_factory: AgentFactory,
    given: SearchIndex | None,
) -> list[dict[str, Any]]:
    index = given if given is not None else await asyncio.to_thread(SearchIndex.open, settings)
    try:
        gate = _Gate(*_reranker(settings))
        runs = []
        for _ in range(options.repeats):
            async with Runtime(settings, index=index) as runtime:
                runs.append(await _one_run(runtime, options, agent_factory, gate))
        return runs
    finally:
        if given is None:
            await index.close()


async def _one_run(
    runtime: Runtime,
    options: BenchOptions,
    agent_factory: AgentFactory,
    gate: _Gate,
) -> dict[str, Any]:
    """Every figure once, on a fresh runtime (empty caches), with the load at its start."""
    load = load_averages()
    tool = runtime.tool("item_search")
    search = await cold_vs_warm(tool, options.warm_repeats, options.queries)
    flight = await concurrent_identical(runtime, tool)
    gate_figures = await gate.measure(runtime, options.gate_repeats)
    turn = await _turns(agent_factory(runtime), options.turn_messages)
    return {
        "load_1m": load[0] if load else None,
        "search": {
            "cold_ms": search["cold_p50_ms"],
            "warm_ms": search["warm_p50_ms"],
            "queries": search["queries"],
            "all_cold_were_misses": search["all_cold_were_misses"],
            "all_warm_were_l1": search["all_warm_were_l1"],
        },
        "singleflight": {
            "concurrent": flight["searches"],
            "encodes": flight["encodes"],
            "vector_queries": flight["vector_queries"],
            "cache_fetches": flight["cache_fetches"],
            "joined": flight["joined"],
        },
        "gate": gate_figures,
        "turn": turn,
    }


async def _turns(agent: ShoppingAgent, messages: Sequence[str]) -> dict[str, Any]:
    """Wall time of whole offline turns, each the first of a new session, and how many
    times each read the shopper's text into a plan."""
    samples: list[float] = []
    readings: list[int] = []
    failed = 0
    for message in messages:
        started = time.perf_counter()
        try:
            summary = await collect(agent.run_turn(None, message))
        except Exception:  # a failed turn is counted, not timed
            failed += 1
            continue
        samples.append((time.perf_counter() - started) * 1000)
        readings.append(summary.readings)
    return {
        "p50_ms": round(percentile(samples, 50), 3),
        "p95_ms": round(percentile(samples, 95), 3),
        "turns": len(messages),
        "failed": failed,
        "readings": readings,
    }


class _Gate:
    """The gate's model (or why there is none) and its candidate sets, built from real
    searches on the first runtime and reused by later runs."""

    def __init__(self, reranker: Reranker | None, unavailable: str | None) -> None:
        self.reranker = reranker
        self.unavailable = unavailable
        self.cases: list[GateCase] = []

    async def measure(self, runtime: Runtime, repeats: int) -> dict[str, Any]:
        if self.reranker is None:
            return {"candidates": None, "error": self.unavailable}
        self.cases = self.cases or await gate_cases(runtime)
        latency = await gate_latency(self.reranker, self.cases, repeats=repeats)
        return {
            "candidates": latency["documents"],
            "p50_ms": latency["p50_ms"],
            "p95_ms": latency["p95_ms"],
            "model": self.reranker.model_id,
        }


def _reranker(settings: Settings) -> tuple[Reranker | None, str | None]:
    try:
        return build_reranker(settings), None
    except ConfigError as exc:
        return None, str(exc)
