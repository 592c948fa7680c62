"""Every hook around the model's calls, run by the LLM loop and the offline policy alike:
autopick (compare and pick after a search), the per-turn budgets and the dependency-down
guard. `turn_hooks` is the set a production turn runs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.agent.hooks import Hook
from app.tools.base import Tool
from harness.autopick import AutopickHook
from harness.budgets import TurnBudgets
from harness.dependency_down import DependencyDownGuard

__all__ = ["AutopickHook", "DependencyDownGuard", "TurnBudgets", "turn_hooks"]


def turn_hooks(
    tools: Mapping[str, Tool[Any, Any]], extra: Sequence[Hook] | None = None
) -> list[Hook]:
    """Fresh hooks for one turn: the guards first, then `extra` (default: autopick)."""
    harnesses = list(extra) if extra is not None else [AutopickHook(tools)]
    return [TurnBudgets(), DependencyDownGuard(), *harnesses]
