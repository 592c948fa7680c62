"""`POST /v1/chat`: one turn of a session, streamed as Server-Sent Events, or with
`?stream=false` answered as one JSON document once the turn is over."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.agent.events import TurnEvent, TurnSummary
from app.agent.session_access import SessionAccess
from app.api._state import api_state
from app.api._turn_reply import chat_runner, reply_with_turn
from app.api._validation import message_problem, session_id_problem
from app.api.routes_sessions import session_token

__all__ = ["ChatRequest", "ChatResponse", "chat", "chat_document", "router"]

router = APIRouter(tags=["chat"])


class ChatRequest(BaseModel):
    """A shopper's message; without a session id a new session starts."""

    model_config = ConfigDict(extra="forbid")

    session_id: str | None = Field(
        None,
        description="Session to continue: an id this server issued, sent with its token in "
        "`X-Session-Token`. Omitted: the server issues a new session.",
    )
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
    saved: bool = Field(
        True, description="False when the session could not be stored after this turn."
    )
    session_token: str | None = Field(
        None, description="The secret of a session this turn created; only ever sent once."
    )


def chat_document(summary: TurnSummary, done: TurnEvent) -> dict[str, Any]:
    """A `ChatResponse` but `saved` and `session_token`, which the reply adds."""
    return summary.document()


@router.post(
    "/v1/chat",
    response_model=None,
    responses={
        200: {
            "content": {"text/event-stream": {}, "application/json": {}},
            "headers": {"X-Session-Token": {"description": "Only when a session is created."}},
        }
    },
)
async def chat(
    body: ChatRequest,
    request: Request,
    stream: bool = Query(True, description="false: one JSON document instead of SSE."),
    token: str | None = Depends(session_token),
) -> Response:
    """Run one turn. Failures before the first event are HTTP errors; later ones end the
    stream with an `error` event (or, without streaming, become the HTTP error). A session
    id the server did not issue, or a wrong or missing token, is 404 like an unknown one."""
    access = (
        SessionAccess.new()
        if body.session_id is None
        else SessionAccess.owned(body.session_id, token)
    )
    runner = chat_runner(api_state(request).agent, body.message)
    return await reply_with_turn(runner, access, stream=stream, shape=chat_document)
