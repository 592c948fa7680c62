"""How a route answers with a turn (`POST /v1/chat`, `PATCH /v1/sessions/{id}/plan`): the
turn started on the caller's `SessionAccess`, then streamed as Server-Sent Events or folded
into one JSON document, with the same headers either way (the session id, the turn id, the
token of a newly issued session, `Retry-After` on a 429)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import Response
from fastapi.responses import JSONResponse

from app.agent.chat import summarize
from app.agent.events import ChatAgent, TurnEvent, TurnSummary
from app.agent.session_access import SessionAccess, SessionOwner
from app.api._sse import EventStreamResponse
from app.api._turn import TurnStream
from app.api.errors import retry_headers, status_for_code
from app.errors import NotFound

TOKEN_HEADER = "X-Session-Token"

Runner = Callable[[SessionAccess | str | None], AsyncIterator[TurnEvent]]
"""Starts the turn's events for the caller's access (or, for an agent that does not check
access, its plain id)."""
Shape = Callable[[TurnSummary, TurnEvent], dict[str, Any]]
"""The JSON document of a finished turn from its summary and its `done` event."""


class _AccessTurn:
    """The `ChatAgent` face `TurnStream` drives: it ignores the id it is given and runs the
    turn on the access the route decided on."""

    def __init__(self, runner: Runner, access: SessionAccess) -> None:
        self._runner = runner
        self._access = access

    def run_turn(self, session_id: str | None, message: str) -> AsyncIterator[TurnEvent]:
        return self._runner(self._access)


def chat_runner(agent: ChatAgent, message: str) -> Runner:
    """Runs `agent`'s chat turn on the caller's access. An agent that does not check access
    itself (no `SessionOwner`) only gets new sessions: continuing one is `NotFound`."""

    def run(access: SessionAccess | str | None) -> AsyncIterator[TurnEvent]:
        if isinstance(agent, SessionOwner) and agent.owns_sessions:
            return agent.run_turn(access, message)
        return _unowned(agent, access, message)

    return run


async def _unowned(
    agent: ChatAgent, access: SessionAccess | str | None, message: str
) -> AsyncIterator[TurnEvent]:
    if isinstance(access, SessionAccess) and access.session_id is not None:
        raise NotFound(f"no session {access.session_id!r}")
    async for event in agent.run_turn(None, message):
        yield event


async def reply_with_turn(
    runner: Runner, access: SessionAccess, *, stream: bool, shape: Shape
) -> Response:
    """Start the turn; failures before its first event are HTTP errors (raised), later ones
    an `error` event, or without streaming the HTTP error of the whole answer."""
    turn = TurnStream(_AccessTurn(runner, access), access.session_id, "")
    try:
        first = await turn.start()
    except BaseException:
        await turn.close()
        raise
    headers = _headers(first)
    if stream and first.type != "error":
        response = EventStreamResponse(turn, first)
        response.headers.update(headers)
        return response
    try:
        events = [event async for event in turn.events()]
    finally:
        await turn.close()
    last = events[-1]
    headers |= {"X-Turn-Id": last.turn_id}
    if last.type == "error":
        status = status_for_code(str(last.data.get("code", "error")))
        headers |= retry_headers(last.data)
        return JSONResponse({"error": last.data}, status_code=status, headers=headers)
    summary = summarize(events)
    doc = shape(summary, last) | {"saved": summary.saved}
    token = first.data.get("session_token")
    if token:
        doc["session_token"] = token
    return JSONResponse(doc, headers=headers)


def _headers(first: TurnEvent) -> dict[str, str]:
    headers = {"X-Session-Id": first.session_id, "X-Turn-Id": first.turn_id}
    token = first.data.get("session_token")
    if isinstance(token, str) and token:
        headers[TOKEN_HEADER] = token
    return headers
