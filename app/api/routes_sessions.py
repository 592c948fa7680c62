"""`GET /v1/sessions/{id}` (plan, recent messages, last picks) and `DELETE /v1/sessions/{id}`,
both for the session's owner only: the `X-Session-Token` issued with it must come along.
An unknown, expired or deleted session and a wrong or missing token are the same 404."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Header, Request, Response

from app.agent.session import Session, SessionStore
from app.agent.session_access import SessionAccess
from app.api._state import api_state
from app.api._validation import session_id_path
from app.errors import ConfigError

__all__ = [
    "delete_session",
    "get_session",
    "owned_session",
    "router",
    "session_token",
    "session_view",
]

router = APIRouter(tags=["sessions"])


def session_token(
    token: str | None = Header(
        None,
        alias="X-Session-Token",
        description="The secret issued with the session (in its `session` event, the "
        "`session_token` of `?stream=false` and the `X-Session-Token` response header).",
    ),
) -> str | None:
    """Header dependency: the session token the caller presents, if any."""
    return token


async def owned_session(request: Request, session_id: str, token: str | None) -> Session:
    """The stored session when `token` is its owner's; else `NotFound`, as for no session."""
    return SessionAccess.owned(session_id, token).check(await _store(request).get(session_id))


@router.get("/v1/sessions/{session_id}")
async def get_session(
    request: Request,
    session_id: str = Depends(session_id_path),
    token: str | None = Depends(session_token),
) -> dict[str, Any]:
    """The session's plan P_t, its recent messages and the picks of its last turn."""
    return session_view(await owned_session(request, session_id, token))


@router.delete("/v1/sessions/{session_id}", status_code=204)
async def delete_session(
    request: Request,
    session_id: str = Depends(session_id_path),
    token: str | None = Depends(session_token),
) -> Response:
    """Forget a session; 204 when it existed and was the caller's."""
    await owned_session(request, session_id, token)
    await _store(request).delete(session_id)
    return Response(status_code=204)


def session_view(session: Session) -> dict[str, Any]:
    """The public form of a session: no candidate registry, no token hash, no bookkeeping."""
    return {
        "session_id": session.session_id,
        "turns": session.turns,
        "plan": session.plan.model_dump(mode="json") if session.plan is not None else None,
        "messages": [line.model_dump(mode="json") for line in session.conversation],
        "picks": [pick.model_dump(mode="json") for pick in session.picks],
        "slots": session.pick_slots,
        "created_at": session.created_at,
        "updated_at": session.updated_at,
    }


def _store(request: Request) -> SessionStore:
    store = api_state(request).sessions
    if store is None:
        raise ConfigError("the agent exposes no session store")
    return store
