"""Run WebShop's human goals through the whole offline turn and print one JSON document:
crashes (must be 0), outcome counts, turn p50/p95 and the rate. CPU-heavy: try a slice first.

    .venv/bin/python scripts/bench_webshop.py [--offset 0] [--limit 500] [--time-limit 1500]
        [--record]

Sessions and the search cache live in-process (no Redis, no LLM). Figures depend on the
machine's load, which is reported with them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.config.settings import get_settings
from app.eval.bench_stats import append_result, load_averages
from app.eval.webshop import load_goals, run_goals
from app.runtime import Runtime
from app.runtime_agent import build_agent


async def run(offset: int, limit: int | None, time_limit_s: float) -> dict[str, Any]:
    settings = get_settings().model_copy(update={"redis_url": None, "openai_base_url": None})
    goals = load_goals(settings.data_dir)
    chosen = goals[offset : offset + limit if limit else None]
    load_start = load_averages()
    async with Runtime(settings) as runtime:
        deadline = time.monotonic() + time_limit_s
        result = await run_goals(build_agent(runtime), chosen, deadline=deadline)
    report = result.report()
    return {
        "of_goals": len(goals),
        "offset": offset,
        "asked": len(chosen),
        "stopped_by_time_limit": report["goals"] < len(chosen),
        **report,
        "load_avg": {"start": load_start, "end": load_averages()},
        "cpus": os.cpu_count(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--offset", type=int, default=0)
    parser.add_argument("--limit", type=int, default=None, help="goals to run (default: all)")
    parser.add_argument("--time-limit", type=float, default=1500.0, help="seconds at most")
    parser.add_argument("--record", action="store_true", help="append to bench/results.jsonl")
    args = parser.parse_args()
    report = asyncio.run(run(args.offset, args.limit, args.time_limit))
    if args.record:
        report = append_result("webshop", report)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
