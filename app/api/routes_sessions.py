"""`GET /v1/sessions/{id}` (plan, recent messages, last picks) and `DELETE /v1/sessions/{id}`;
both answer 404 for a session the store does not know (never existed, expired, deleted)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request, Response

from app.agent.session import Session, SessionStore
from app.api._state import api_state
from app.api._validation import session_id_path
from app.errors import ConfigError, NotFound

__all__ = ["delete_session", "get_session", "router", "session_view"]

router = APIRouter(tags=["sessions"])


@router.get("/v1/sessions/{session_id}")
async def get_session(
    request: Request, session_id: str = Depends(session_id_path)
) -> dict[str, Any]:
    """The session's plan P_t, its recent messages and the picks of its last turn."""
    session = await _store(request).get(session_id)
    if session is None:
        raise NotFound(f"no session {session_id!r}")
    return session_view(session)


@router.delete("/v1/sessions/{session_id}", status_code=204)
async def delete_session(request: Request, session_id: str = Depends(session_id_path)) -> Response:
    """Forget a session; 204 when it existed."""
    if not await _store(request).delete(session_id):
        raise NotFound(f"no session {session_id!r}")
    return Response(status_code=204)


def session_view(session: Session) -> dict[str, Any]:
    """The public form of a session: no candidate registry, no internal bookkeeping."""
    return {
        "session_id": session.session_id,
        "turns": session.turns,
        "plan": session.plan.model_dump(mode="json") if session.plan is not None else None,
        "messages": [line.model_dump(mode="json") for line in session.conversation],
        "picks": [pick.model_dump(mode="json") for pick in session.picks],
        "created_at": session.created_at,
        "updated_at": session.updated_at,
    }


def _store(request: Request) -> SessionStore:
    store = api_state(request).sessions
    if store is None:
        raise ConfigError("the agent exposes no session store")
    return store
