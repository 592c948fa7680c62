"""The planner tool: a shopper's messages to a ShoppingPlan, by the rules or by an LLM draft
the rules check."""

from app.tools.planner.planner import (
    DEMO_SHOPS,
    PlannerArgs,
    PlannerResult,
    PlannerTool,
    merge_plans,
    platform_scope,
)

__all__ = [
    "DEMO_SHOPS",
    "PlannerArgs",
    "PlannerResult",
    "PlannerTool",
    "merge_plans",
    "platform_scope",
]
