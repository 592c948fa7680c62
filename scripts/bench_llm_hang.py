"""Time chat turns while the LLM hangs: a loopback server that accepts every connection and
never answers stands in for the model, and each turn must end with the rules soon after the
turn's deadline (`LLM_TURN_DEADLINE_S`). Prints one JSON document.

    .venv/bin/python scripts/bench_llm_hang.py [--deadline 20] [--turns 1]

Sessions and the search cache live in-process (no Redis). The runtime is warmed first, as
`pickwise serve` warms it before taking requests (`API_WARM_UP`). Turn times include the
rules' search and picks after the deadline; the machine's load is reported with them.
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

from app.agent.chat import collect
from app.config.registry import REGISTRY
from app.config.settings import get_settings
from app.eval.bench_stats import load_averages
from app.recall.breakers import BREAKERS
from app.runtime import Runtime
from app.runtime_agent import build_agent, warm_up

MESSAGE = "a wireless mouse under $25"


async def _silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Read the request and never answer, until the client gives up."""
    while await reader.read(65536):
        pass
    writer.close()


async def run(deadline_s: float, turns: int) -> dict[str, Any]:
    server = await asyncio.start_server(_silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    settings = get_settings().model_copy(
        update={"redis_url": None, "openai_base_url": f"http://127.0.0.1:{port}/v1"}
    )
    load_start = load_averages()
    timings: list[dict[str, Any]] = []
    warm_s = 0.0
    try:
        with REGISTRY.overridden(LLM_TURN_DEADLINE_S=deadline_s):
            async with Runtime(settings) as runtime:
                warm_s = await warm_up(runtime)  # as `pickwise serve` does before requests
                agent = build_agent(runtime)
                for _ in range(turns):
                    started = time.perf_counter()
                    summary = await collect(agent.run_turn(None, MESSAGE))
                    seconds = time.perf_counter() - started
                    timings.append(
                        {
                            "turn_s": round(seconds, 3),
                            "over_deadline_s": round(seconds - deadline_s, 3),
                            "planner": summary.planner,
                            "policy": summary.policy,
                            "picks": len(summary.picks),
                            "notes": [n for n in summary.notes if n.startswith(("planner", "pol"))],
                            "stages_ms": {t.stage: t.ms for t in summary.trace if t.ms >= 50},
                        }
                    )
    finally:
        server.close()
        await server.wait_closed()
    return {
        "deadline_s": deadline_s,
        "warm_up_s": round(warm_s, 3),
        "turns": timings,
        "breakers": {
            b.name: {"state": b.state, "failures": b.failures}
            for b in BREAKERS.states()
            if b.name.startswith("llm")
        },
        "load_avg": {"start": load_start, "end": load_averages()},
        "cpus": os.cpu_count(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deadline", type=float, default=20.0, help="LLM_TURN_DEADLINE_S")
    parser.add_argument("--turns", type=int, default=1, help="turns, one after the other")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.deadline, args.turns)), indent=2))


if __name__ == "__main__":
    main()
