"""A client that owns its sessions as the chat page does: it keeps the `X-Session-Token` each
new session came with and sends it with every later request about that session (chat turns,
session reads and deletes, plan edits), unless the request sets the header itself."""

from __future__ import annotations

import json
import re

import httpx

TOKEN_HEADER = "X-Session-Token"
_SESSION_PATH = re.compile(r"^/v1/sessions/([^/]+)")


class SessionTokens:
    """The tokens of the sessions this client created, by session id."""

    def __init__(self) -> None:
        self.tokens: dict[str, str] = {}

    def install(self, client: httpx.AsyncClient) -> httpx.AsyncClient:
        client.event_hooks["request"].append(self._on_request)
        client.event_hooks["response"].append(self._on_response)
        return client

    async def _on_request(self, request: httpx.Request) -> None:
        sid = _session_of(request)
        if sid in self.tokens and TOKEN_HEADER.lower() not in request.headers:
            request.headers[TOKEN_HEADER] = self.tokens[sid]

    async def _on_response(self, response: httpx.Response) -> None:
        token, sid = response.headers.get(TOKEN_HEADER), response.headers.get("x-session-id")
        if token and sid:
            self.tokens[sid] = token


def _session_of(request: httpx.Request) -> str | None:
    found = _SESSION_PATH.match(request.url.path)
    if found:
        return found.group(1)
    if request.url.path == "/v1/chat" and request.content:
        try:
            body = json.loads(request.content)
        except ValueError:
            return None
        sid = body.get("session_id") if isinstance(body, dict) else None
        return sid if isinstance(sid, str) else None
    return None
