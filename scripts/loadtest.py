"""Load-test the API on loopback and print one JSON document: N sessions x M SSE turns (time to
first event p50/p95, crossed sessions, unsaved turns) and a burst of simultaneous turns (5xx,
refusal latency, health right after). Bounded in count and in time.

    .venv/bin/python scripts/loadtest.py [--sessions 50] [--turns 5] [--burst 200]
        [--url http://127.0.0.1:8000 | --redis auto|none|redis://127.0.0.1:6379/5]

Without --url it starts its own `pickwise serve` (and with --redis auto, the default, its own
redis-server) on free loopback ports and stops them afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.config.settings import get_settings
from app.eval.bench_stats import append_result, load_averages
from app.eval.load import LoadOptions, run_load, run_sessions
from app.eval.load_serve import private_redis, served


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--turns", type=int, default=5)
    parser.add_argument("--burst", type=int, default=200, help="0 skips the burst")
    parser.add_argument("--url", help="an already running server on loopback")
    parser.add_argument("--redis", default="auto", help="auto (own redis-server), none, or a URL")
    parser.add_argument("--time-limit", type=float, default=420.0, help="seconds per phase")
    parser.add_argument("--record", action="store_true", help="append to bench/results.jsonl")
    args = parser.parse_args()
    options = LoadOptions(
        sessions=args.sessions, turns=args.turns, burst=args.burst, time_limit_s=args.time_limit
    )
    load_start = load_averages()
    with ExitStack() as stack:
        base_url = args.url or stack.enter_context(
            served(get_settings(), _redis(stack, args.redis))
        )
        report = asyncio.run(_run(base_url, options))
    report |= {"load_avg": {"start": load_start, "end": load_averages()}, "cpus": os.cpu_count()}
    report["redis"] = "external" if args.url else args.redis
    if args.record:
        report = append_result("loadtest", report)
    print(json.dumps(report, indent=2))


def _redis(stack: ExitStack, choice: str) -> str | None:
    if choice == "none":
        return None
    if choice == "auto":
        return stack.enter_context(private_redis())
    return choice


async def _run(base_url: str, options: LoadOptions) -> dict[str, Any]:
    if options.burst > 0:
        return await run_load(base_url, options)
    return {"sessions": await run_sessions(base_url, options)}


if __name__ == "__main__":
    main()
