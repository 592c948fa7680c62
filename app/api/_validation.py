"""Input rules shared by the routes: session ids (the agent's charset, the API's length cap)
and chat messages (non-blank, the agent's length cap), read at request time."""

from __future__ import annotations

from fastapi import Path
from fastapi.exceptions import RequestValidationError

from app.agent.session import check_session_id
from app.config.params.agent import AGENT_MESSAGE_MAX_CHARS
from app.config.params.api import SESSION_ID_MAX_CHARS
from app.errors import InvalidRequest


def session_id_problem(value: str) -> str | None:
    """Why `value` is not an acceptable session id, or None when it is."""
    limit = SESSION_ID_MAX_CHARS.get()
    if len(value) > limit:
        return f"session id is longer than {limit} characters"
    try:
        check_session_id(value)
    except InvalidRequest as exc:
        return str(exc)
    return None


def message_problem(value: str) -> str | None:
    """Why `value` is not an acceptable chat message, or None when it is."""
    if not value.strip():
        return "message must not be blank"
    limit = AGENT_MESSAGE_MAX_CHARS.get()
    if len(value) > limit:
        return f"message is longer than {limit} characters ({len(value)})"
    return None


def session_id_path(session_id: str = Path(..., description="A session id.")) -> str:
    """Path dependency: the session id of the URL, or a 422 saying what is wrong with it."""
    problem = session_id_problem(session_id)
    if problem is not None:
        raise RequestValidationError(
            [{"type": "value_error", "loc": ("path", "session_id"), "msg": problem}]
        )
    return session_id
