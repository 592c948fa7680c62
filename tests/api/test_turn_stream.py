"""`TurnStream` on its own: keep-alive ticks while the agent is quiet, the terminal event is
always the last, a turn without one gets an `error`, and `close()` cancels a running turn."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from app.agent.events import EventType, TurnEvent
from app.api._sse import KEEPALIVE, encode_event
from app.api._turn import TurnStream
from app.errors import PickwiseError
from tests.api.sse import parse_sse


def ev(type_: EventType, **data: object) -> TurnEvent:
    return TurnEvent(type=type_, turn_id="t1", session_id="s1", data=data)


class GatedAgent:
    """Yields `session`, waits for `gate`, then yields the rest of `after`."""

    def __init__(self, after: list[TurnEvent]) -> None:
        self.gate = asyncio.Event()
        self.waiting = asyncio.Event()
        self.after = after
        self.cancelled = False
        self.closed_after_done = False

    async def run_turn(self, session_id: str | None, message: str) -> AsyncIterator[TurnEvent]:
        yield ev("session")
        self.waiting.set()
        try:
            await self.gate.wait()
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        for event in self.after:
            yield event
        self.closed_after_done = True


async def test_quiet_agent_gets_keepalive_ticks_then_its_events() -> None:
    agent = GatedAgent([ev("plan"), ev("done", answer="ok")])
    stream = TurnStream(agent, None, "hi")
    try:
        assert (await stream.start()).type == "session"
        seen: list[str] = []
        async for event in stream.rest(lambda: 0.01):
            if event is None:
                seen.append("tick")
                agent.gate.set()
            else:
                seen.append(event.type)
    finally:
        await stream.close()
    assert seen[0] == "tick"
    assert [s for s in seen if s != "tick"] == ["plan", "done"]
    assert agent.closed_after_done
    assert not stream.cancelled


async def test_events_after_the_terminal_one_are_dropped_and_the_agent_finishes() -> None:
    agent = GatedAgent([ev("done"), ev("message_delta", text="late")])
    agent.gate.set()
    stream = TurnStream(agent, None, "hi")
    events = [e.type async for e in stream.events()]
    await stream.close()
    assert events == ["session", "done"]
    assert agent.closed_after_done


async def test_a_turn_without_terminal_event_ends_with_an_error() -> None:
    agent = GatedAgent([ev("plan")])
    agent.gate.set()
    stream = TurnStream(agent, None, "hi")
    events = [e async for e in stream.events()]
    await stream.close()
    assert [e.type for e in events] == ["session", "plan", "error"]
    assert events[-1].data["code"] == "internal_error"
    assert (events[-1].turn_id, events[-1].session_id) == ("t1", "s1")


async def test_an_agent_without_events_fails_before_streaming() -> None:
    class Silent:
        async def run_turn(self, session_id: str | None, message: str) -> AsyncIterator[TurnEvent]:
            return
            yield

    stream = TurnStream(Silent(), None, "hi")
    with pytest.raises(PickwiseError, match="without any event"):
        await stream.start()
    await stream.close()


async def test_close_cancels_a_running_turn() -> None:
    agent = GatedAgent([ev("done")])
    stream = TurnStream(agent, None, "hi")
    await stream.start()
    await agent.waiting.wait()
    await stream.close()
    assert agent.cancelled
    assert stream.cancelled


def test_sse_blocks_carry_type_ids_and_the_whole_event() -> None:
    text = (encode_event(ev("session"), 0) + KEEPALIVE + encode_event(ev("done", a=1), 1)).decode()
    messages = parse_sse(text)
    assert [(m.event, m.id) for m in messages] == [("session", "t1:0"), ("done", "t1:1")]
    assert messages[1].data == {
        "type": "done",
        "turn_id": "t1",
        "session_id": "s1",
        "data": {"a": 1},
    }
