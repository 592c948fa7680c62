"""The dependency-down harness: once a tool's dependency is found down in a turn, later calls
of that tool are refused without running, and the model reads, beside the failed result,
that it must not retry and should tell the shopper what is unavailable."""

from __future__ import annotations

from app.errors import DependencyDown
from app.tools.base import ToolContext, ToolError, ToolOutcome

__all__ = ["NOTE", "DependencyDownGuard"]

NOTE = (
    "NOTE: {dependency} is unavailable right now. Do not call {tool} again in this turn. "
    "Tell the shopper plainly that this part is unavailable and answer with what you have."
)


class DependencyDownGuard:
    """A `CallGuard` that remembers, per turn, the tools whose dependency
    was down and which dependency it was."""

    name = "dependency_down"

    def __init__(self) -> None:
        self.down: dict[str, str] = {}

    def start_turn(self, ctx: ToolContext) -> None:
        self.down.clear()

    def after_tool(self, outcome: ToolOutcome, ctx: ToolContext) -> None:
        dependency = _down_dependency(outcome)
        if dependency is not None:
            self.down[outcome.tool] = dependency

    def check_call(self, tool: str, ctx: ToolContext) -> ToolError | None:
        """A tool found down this turn is not called again."""
        if tool not in self.down:
            return None
        dependency = self.down[tool]
        return ToolError(
            code=DependencyDown.code,
            message=f"{tool} is unavailable this turn ({dependency or 'a dependency'} is down); "
            "do not call it again, tell the shopper",
            details={"dependency": dependency},
        )

    def model_note(self, tool: str, outcome: ToolOutcome) -> str:
        """The do-not-retry note beside a dependency_down result."""
        dependency = _down_dependency(outcome)
        if dependency is None:
            return ""
        return NOTE.format(dependency=dependency or "a dependency", tool=tool)

    def allow_model_call(self, made: int) -> bool:
        return True


def _down_dependency(outcome: ToolOutcome) -> str | None:
    """The dependency a dependency_down result names ("" when unnamed); None otherwise."""
    error = outcome.output
    if isinstance(error, ToolError) and error.code == DependencyDown.code:
        return str(error.details.get("dependency") or "")
    return None
