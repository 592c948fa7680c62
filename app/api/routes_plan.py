"""`PATCH /v1/sessions/{id}/plan`: the shopper edits the plan directly (a chip removed on the
chat page). The edit is held in the session and a turn runs at once on the edited plan,
answered like `POST /v1/chat`: Server-Sent Events, or one JSON document with `?stream=false`.
Only the session's owner may edit it (`X-Session-Token`, else 404 as for no session)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Depends, Query, Request, Response

from app.agent.events import TurnEvent, TurnSummary
from app.agent.plan_edit import PlanEdit, PlanEditor
from app.agent.session_access import SessionAccess, SessionOwner
from app.api._state import api_state
from app.api._turn_reply import Runner, reply_with_turn
from app.api._validation import session_id_path
from app.api.routes_sessions import session_token
from app.errors import InvalidRequest, NotFound

__all__ = ["router"]

router = APIRouter(tags=["sessions"])


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
    token: str | None = Depends(session_token),
) -> Response:
    """Hold the edit and search again: 404 for an unknown session (or a wrong token), 400
    for a session without a plan or an edit that does not fit its plan, 422 for a malformed
    edit."""
    agent = api_state(request).agent
    if not isinstance(agent, PlanEditor):
        raise InvalidRequest("this server's agent does not edit plans")
    access = SessionAccess.owned(session_id, token)
    return await reply_with_turn(
        _edit_runner(agent, edit), access, stream=stream, shape=_edit_document
    )


def _edit_runner(agent: PlanEditor, edit: PlanEdit) -> Runner:
    """Runs the edit's turn on the caller's access; an agent that does not check access
    itself cannot be trusted with an existing session, so it edits none."""

    def run(access: SessionAccess | str | None) -> AsyncIterator[TurnEvent]:
        if isinstance(agent, SessionOwner) and agent.owns_sessions and access is not None:
            return agent.edit_plan(access, edit)
        return _refused(access)

    return run


async def _refused(access: SessionAccess | str | None) -> AsyncIterator[TurnEvent]:
    name = access.session_id if isinstance(access, SessionAccess) else access
    raise NotFound(f"no session {name!r}")
    yield  # an async generator, so the refusal comes with the first event  # pragma: no cover


def _edit_document(summary: TurnSummary, done: TurnEvent) -> dict[str, Any]:
    doc = summary.model_dump(mode="json", include={"session_id", "answer", "picks", "plan"})
    return {**doc, "slots": done.data.get("slots", {})}
