"""Checks every test applies to a turn's events: the documented order and pairing."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

from app.agent.events import TurnEvent


async def gather_events(events: AsyncIterator[TurnEvent]) -> list[TurnEvent]:
    """Every event of a turn, checked for order before it is returned."""
    collected = [event async for event in events]
    check_order(collected)
    return collected


def check_order(events: Sequence[TurnEvent]) -> None:
    """`session` first, `plan` second, one terminal event last, tool events paired, picks
    after an item_picker, message deltas after every tool event; one turn and session id."""
    types = [e.type for e in events]
    assert types[0] == "session", types
    assert types[-1] in {"done", "error"}, types
    assert sum(t in {"done", "error"} for t in types) == 1, types
    assert len({(e.turn_id, e.session_id) for e in events}) == 1
    if types[-1] == "error":
        return
    assert types[1] == "plan", types
    started: dict[str, str] = {}
    ended: set[str] = set()
    picked = False
    for n, event in enumerate(events):
        if event.type == "tool_start":
            assert event.data["call_id"] not in started, event.data
            started[event.data["call_id"]] = event.data["tool"]
        elif event.type == "tool_end":
            call_id = event.data["call_id"]
            assert started.get(call_id) == event.data["tool"], event.data
            assert call_id not in ended
            ended.add(call_id)
            picked = picked or (event.data["tool"] == "item_picker" and event.data["ok"])
        elif event.type == "picks":
            assert picked, "a picks event before any successful item_picker"
        elif event.type == "message_delta":
            assert all(t in {"message_delta", "done"} for t in types[n:]), types
    assert set(started) == ended, "every tool_start has its tool_end"
    assert "message_delta" in types


def of_type(events: Sequence[TurnEvent], kind: str) -> list[TurnEvent]:
    return [e for e in events if e.type == kind]


def tool_calls(events: Sequence[TurnEvent], tool: str | None = None) -> list[dict[str, object]]:
    """The data of every tool_end event (of one tool)."""
    return [e.data for e in of_type(events, "tool_end") if tool is None or e.data["tool"] == tool]
