"""The per-turn budgets around model calls, as a hook every turn runs (LLM loop and offline
policy alike): at most AGENT_MAX_SEARCHES_PER_TURN item_search calls and at most
AGENT_MAX_ITERATIONS model calls, so a model that keeps searching cannot spin a turn."""

from __future__ import annotations

from app.config.params.agent import AGENT_MAX_ITERATIONS, AGENT_MAX_SEARCHES_PER_TURN
from app.tools.base import ToolContext, ToolError, ToolOutcome

__all__ = ["SEARCH_TOOL", "TurnBudgets"]

SEARCH_TOOL = "item_search"


class TurnBudgets:
    """A `CallGuard`: counts the turn's searches and refuses those past the
    budget with a tool error that tells the model to answer with what it has."""

    name = "budgets"

    def __init__(self) -> None:
        self.searches = 0

    def start_turn(self, ctx: ToolContext) -> None:
        self.searches = 0

    def after_tool(self, outcome: ToolOutcome, ctx: ToolContext) -> None:
        return None

    def check_call(self, tool: str, ctx: ToolContext) -> ToolError | None:
        """A search past the turn's budget is refused; every other call runs."""
        if tool != SEARCH_TOOL:
            return None
        cap = AGENT_MAX_SEARCHES_PER_TURN.get()
        if self.searches >= cap:
            return ToolError(
                code="search_limit",
                message=f"the budget of {cap} item_search calls per turn is spent; "
                "work with the results you have and answer with shopping_summary",
            )
        self.searches += 1
        return None

    def model_note(self, tool: str, outcome: ToolOutcome) -> str:
        return ""

    def allow_model_call(self, made: int) -> bool:
        """At most AGENT_MAX_ITERATIONS model calls per turn."""
        return made < AGENT_MAX_ITERATIONS.get()
