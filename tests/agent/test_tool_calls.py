"""The tool-call runner on probe tools: a batch of concurrency-safe calls overlaps, one unsafe
call makes the batch serial; unknown tools, calls past the per-step cap and, with the
harness's guards, searches past the turn's budget and calls to a tool found down are refused
as tool errors; hooks see every call and their own calls show up as tool events."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, cast

import pytest
from pydantic import BaseModel, ConfigDict

from app.agent._tool_calls import PlannedCall, run_calls
from app.agent._turn import Turn
from app.agent.events import TurnEvent
from app.agent.hooks import HarnessHint
from app.agent.session import Session
from app.config.registry import REGISTRY
from app.errors import DependencyDown
from app.tools.base import Tool, ToolContext, ToolError, ToolOutcome, ToolResult
from harness.budgets import TurnBudgets
from harness.dependency_down import DependencyDownGuard


class ProbeArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    label: str


class ProbeResult(ToolResult):
    label: str


@dataclass
class Meter:
    """How many probe runs overlap, and how many ran."""

    current: int = 0
    peak: int = 0
    runs: int = 0


class ProbeTool:
    """A tool that yields to the event loop while it runs and records the overlap."""

    description = "probe"
    args_model = ProbeArgs
    terminal = False

    def __init__(self, name: str, meter: Meter, *, safe: bool = True, down: bool = False):
        self.name = name
        self.concurrency_safe = safe
        self.meter = meter
        self.down = down

    async def run(self, args: ProbeArgs, ctx: ToolContext) -> ProbeResult:
        self.meter.runs += 1
        self.meter.current += 1
        self.meter.peak = max(self.meter.peak, self.meter.current)
        for _ in range(5):
            await asyncio.sleep(0)
        self.meter.current -= 1
        if self.down:
            raise DependencyDown("opensearch", "connection refused")
        return ProbeResult(label=args.label)


class RecordingHook:
    """Records every outcome it is shown; hands out one prepared hint once."""

    name = "recorder"

    def __init__(self, hint: HarnessHint | None = None) -> None:
        self.seen: list[str] = []
        self.hint = hint

    def start_turn(self, ctx: ToolContext) -> None:
        self.seen.clear()

    def after_tool(self, outcome: ToolOutcome, ctx: ToolContext) -> None:
        self.seen.append(f"{outcome.tool}:{'ok' if outcome.ok else outcome.output.code}")  # type: ignore[union-attr]

    async def before_model_call(self, ctx: ToolContext) -> list[HarnessHint]:
        hint, self.hint = self.hint, None
        return [hint] if hint else []


def make_turn(*hooks: Any) -> Turn:
    ctx = ToolContext("s", "t")
    return Turn(Session(session_id="s"), "t", "a message", ctx, hooks, "offline")


def calls(*names: str) -> list[PlannedCall]:
    return [PlannedCall(f"c{n}", name, {"label": f"l{n}"}, "model") for n, name in enumerate(names)]


def drained(turn: Turn) -> list[TurnEvent]:
    events = []
    while not turn.queue.empty():
        event = turn.queue.get_nowait()
        assert event is not None
        events.append(event)
    return events


def probe_tool(name: str, meter: Meter, *, safe: bool = True, down: bool = False) -> Tool[Any, Any]:
    """A ProbeTool as the runner sees it: the Tool protocol declares a name per class, the
    probe sets one per instance."""
    return cast("Tool[Any, Any]", ProbeTool(name, meter, safe=safe, down=down))


def codes(outcomes: list[ToolOutcome]) -> list[str]:
    return ["ok" if o.ok else o.output.code for o in outcomes]  # type: ignore[union-attr]


async def test_concurrency_safe_calls_overlap_and_keep_their_order() -> None:
    meter = Meter()
    tools: dict[str, Tool[Any, Any]] = {"a": probe_tool("a", meter), "b": probe_tool("b", meter)}
    turn = make_turn()
    outcomes = await run_calls(turn, tools, calls("a", "b", "a"))
    assert meter.peak == 3
    assert [o.output.label for o in outcomes] == ["l0", "l1", "l2"]  # type: ignore[union-attr]
    events = drained(turn)
    assert [(e.type, e.data["call_id"]) for e in events] == [
        ("tool_start", "c0"),
        ("tool_start", "c1"),
        ("tool_start", "c2"),
        ("tool_end", "c0"),
        ("tool_end", "c1"),
        ("tool_end", "c2"),
    ]
    assert events[0].data["arguments"] == {"label": "l0"}
    assert [t.stage for t in turn.trace] == ["tool.a", "tool.b", "tool.a"]


async def test_one_unsafe_call_makes_the_batch_serial() -> None:
    meter = Meter()
    tools: dict[str, Tool[Any, Any]] = {
        "a": probe_tool("a", meter),
        "w": probe_tool("w", meter, safe=False),
    }
    outcomes = await run_calls(make_turn(), tools, calls("a", "w", "a"))
    assert meter.peak == 1
    assert meter.runs == 3
    assert codes(outcomes) == ["ok", "ok", "ok"]


async def test_an_unknown_tool_is_an_error_result_and_the_rest_still_runs() -> None:
    meter = Meter()
    tools: dict[str, Tool[Any, Any]] = {"a": probe_tool("a", meter)}
    turn = make_turn()
    outcomes = await run_calls(turn, tools, calls("teleport", "a"))
    assert codes(outcomes) == ["unknown_tool", "ok"]
    error = outcomes[0].output
    assert isinstance(error, ToolError)
    assert "available: a" in error.message
    end = next(e for e in drained(turn) if e.type == "tool_end")
    assert end.data["ok"] is False
    assert end.data["code"] == "unknown_tool"


async def test_searches_past_the_turn_budget_and_calls_past_the_step_cap_are_refused() -> None:
    meter = Meter()
    tools: dict[str, Tool[Any, Any]] = {"item_search": probe_tool("item_search", meter)}
    turn = make_turn(TurnBudgets())
    with REGISTRY.overridden(AGENT_MAX_SEARCHES_PER_TURN=2, AGENT_MAX_TOOL_CALLS_PER_STEP=4):
        first = await run_calls(turn, tools, calls(*["item_search"] * 3))
        second = await run_calls(turn, tools, calls("item_search"))
        third = await run_calls(turn, tools, calls(*["nope"] * 5))
    assert codes(first) == ["ok", "ok", "search_limit"]
    assert codes(second) == ["search_limit"]
    assert codes(third) == ["unknown_tool"] * 4 + ["too_many_calls"]
    assert meter.runs == 2


async def test_a_tool_found_down_is_not_called_again_this_turn() -> None:
    meter = Meter()
    tools: dict[str, Tool[Any, Any]] = {"kb": probe_tool("kb", meter, down=True)}
    turn = make_turn(DependencyDownGuard())
    (first,) = await run_calls(turn, tools, calls("kb"))
    (again,) = await run_calls(turn, tools, calls("kb"))
    assert codes([first, again]) == ["dependency_down", "dependency_down"]
    assert meter.runs == 1
    assert isinstance(again.output, ToolError)
    assert again.output.details == {"dependency": "opensearch"}
    assert "do not call it again" in again.output.message


async def test_without_the_guards_the_runner_refuses_nothing_a_hook_would() -> None:
    meter = Meter()
    tools: dict[str, Tool[Any, Any]] = {"kb": probe_tool("kb", meter, down=True)}
    turn = make_turn()
    with REGISTRY.overridden(AGENT_MAX_SEARCHES_PER_TURN=1):
        await run_calls(turn, tools, calls("kb"))
        await run_calls(turn, tools, calls("kb"))
    assert meter.runs == 2, "the refusals are the harness's, not the runner's"


async def test_hooks_see_every_call_and_their_own_calls_become_tool_events() -> None:
    meter = Meter()
    tools: dict[str, Tool[Any, Any]] = {"a": probe_tool("a", meter)}
    own = ToolOutcome("price_compare", ProbeResult(label="by the hook"), 2.5)
    hook = RecordingHook(HarnessHint(source="recorder", text="look", outcomes=(own,)))
    turn = make_turn(hook)
    await run_calls(turn, tools, calls("a", "ghost"))
    hints = await turn.hints()
    assert [h.text for h in hints] == ["look"]
    assert await turn.hints() == []
    assert hook.seen == ["a:ok", "ghost:unknown_tool", "price_compare:ok"]
    events = drained(turn)
    assert [(e.type, e.data["tool"], e.data["by"]) for e in events[-2:]] == [
        ("tool_start", "price_compare", "recorder"),
        ("tool_end", "price_compare", "recorder"),
    ]
    assert "harness.recorder" in [t.stage for t in turn.trace]


@pytest.mark.parametrize("arguments", ['{"label": ', '{"label": 3}', '["l"]'])
async def test_bad_arguments_come_back_as_structured_errors(arguments: str) -> None:
    meter = Meter()
    tools: dict[str, Tool[Any, Any]] = {"a": probe_tool("a", meter)}
    (outcome,) = await run_calls(make_turn(), tools, [PlannedCall("c", "a", arguments, "model")])
    assert isinstance(outcome.output, ToolError)
    assert outcome.output.code == "invalid_arguments"
    assert outcome.output.retry is True
    assert meter.runs == 0
