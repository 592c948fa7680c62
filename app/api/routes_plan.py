"""`PATCH /v1/sessions/{id}/plan`: the shopper edits the plan directly (a chip removed on the
chat page). The edit is held in the session and a turn runs at once on the edited plan,
answered like `POST /v1/chat`: Server-Sent Events, or one JSON document with `?stream=false`."""

from __future__ import annotations

from collections.abc import AsyncIterator

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import JSONResponse

from app.agent.chat import collect
from app.agent.events import TurnEvent
from app.agent.plan_edit import PlanEdit, PlanEditor
from app.api._sse import EventStreamResponse
from app.api._state import api_state
from app.api._turn import TurnStream
from app.api._validation import session_id_path
from app.api.errors import status_for_code
from app.errors import InvalidRequest

__all__ = ["router"]

router = APIRouter(tags=["sessions"])


class _EditTurn:
    """The `ChatAgent` face of one plan edit, so the edit's turn streams like a chat turn."""

    def __init__(self, agent: PlanEditor, edit: PlanEdit) -> None:
        self._agent = agent
        self._edit = edit

    def run_turn(self, session_id: str | None, message: str) -> AsyncIterator[TurnEvent]:
        return self._agent.edit_plan(session_id or "", self._edit)


@router.patch(
    "/v1/sessions/{session_id}/plan",
    response_model=None,
    responses={200: {"content": {"text/event-stream": {}, "application/json": {}}}},
)
async def edit_plan(
    edit: PlanEdit,
    request: Request,
    session_id: str = Depends(session_id_path),
    stream: bool = Query(True, description="false: one JSON document instead of SSE."),
) -> Response:
    """Hold the edit and search again: 404 for an unknown session, 400 for a session
    without a plan or an edit that does not fit its plan, 422 for a malformed edit."""
    agent = api_state(request).agent
    if not isinstance(agent, PlanEditor):
        raise InvalidRequest("this server's agent does not edit plans")
    turn = TurnStream(_EditTurn(agent, edit), session_id, "plan edit")
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
    return await _whole(events)


async def _whole(events: list[TurnEvent]) -> JSONResponse:
    last = events[-1]
    headers = {"X-Session-Id": last.session_id, "X-Turn-Id": last.turn_id}
    if last.type == "error":
        status = status_for_code(str(last.data.get("code", "error")))
        return JSONResponse({"error": last.data}, status_code=status, headers=headers)
    summary = await collect(_replay(events))
    doc = summary.model_dump(mode="json", include={"session_id", "answer", "picks", "plan"})
    return JSONResponse({**doc, "slots": last.data.get("slots", {})}, headers=headers)


async def _replay(events: list[TurnEvent]) -> AsyncIterator[TurnEvent]:
    for event in events:
        yield event
