"""An in-test `ChatAgent` that yields a scripted event sequence, so the API's HTTP semantics
are pinned apart from the real agent: what a message asks for decides how the turn goes.
It owns its sessions as the real agent does (`SessionAccess`: issued ids and tokens)."""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import AsyncIterator
from typing import Any

from app.agent._session_stores import MemorySessionStore
from app.agent.events import EventType, PickView, TurnEvent
from app.agent.session_access import SessionAccess, as_access
from app.errors import DependencyDown, InvalidRequest
from app.tools.plan.shopping_plan import ShoppingPlan

FAIL_BEFORE = "fail before"
FAIL_MIDWAY = "fail midway"
BUG_MIDWAY = "bug midway"
ERROR_EVENT = "error event"
ERROR_FIRST = "error first"
REJECT = "reject"
HANG = "hang"


class ScriptedAgent:
    """Plan = the words of the user messages so far; one pick named after the message.

    `hang` blocks until cancelled (recorded in `cancelled`, a thread-safe event, since a real
    server runs the agent in another thread); `started` is set when a hanging turn began.
    """

    def __init__(self) -> None:
        self.sessions = MemorySessionStore()
        self.started = threading.Event()
        self.cancelled = threading.Event()
        self.finished_turns: list[str] = []

    owns_sessions = True

    async def run_turn(
        self, reach: SessionAccess | str | None, message: str
    ) -> AsyncIterator[TurnEvent]:
        if message == FAIL_BEFORE:
            raise DependencyDown("redis", "connection refused")
        if message == REJECT:
            raise InvalidRequest("the agent rejects this message")
        access = as_access(reach)
        stored = await self.sessions.get(access.session_id) if access.session_id else None
        session, created, token = access.open(stored)
        sid = session.session_id
        issued = {"session_token": token} if token else {}
        turn = f"t{uuid.uuid4().hex[:12]}"

        def event(type_: EventType, **data: Any) -> TurnEvent:
            return TurnEvent(type=type_, turn_id=turn, session_id=sid, data=data)

        if message == ERROR_FIRST:
            yield event("error", code="dependency_down", message="llm is unavailable")
            return
        yield event("session", new=created, **issued)
        if message == ERROR_EVENT:
            yield event("error", code="dependency_down", message="llm is unavailable")
            return
        session.begin_turn(message)
        session.plan = ShoppingPlan(keywords=tuple(" ".join(session.user_messages).split()))
        plan = session.plan.model_dump(mode="json")
        yield event("plan", plan=plan)
        yield event("tool_start", tool="item_search", args={"query": message})
        if message == HANG:
            self.started.set()
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                self.cancelled.set()
                raise
        if message == FAIL_MIDWAY:
            raise DependencyDown("qdrant", "circuit open")
        if message == BUG_MIDWAY:
            raise RuntimeError("secret internals")
        yield event("tool_end", tool="item_search", ok=True, ms=1.0)
        pick = {
            "item_id": f"item-{message.replace(' ', '-')}",
            "title": message.title(),
            "platform": "amazon",
            "price_usd": 9.99,
            "availability": "preorder",
            "reason": f"matches {message!r}",
        }
        session.picks = [PickView.model_validate(pick)]
        yield event("picks", picks=[pick])
        answer = f"Here is {message}."
        for chunk in (answer[:5], answer[5:]):
            yield event("message_delta", text=chunk)
        session.end_turn(message, answer)
        await self.sessions.save(session)
        self.finished_turns.append(turn)
        trace = [{"stage": "item_search", "ms": 1.0}]
        yield event("done", answer=answer, picks=[pick], plan=plan, trace=trace)
