"""`POST /v1/chat`: one turn of a session, streamed as Server-Sent Events, or with
`?stream=false` answered as one JSON document once the turn is over."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.agent.chat import collect
from app.agent.events import TurnEvent, TurnSummary
from app.api._sse import EventStreamResponse
from app.api._state import api_state
from app.api._turn import TurnStream
from app.api._validation import message_problem, session_id_problem
from app.api.errors import retry_headers, status_for_code

__all__ = ["ChatRequest", "ChatResponse", "chat", "router"]

router = APIRouter(tags=["chat"])


class ChatRequest(BaseModel):
    """A shopper's message; without a (known) session id a new session starts."""

    model_config = ConfigDict(extra="forbid")

    session_id: str | None = Field(None, description="Session to continue.")
    message: str = Field(description="What the shopper says.")

    @field_validator("session_id")
    @classmethod
    def _session_id(cls, value: str | None) -> str | None:
        problem = None if value is None else session_id_problem(value)
        if problem is not None:
            raise ValueError(problem)
        return value

    @field_validator("message")
    @classmethod
    def _message(cls, value: str) -> str:
        problem = message_problem(value)
        if problem is not None:
            raise ValueError(problem)
        return value.strip()


class ChatResponse(BaseModel):
    """The whole turn at once (`?stream=false`)."""

    session_id: str
    answer: str
    picks: list[dict[str, Any]]
    plan: dict[str, Any]
    trace: list[dict[str, Any]]
    readings: int = 0
    planner: str = "rules"
    policy: str = "offline"
    notes: list[str] = Field(default_factory=list)

    @classmethod
    def of(cls, summary: TurnSummary) -> ChatResponse:
        doc = summary.model_dump(mode="json")
        return cls(**{k: doc[k] for k in cls.model_fields})


@router.post(
    "/v1/chat",
    response_model=None,
    responses={200: {"content": {"text/event-stream": {}, "application/json": {}}}},
)
async def chat(
    body: ChatRequest,
    request: Request,
    stream: bool = Query(True, description="false: one JSON document instead of SSE."),
) -> Response:
    """Run one turn. Failures before the first event are HTTP errors; later ones end the
    stream with an `error` event (or, without streaming, become the HTTP error)."""
    turn = TurnStream(api_state(request).agent, body.session_id, body.message)
    try:
        first = await turn.start()
    except BaseException:
        await turn.close()
        raise
    if stream and first.type != "error":
        return EventStreamResponse(turn, first)
    try:
        events = [event async for event in turn.events()]
    finally:
        await turn.close()
    return await _whole_turn(events)


async def _whole_turn(events: list[TurnEvent]) -> JSONResponse:
    last = events[-1]
    headers = {"X-Session-Id": last.session_id, "X-Turn-Id": last.turn_id}
    if last.type == "error":
        status = status_for_code(str(last.data.get("code", "error")))
        headers |= retry_headers(last.data)
        return JSONResponse({"error": last.data}, status_code=status, headers=headers)
    doc = ChatResponse.of(await collect(_replay(events))).model_dump(mode="json")
    return JSONResponse(doc, headers=headers)


async def _replay(events: Sequence[TurnEvent]) -> AsyncIterator[TurnEvent]:
    for event in events:
        yield event
