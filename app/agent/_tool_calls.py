"""Runs a batch of tool calls for the loop or the offline policy through `invoke_tool`: all
concurrency-safe calls in parallel, otherwise one by one; unknown tools, calls past the
per-step cap and calls a hook refuses (budgets, a tool found down) become tool errors."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.agent._turn import Turn, tool_end_data
from app.config.params.agent import AGENT_MAX_TOOL_CALLS_PER_STEP
from app.tools.base import Tool, ToolError, ToolOutcome, invoke_tool


@dataclass(frozen=True)
class PlannedCall:
    """One tool call to make: who asked (model, policy, agent) and the raw arguments."""

    call_id: str
    name: str
    arguments: str | dict[str, Any]
    by: str


async def run_calls(
    turn: Turn, tools: Mapping[str, Tool[Any, Any]], calls: Sequence[PlannedCall]
) -> list[ToolOutcome]:
    """Run `calls` (one model reply or one policy step) and return outcomes in call order."""
    refused = _refusals(turn, tools, calls)
    for call in calls:
        turn.emit(
            "tool_start",
            call_id=call.call_id,
            tool=call.name,
            by=call.by,
            arguments=_readable(call.arguments),
        )
    runnable = [c for c in calls if c.call_id not in refused]
    parallel = all(tools[c.name].concurrency_safe for c in runnable)
    if parallel:
        ran = await asyncio.gather(
            *(invoke_tool(tools[c.name], c.arguments, turn.ctx) for c in runnable)
        )
    else:
        ran = [await invoke_tool(tools[c.name], c.arguments, turn.ctx) for c in runnable]
    by_id = dict(zip((c.call_id for c in runnable), ran, strict=True)) | refused
    outcomes = []
    for call in calls:
        outcome = by_id[call.call_id]
        turn.emit("tool_end", **tool_end_data(call.call_id, outcome, call.by))
        turn.record(outcome, call.by)
        outcomes.append(outcome)
    return outcomes


def _refusals(
    turn: Turn, tools: Mapping[str, Tool[Any, Any]], calls: Sequence[PlannedCall]
) -> dict[str, ToolOutcome]:
    """Calls answered with an error without running, decided in call order."""
    refused: dict[str, ToolOutcome] = {}
    step_cap = AGENT_MAX_TOOL_CALLS_PER_STEP.get()
    for n, call in enumerate(calls):
        error: ToolError | None = None
        if n >= step_cap:
            error = ToolError(
                code="too_many_calls",
                message=f"at most {step_cap} tool calls per step; repeat the ones you need",
                retry=True,
            )
        elif call.name not in tools:
            error = ToolError(
                code="unknown_tool",
                message=f"there is no tool {call.name!r}; available: {', '.join(sorted(tools))}",
                retry=True,
            )
        else:
            error = turn.check_call(call.name)
        if error is not None:
            refused[call.call_id] = ToolOutcome(call.name, error, 0.0)
    return refused


def _readable(arguments: str | dict[str, Any]) -> Any:
    """Arguments as JSON when they parse, else the raw text the model wrote."""
    if isinstance(arguments, dict):
        return arguments
    try:
        return json.loads(arguments) if arguments else {}
    except json.JSONDecodeError:
        return arguments
