"""The hook protocol through which harnesses act between the agent's tool calls.

The agent loop (LLM-driven or the offline policy) reports every finished tool call to its
hooks and asks them for hints before each model call. The autopick harness is one such
hook: armed by a successful item_search, it runs price_compare and item_picker itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from app.tools.base import ToolContext, ToolOutcome

__all__ = ["HarnessHint", "TurnHook"]


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
