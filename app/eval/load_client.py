"""One SSE chat turn as a load-test client sees it: the status and how fast it came, time to
the first event, the terminal event, whether the turn says it was saved, and any event of
another session; a 429 is retried after its `Retry-After`."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx

__all__ = ["TOKEN_HEADER", "TurnResult", "bare_turn", "read_session", "run_turn"]

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


async def bare_turn(host: str, port: int, message: str) -> TurnResult:
    """One new-session SSE turn over a bare HTTP/1.0 connection (the body ends when the
    server closes it): no client library's own work queues in front of the server's, so in a
    burst from one process the timings are the server's and the socket's, not the client's."""
    body = json.dumps({"message": message}).encode()
    head = (
        f"POST /v1/chat HTTP/1.0\r\nHost: {host}:{port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    result = TurnResult()
    started = time.perf_counter()
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError as exc:
        result.error_code = type(exc).__name__
        return result
    try:
        writer.write(head.encode() + body)
        status_line = await reader.readline()
        result.status = int(status_line.split()[1]) if status_line else 0
        result.status_s = time.perf_counter() - started
        headers = await _header_lines(reader)
        if result.status == 200:
            async for event in _events(_lines(reader)):
                if result.first_event_s is None:
                    result.first_event_s = time.perf_counter() - started
                _take(result, event)
        else:
            rest = await reader.read()
            result.error_code = _code_in(rest)
            result.total_s = float(headers.get("retry-after", 0.0))
    except (OSError, ValueError, IndexError) as exc:
        result.error_code = type(exc).__name__
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
    if result.status != 429:
        result.total_s = time.perf_counter() - started
    return result


async def _header_lines(reader: asyncio.StreamReader) -> dict[str, str]:
    headers: dict[str, str] = {}
    while (line := (await reader.readline()).decode("latin-1").strip()) != "":
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return headers


async def _lines(reader: asyncio.StreamReader) -> AsyncIterator[str]:
    while line := await reader.readline():
        yield line.decode("utf-8").rstrip("\r\n")
    yield ""


def _code_in(body: bytes) -> str | None:
    try:
        return str(json.loads(body)["error"]["code"])
    except (ValueError, KeyError, TypeError):
        return None


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
