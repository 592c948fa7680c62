"""How a turn's plan P_t is made: the planner reads the recent messages, the new one last,
once; the new message's follow-up is settled on that reading and its typed change made, and
kept beside the words so a replay makes it again. A message that changes no plan (a
question about the picks shown) leaves the plan as the shopper last saw it."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from app.agent._turn import Turn
from app.agent.follow_ups import FollowUp, read_follow_up
from app.agent.plan_edit import apply_held_edit
from app.catalog.item import Item
from app.errors import DependencyDown, InvalidRequest, PickwiseError
from app.tools.base import Tool, invoke_tool
from app.tools.plan import ShoppingPlan, apply_change
from app.tools.planner import PlannerResult

__all__ = ["plan_turn"]

log = logging.getLogger(__name__)


async def plan_turn(
    turn: Turn,
    planner: Tool[Any, Any],
    said: str | None,
    *,
    shops: tuple[str, ...] = (),
    items: Mapping[str, Item] | None = None,
) -> PlannerResult:
    """Rebuild P_t for the turn, with the shopper's plan edit while it holds (`said`, the new
    message, may lift it) and `shops` when the plan names none; a new product clears old
    candidates."""
    session, cues = turn.session, turn.cues
    if cues is not None and cues.settled is not None:
        _note_follow_up(turn, cues.settled, items or {})
        return _unchanged(turn)
    planned = await _read(turn, planner, cues.text if cues is not None else None)
    if cues is not None:
        follow_up = read_follow_up(cues, session, planned.latest)
        _note_follow_up(turn, follow_up, items or {})
        if follow_up.planned is None:
            return _unchanged(turn, planned)
        if follow_up.planned != cues.text:  # a reference-like phrase that is none
            planned = await _read(turn, planner, follow_up.planned)
        session.keep_message(follow_up.planned, follow_up.change)
        if follow_up.change is not None:  # "something bigger" asks to shop for the change
            changed = apply_change(planned.plan, follow_up.change)
            planned = planned.model_copy(update={"plan": changed, "turn_is_shopping": True})
    plan, session.plan_edit = apply_held_edit(session.plan_edit, planned.plan, said, session.plan)
    if shops and not plan.platforms:
        plan = plan.model_copy(update={"platforms": shops})
    previous = session.plan
    if previous is not None and previous.category != plan.category:
        turn.ctx.candidates.clear()
    turn.ctx.plan = session.plan = plan
    turn.notes += planned.notes
    turn.planner = "rules" if planned.source == "rules" else "llm"
    turn.emit("plan", plan=plan.model_dump(mode="json"), source=planned.source)
    return planned


async def _read(turn: Turn, planner: Tool[Any, Any], message: str | None) -> PlannerResult:
    """The planner's one reading of the recent messages, `message` last, with the typed
    changes their follow-ups made."""
    messages, changes = turn.session.planner_messages(message)
    args = {"messages": messages, "changes": [c and c.model_dump() for c in changes]}
    with turn.stage("planner"):
        outcome = await invoke_tool(planner, args, turn.ctx)
    if not isinstance(outcome.output, PlannerResult):
        log.warning("turn %s: the planner failed: %s", turn.turn_id, outcome.output.render())
        failed = outcome.output
        raise _planner_failure(getattr(failed, "code", ""), getattr(failed, "details", {}))
    return outcome.output


def _note_follow_up(turn: Turn, follow_up: FollowUp, items: Mapping[str, Item]) -> None:
    """Note on the turn what the message asks of the picks shown."""
    turn.ctx.shown_before = follow_up.shown_before
    turn.notes += [follow_up.note] if follow_up.note else []
    turn.asked_about = follow_up.asked_about
    turn.asked_count = follow_up.count
    turn.count_picks = follow_up.count_picks
    turn.asked_question = follow_up.question
    turn.asked_part = follow_up.question_part
    turn.asked_picks = follow_up.question_picks
    turn.asked_trait = follow_up.trait
    turn.trait_items = [(p, items.get(p.item_id)) for p in follow_up.trait_picks]


def _unchanged(turn: Turn, planned: PlannerResult | None = None) -> PlannerResult:
    """The plan of a message that changes none: as the shopper last saw it."""
    plan = turn.session.plan or ShoppingPlan()
    source = planned.source if planned is not None else "rules"
    turn.ctx.plan = plan
    turn.planner = "rules" if source == "rules" else "llm"
    turn.emit("plan", plan=plan.model_dump(mode="json"), source=source)
    shopping = planned.turn_is_shopping if planned is not None else plan.is_shopping
    return PlannerResult(plan=plan, source=source, turn_is_shopping=shopping)


def _planner_failure(code: str, details: Mapping[str, Any]) -> PickwiseError:
    """What a failed planner call tells the shopper: the kind of failure, never the tool's
    own error text (logged instead)."""
    if code == DependencyDown.code:
        return DependencyDown(str(details.get("dependency", "planner")), "needed by the planner")
    if code in ("invalid_arguments", InvalidRequest.code):
        return InvalidRequest("the planner could not read this message")
    return PickwiseError("the planner failed; see the server log")
