"""item_picker benchmarks shared by `scripts/bench_picker.py` and `pickwise bench`: the
gate's candidate sets from real searches, and its latency with the score cache off."""

from __future__ import annotations

import time
from collections.abc import Sequence

from app.config.params.picker import PICK_RERANK_K
from app.config.registry import REGISTRY
from app.eval.bench_stats import summary_ms
from app.recall.reranker import Reranker
from app.runtime import Runtime
from app.tools.base import ToolContext, invoke_tool
from app.tools.plan import plan_from_text

__all__ = ["REQUESTS", "GateCase", "gate_case", "gate_cases", "gate_latency", "searched_context"]

REQUESTS = (
    "gaming keyboard under $80, not logitech",
    "laptop",
    "noise cancelling headphones",
    "usb flash drive 32gb",
    "27 inch 4k monitor",
    "wireless mouse under $30",
)

GateCase = tuple[str, list[str]]
"""What the gate scores in one call: the slot's category (or request) and the titles."""


async def searched_context(runtime: Runtime, request: str) -> ToolContext:
    """A context after item_search and price_compare for `request`, as autopick leaves it."""
    plan = plan_from_text([request])
    ctx = ToolContext("bench", "bench", plan=plan)
    search = {"query": plan.query_text() or request, "top_k": 30}
    await invoke_tool(runtime.tool("item_search"), search, ctx)
    await invoke_tool(runtime.tool("price_compare"), {"slot": "main"}, ctx)
    return ctx


def gate_case(runtime: Runtime, request: str, ctx: ToolContext) -> GateCase:
    """The PICK_RERANK_K best-recalled titles of the main slot, as the gate receives them."""
    ranked = sorted(ctx.candidates.slot("main"), key=lambda c: -c.recall_score)
    titles = [runtime.index.items[c.item_id].title for c in ranked[: PICK_RERANK_K.get()]]
    return (ctx.plan.category or request, titles)


async def gate_cases(runtime: Runtime, requests: Sequence[str] = REQUESTS) -> list[GateCase]:
    """One gate case per request, from real searches on the runtime's index."""
    cases = []
    for request in requests:
        ctx = await searched_context(runtime, request)
        cases.append(gate_case(runtime, request, ctx))
    return cases


async def gate_latency(
    reranker: Reranker, cases: Sequence[GateCase], *, repeats: int = 5
) -> dict[str, float]:
    """p50/p95/mean of one gate call per case, score cache off, after one warm-up call."""
    with REGISTRY.overridden(RERANKER_CACHE_SIZE=0):
        await reranker.ascore(cases[0][0], cases[0][1])
        samples: list[float] = []
        for _ in range(repeats):
            for query, titles in cases:
                started = time.perf_counter()
                await reranker.ascore(query, titles)
                samples.append(time.perf_counter() - started)
    return {**summary_ms(samples), "documents": max(len(t) for _, t in cases)}
