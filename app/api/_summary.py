"""Fold a finished turn's events into a `TurnSummary` for `?stream=false`."""

from __future__ import annotations

from collections.abc import Sequence

from app.agent.events import PickView, StageTiming, TurnEvent, TurnSummary


def summarize(events: Sequence[TurnEvent]) -> TurnSummary:
    """The last plan and picks, the answer (from `done`, else the deltas) and the trace."""
    first, last = events[0], events[-1]
    plan: dict[str, object] = {}
    picks: list[PickView] = []
    deltas: list[str] = []
    for event in events:
        if event.type == "plan":
            plan = dict(event.data.get("plan", event.data))
        elif event.type == "picks":
            picks = [PickView.model_validate(p) for p in event.data.get("picks", [])]
        elif event.type == "message_delta":
            deltas.append(str(event.data.get("text", "")))
    answer = str(last.data.get("answer", "".join(deltas)))
    trace = [StageTiming.model_validate(t) for t in last.data.get("trace", [])]
    return TurnSummary(
        session_id=first.session_id,
        turn_id=first.turn_id,
        answer=answer,
        picks=picks,
        plan=plan,
        trace=trace,
    )
