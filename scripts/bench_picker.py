"""Benchmark item_picker on the full catalog and print one JSON document: the relevance gate's
latency for PICK_RERANK_K (15) candidates with the score cache off, and each stage's p50 over
whole item_picker calls after real item_search and price_compare calls.

    .venv/bin/python scripts/bench_picker.py [--repeats 5]

Figures depend on the machine's load, which is reported with them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench_common import append_result, machine_load

from app.config.params.picker import PICK_RERANK_K
from app.config.settings import get_settings
from app.errors import ConfigError
from app.eval.bench_picker import REQUESTS, gate_case, gate_latency, searched_context
from app.recall.reranker import build_reranker
from app.runtime import Runtime
from app.tools.base import invoke_tool
from app.tools.picker import ItemPickerResult


async def run(repeats: int) -> dict[str, Any]:
    settings = get_settings()
    out: dict[str, Any] = {"load_1m_start": machine_load(), "k": PICK_RERANK_K.get()}
    async with Runtime(settings) as runtime:
        stage_ms: dict[str, list[float]] = defaultdict(list)
        cases: list[tuple[str, list[str]]] = []
        for request in REQUESTS:
            ctx = await searched_context(runtime, request)
            cases.append(gate_case(runtime, request, ctx))
            for _ in range(repeats):
                outcome = await invoke_tool(runtime.tool("item_picker"), {}, ctx)
                assert isinstance(outcome.output, ItemPickerResult), outcome.output
                for stage in outcome.output.stages:
                    stage_ms[stage.name].append(stage.ms)
                stage_ms["total"].append(outcome.ms)
        out["stages_p50_ms"] = {k: round(statistics.median(v), 3) for k, v in stage_ms.items()}
        out["stages_note"] = "gate scores are cached after the first call of each request"
        try:
            reranker = build_reranker(settings)
        except ConfigError as exc:
            out["gate"] = {"error": str(exc)}
        else:
            out["gate"] = {
                "model": reranker.model_id,
                **await gate_latency(reranker, cases, repeats=repeats),
            }
    out["load_1m_end"] = machine_load()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    result = asyncio.run(run(args.repeats))
    append_result("picker", result)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
