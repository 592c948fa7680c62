"""The harness's guards as hooks: the budgets bound searches and model calls per turn, the
dependency-down guard refuses a tool found down and writes the do-not-retry note, and the
production set runs them before autopick."""

from __future__ import annotations

from typing import Any

from app.agent.hooks import CallGuard, TurnHook
from app.config.registry import REGISTRY
from app.errors import DependencyDown
from app.tools.base import ToolContext, ToolError, ToolOutcome, ToolResult
from harness import AutopickHook, DependencyDownGuard, TurnBudgets, turn_hooks


class Done(ToolResult):
    pass


def down(tool: str, dependency: str) -> ToolOutcome:
    error = ToolError(code=DependencyDown.code, message="down", details={"dependency": dependency})
    return ToolOutcome(tool, error, 1.0)


def test_the_guards_are_call_guards_and_autopick_a_hint_giving_hook() -> None:
    for guard in (TurnBudgets(), DependencyDownGuard()):
        assert isinstance(guard, CallGuard)
        assert not isinstance(guard, TurnHook), "guards give no hints: no harness stage"
    assert isinstance(AutopickHook({}), TurnHook)
    assert not isinstance(AutopickHook({}), CallGuard)


def test_the_budgets_count_searches_per_turn_and_bound_model_calls() -> None:
    budgets, ctx = TurnBudgets(), ToolContext("s", "t")
    with REGISTRY.overridden(AGENT_MAX_SEARCHES_PER_TURN=1, AGENT_MAX_ITERATIONS=3):
        assert budgets.check_call("item_search", ctx) is None
        refused = budgets.check_call("item_search", ctx)
        assert refused is not None
        assert refused.code == "search_limit"
        assert budgets.check_call("item_picker", ctx) is None
        budgets.start_turn(ctx)
        assert budgets.check_call("item_search", ctx) is None, "a new turn has a new budget"
        assert [budgets.allow_model_call(n) for n in range(5)] == [True] * 3 + [False] * 2


def test_a_down_tool_is_refused_with_its_dependency_and_the_model_reads_the_note() -> None:
    guard, ctx = DependencyDownGuard(), ToolContext("s", "t")
    outcome = down("item_search", "qdrant")
    assert guard.model_note("item_search", outcome).startswith("NOTE: qdrant is unavailable")
    assert guard.model_note("item_search", ToolOutcome("item_search", Done(), 1.0)) == ""
    assert guard.check_call("item_search", ctx) is None
    guard.after_tool(outcome, ctx)
    refused = guard.check_call("item_search", ctx)
    assert refused is not None
    assert refused.details == {"dependency": "qdrant"}
    assert guard.check_call("price_compare", ctx) is None
    guard.start_turn(ctx)
    assert guard.check_call("item_search", ctx) is None, "the next turn tries again"


def test_a_production_turn_runs_the_guards_then_autopick_or_the_given_harnesses() -> None:
    tools: dict[str, Any] = {}
    assert [h.name for h in turn_hooks(tools)] == ["budgets", "dependency_down", "autopick"]
    watcher = AutopickHook(tools)
    watcher.name = "watcher"
    assert [h.name for h in turn_hooks(tools, [watcher])] == [
        "budgets",
        "dependency_down",
        "watcher",
    ]
