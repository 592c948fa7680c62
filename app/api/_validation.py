"""Input rules shared by the routes: session ids (the agent's charset, the API's length cap)
and chat messages (non-blank, the agent's length cap), read at request time; and the guard
that refuses (422) any JSON body holding text that is not valid Unicode (a lone surrogate)."""

from __future__ import annotations

import json
from typing import Any

from fastapi import Path
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.agent.session import check_session_id
from app.config.params.agent import AGENT_MESSAGE_MAX_CHARS
from app.config.params.api import SESSION_ID_MAX_CHARS
from app.errors import InvalidRequest
from app.language.text import is_unicode_text


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


def unencodable_problem(body: bytes) -> tuple[list[str], str] | None:
    """Where and why a JSON body cannot be taken as text, or None: bytes that are not UTF-8,
    or a string (or key) anywhere in it with a code point UTF-8 cannot encode (a lone
    surrogate, which JSON can spell as a `\\u` escape)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return ["body"], f"body: not UTF-8 text (byte {exc.start})"
    if "\\u" not in text:
        return None
    try:
        doc = json.loads(text)
    except ValueError:
        return None  # malformed JSON: the route's own parsing answers it
    loc = _unencodable_at(doc, ["body"])
    if loc is None:
        return None
    return loc, f"{'.'.join(loc)}: not valid Unicode text (a lone surrogate)"


def _unencodable_at(value: Any, loc: list[str]) -> list[str] | None:
    if isinstance(value, str):
        return None if is_unicode_text(value) else loc
    if isinstance(value, dict):
        for key, item in value.items():
            if not is_unicode_text(key):
                return loc
            found = _unencodable_at(item, [*loc, key])
            if found is not None:
                return found
    if isinstance(value, list):
        for n, item in enumerate(value):
            found = _unencodable_at(item, [*loc, str(n)])
            if found is not None:
                return found
    return None


class TextGuard:
    """ASGI middleware: a JSON request body is read once, checked with `unencodable_problem`
    and refused with 422 (`validation_error`), or handed on unchanged to the app."""

    _METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in self._METHODS or not _json(scope):
            await self.app(scope, receive, send)
            return
        chunks, more = [], True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _first(message, receive), send)
                return
            chunks.append(message.get("body", b""))
            more = bool(message.get("more_body", False))
        body = b"".join(chunks)
        problem = unencodable_problem(body)
        if problem is not None:
            loc, why = problem
            fields = [{"loc": loc, "msg": "not valid Unicode text"}]
            error = {"code": "validation_error", "message": why, "fields": fields}
            await JSONResponse({"error": error}, status_code=422)(scope, receive, send)
            return
        whole: Message = {"type": "http.request", "body": body, "more_body": False}
        await self.app(scope, _first(whole, receive), send)


def _json(scope: Scope) -> bool:
    """A body FastAPI would read as JSON: no content type, or a JSON one."""
    for name, value in scope.get("headers", ()):
        if name == b"content-type":
            kind = value.split(b";")[0].strip().lower()
            return kind == b"application/json" or kind.endswith(b"+json")
    return True


def _first(message: Message, receive: Receive) -> Receive:
    """`receive` that answers `message` once, then the real messages (e.g. a disconnect)."""
    pending: list[Message] = [message]

    async def replay() -> Message:
        return pending.pop() if pending else await receive()

    return replay
