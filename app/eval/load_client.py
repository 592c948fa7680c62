"""One SSE chat turn as a load-test client sees it: the status and how fast it came, time to
the first event, the terminal event, whether the turn says it was saved, and any event of
another session; a 429 is retried after its `Retry-After`."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx

__all__ = ["TOKEN_HEADER", "TurnResult", "read_session", "run_turn"]

TOKEN_HEADER = "X-Session-Token"
_UNSAVED_NOTE = "could not be saved"


@dataclass
class TurnResult:
    """What one turn came to (after any 429 retries)."""

    status: int = 0
    status_s: float = 0.0
    first_event_s: float | None = None
    total_s: float = 0.0
    terminal: str | None = None
    error_code: str | None = None
    saved: bool = True
    session_id: str | None = None
    token: str | None = None
    foreign_events: int = 0
    refusals: int = 0

    @property
    def ok(self) -> bool:
        return self.status == 200 and self.terminal == "done"


async def run_turn(
    client: httpx.AsyncClient,
    message: str,
    session_id: str | None,
    token: str | None,
    *,
    retries: int,
) -> TurnResult:
    """Send one SSE turn, retrying up to `retries` times when refused with 429."""
    refusals = 0
    while True:
        result = await _attempt(client, message, session_id, token)
        result.refusals = refusals
        if result.status != 429 or refusals >= retries:
            return result
        refusals += 1
        await asyncio.sleep(result.total_s if result.total_s > 0 else 1.0)


async def _attempt(
    client: httpx.AsyncClient, message: str, session_id: str | None, token: str | None
) -> TurnResult:
    body: dict[str, Any] = {"message": message}
    headers: dict[str, str] = {}
    if session_id:
        body["session_id"] = session_id
    if token:
        headers[TOKEN_HEADER] = token
    result = TurnResult(session_id=session_id, token=token)
    started = time.perf_counter()
    try:
        async with client.stream("POST", "/v1/chat", json=body, headers=headers) as response:
            result.status = response.status_code
            result.status_s = time.perf_counter() - started
            if response.status_code == 429:
                await response.aread()
                result.total_s = float(response.headers.get("retry-after", "1"))
                return result
            if response.status_code != 200:
                await response.aread()
                result.error_code = _error_code(response)
                result.total_s = time.perf_counter() - started
                return result
            async for event in _events(response.aiter_lines()):
                if result.first_event_s is None:
                    result.first_event_s = time.perf_counter() - started
                _take(result, event)
    except httpx.HTTPError as exc:
        result.error_code = type(exc).__name__
    result.total_s = time.perf_counter() - started
    return result


def _take(result: TurnResult, event: dict[str, Any]) -> None:
    kind, data = event.get("type"), event.get("data") or {}
    sid = event.get("session_id")
    if kind == "session":
        result.session_id = result.session_id or sid
        result.token = data.get("session_token") or event.get("session_token") or result.token
    elif sid != result.session_id:
        result.foreign_events += 1
    if kind in ("done", "error"):
        result.terminal = str(kind)
    if kind == "error":
        result.error_code = str(data.get("code"))
    if kind == "done":
        notes = " ".join(str(n) for n in data.get("notes") or ())
        result.saved = data.get("saved") is not False and _UNSAVED_NOTE not in notes


async def _events(lines: AsyncIterator[str]) -> AsyncIterator[dict[str, Any]]:
    """The JSON `data` of each SSE block; comment (keep-alive) lines are skipped."""
    data: list[str] = []
    async for line in lines:
        if line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
        elif not line and data:
            yield json.loads("\n".join(data))
            data = []


async def read_session(
    client: httpx.AsyncClient, session_id: str, token: str | None
) -> list[str] | None:
    """The user messages the server holds for a session, or None when it has none."""
    headers = {TOKEN_HEADER: token} if token else {}
    response = await client.get(f"/v1/sessions/{session_id}", headers=headers)
    if response.status_code != 200:
        return None
    messages = response.json().get("messages", [])
    return [m["content"] for m in messages if m.get("role") == "user"]


def _error_code(response: httpx.Response) -> str | None:
    try:
        return str(response.json()["error"]["code"])
    except (ValueError, KeyError, TypeError):
        return None
