"""The hook protocol through which harnesses act between the agent's tool calls.

The agent loop (LLM-driven or the offline policy) reports every finished tool call to its
hooks and asks the `TurnHook`s for hints before each model call; `CallGuard`s may refuse a
call before it runs, add a note to the result the model reads and end the loop.
The harnesses in `harness/` (autopick, budgets, dependency-down) are such hooks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from app.tools.base import ToolContext, ToolError, ToolOutcome

__all__ = ["CallGuard", "HarnessHint", "Hook", "TurnHook"]


@dataclass(frozen=True)
class HarnessHint:
    """A result a harness produced on the model's behalf, injected before its next call.

    `outcomes` are the tool calls the harness ran (the trace shows them like model calls);
    `text` is what the model reads.
    """

    source: str
    text: str
    outcomes: tuple[ToolOutcome, ...] = field(default_factory=tuple)


@runtime_checkable
class TurnHook(Protocol):
    """Observes tool calls of a turn and may contribute hints before the next model call."""

    name: str

    def start_turn(self, ctx: ToolContext) -> None:
        """Reset per-turn state at the start of a turn."""
        ...

    def after_tool(self, outcome: ToolOutcome, ctx: ToolContext) -> None:
        """Called after every tool call, whoever issued it (model, policy or a harness)."""
        ...

    async def before_model_call(self, ctx: ToolContext) -> list[HarnessHint]:
        """Work to do before the model's next call; [] when there is nothing to add."""
        ...


@runtime_checkable
class CallGuard(Protocol):
    """A hook that rules on calls and gives no hints: whether a tool call may run, what the
    model reads beside a result, and whether the loop may call the model again."""

    name: str

    def start_turn(self, ctx: ToolContext) -> None:
        """Reset per-turn state at the start of a turn."""
        ...

    def after_tool(self, outcome: ToolOutcome, ctx: ToolContext) -> None:
        """Called after every tool call, whoever issued it (model, policy or a harness)."""
        ...

    def check_call(self, tool: str, ctx: ToolContext) -> ToolError | None:
        """The error a call of `tool` gets instead of running; None lets it run."""
        ...

    def model_note(self, tool: str, outcome: ToolOutcome) -> str:
        """Text added to the result of `tool` that the model reads; "" adds nothing."""
        ...

    def allow_model_call(self, made: int) -> bool:
        """Whether the loop may call the model again after `made` calls this turn."""
        ...


Hook = TurnHook | CallGuard
"""What a turn runs around its calls: hint-giving harnesses and guards."""
