"""The rule planner (no LLM): rebuild the shopping plan P_t from the recent user messages,
applying each in order so a later one can replace a budget or lift a constraint. The LLM
planner falls back to it and reuses it for budgets, currencies and negations."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from app.errors import InvalidRequest
from app.tools.plan._message_rules import read_message
from app.tools.plan._state import PlanState
from app.tools.plan.plan_change import PlanChange
from app.tools.plan.readings import note_reading
from app.tools.plan.shopping_plan import ShoppingPlan

__all__ = ["RulesReading", "apply_change", "plan_from_text", "read_plan"]


@dataclass(frozen=True)
class RulesReading:
    """One reading of the messages: the plan, and whether the latest message alone asks
    to shop (small talk inside a shopping session keeps the plan but asks nothing)."""

    plan: ShoppingPlan
    latest_is_shopping: bool
    latest: ShoppingPlan = field(default_factory=ShoppingPlan)
    """What the latest message says alone, folded from the same reading of it."""


def plan_from_text(
    messages: Sequence[str], *, previous: ShoppingPlan | None = None
) -> ShoppingPlan:
    """P_t for `messages` (recent user messages, oldest first; a bare string is one message),
    replayed on top of `previous` when given; rules are idempotent, so replaying a message
    already reflected in `previous` changes nothing."""
    return read_plan(messages, previous=previous).plan


def read_plan(
    messages: Sequence[str],
    *,
    previous: ShoppingPlan | None = None,
    changes: Sequence[PlanChange | None] = (),
) -> RulesReading:
    """`plan_from_text` with what the latest message alone says, from the same reading;
    `changes[i]`, a follow-up's typed change, is made right after message i."""
    batch = [messages] if isinstance(messages, str) else list(messages)
    if not all(isinstance(m, str) for m in batch):
        raise InvalidRequest("plan_from_text expects the user messages as strings")
    note_reading()
    state = PlanState.seed(previous)
    alone = PlanState()
    latest_is_shopping = False
    for n, message in enumerate(batch):
        reading = read_message(message)
        state.apply(reading)
        change = changes[n] if n < len(changes) else None
        if change is not None:
            state.change(change)
        latest_is_shopping = not reading.not_shopping
        if n == len(batch) - 1:
            alone.apply(reading)
    return RulesReading(state.plan(previous), latest_is_shopping, alone.plan(None))


def apply_change(plan: ShoppingPlan, change: PlanChange | None) -> ShoppingPlan:
    """`plan` with a follow-up's typed change made, as a replay makes it after its message."""
    if change is None:
        return plan
    state = PlanState.seed(plan)
    state.change(change)
    return state.plan(plan)
