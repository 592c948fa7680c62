"""A scripted OpenAI-compatible chat server on loopback, for tests that drive the real
`openai` client over real HTTP. Replies are queued per request kind and every request is
recorded, so a test can check the tools schema, the tool messages and any note sent back.

Kinds: "plan" (a `response_format` request, or one whose system message carries a JSON
schema to follow: the planner), "tools" (a request offering tools: the agent loop) and "text"
(neither: a written summary or chat answer). A request with nothing scripted for its kind gets
a 500 and is listed in `unscripted`; the `scripted_openai` fixture fails the test on teardown
unless it set `allow_unscripted`.

Like the servers people run locally, it can refuse `response_format` types (`accept_formats`,
answered 400 or `refuse_status` without using a scripted reply), hang (`hang()`), or answer
200 with a body that is not a completion (`raw()`).
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

import pytest
import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from tests.fakes.scripted_embeddings import ScriptedEmbeddings

Kind = Literal["plan", "tools", "text"]
KINDS: tuple[Kind, ...] = ("plan", "tools", "text")
PROMPT_SCHEMA_MARK = "validates against this JSON schema"
"""How a planner request without `response_format` says which schema to follow."""


@dataclass(frozen=True)
class Call:
    """A tool call the scripted model makes; `arguments` is sent verbatim when a string."""

    name: str
    arguments: str | dict[str, Any] = field(default_factory=dict)
    id: str | None = None

    def wire(self, fallback_id: str) -> dict[str, Any]:
        args = self.arguments
        return {
            "id": self.id or fallback_id,
            "type": "function",
            "function": {
                "name": self.name,
                "arguments": args if isinstance(args, str) else json.dumps(args),
            },
        }


@dataclass(frozen=True)
class Reply:
    """One scripted answer: text and/or tool calls, or an HTTP error when `status` != 200."""

    content: str | None = None
    calls: tuple[Call, ...] = ()
    status: int = 200
    echo: bool = False
    hang_s: float = 0.0
    raw: str | None = None
    media_type: str = "application/json"


def say(text: str) -> Reply:
    """An assistant answer without tool calls."""
    return Reply(content=text)


def calls(*tool_calls: Call, content: str | None = None) -> Reply:
    """An assistant turn that calls `tool_calls` (in one batch)."""
    return Reply(content=content, calls=tool_calls)


def structured(value: dict[str, Any] | str) -> Reply:
    """A structured-output answer: the JSON text (a string is sent verbatim, valid or not)."""
    return Reply(content=value if isinstance(value, str) else json.dumps(value))


def echo(prefix: str = "", suffix: str = "") -> Reply:
    """An answer that repeats the request's last user message between `prefix` and `suffix`
    (a writer that keeps every fact it was given)."""
    return Reply(content=prefix + "\x00" + suffix, echo=True)


def fail(status: int = 503) -> Reply:
    """An HTTP error answer."""
    return Reply(status=status)


def hang(seconds: float = 60.0) -> Reply:
    """No answer for `seconds` (or until the script is reset), then a 504."""
    return Reply(hang_s=seconds)


def raw(body: str, *, status: int = 200, media_type: str = "application/json") -> Reply:
    """`body` sent verbatim: garbage, a JSON string, a completion without choices, ..."""
    return Reply(raw=body, status=status, media_type=media_type)


@dataclass(frozen=True)
class Recorded:
    """One request as the server received it."""

    kind: Kind
    body: dict[str, Any]

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages", []))

    @property
    def tool_names(self) -> list[str]:
        return [t["function"]["name"] for t in self.body.get("tools", [])]


class ScriptedOpenAI:
    """The server: `script()` queues replies, `requests()` returns what was received."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.embeddings = ScriptedEmbeddings()
        """The `/v1/embeddings` endpoint's script and record."""
        self._queues: dict[Kind, deque[Reply]] = {k: deque() for k in KINDS}
        self._requests: list[Recorded] = []
        self.unscripted: list[Recorded] = []
        self.allow_unscripted = False
        self.accept_formats: frozenset[str] | None = None
        """`response_format` types accepted; None: all. Others are refused."""
        self.refuse_status = 400
        self.refused: list[Recorded] = []
        """Requests refused for their `response_format`, oldest first."""
        self._released = threading.Event()
        self._ids = 0
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self.base_url = ""

    def script(self, kind: Kind, *replies: Reply) -> None:
        """Queue `replies` for requests of `kind`, answered in order."""
        with self._lock:
            self._queues[kind].extend(replies)

    def requests(self, kind: Kind | None = None) -> list[Recorded]:
        """Requests received so far, oldest first, optionally of one kind."""
        with self._lock:
            return [r for r in self._requests if kind is None or r.kind == kind]

    def pending(self, kind: Kind) -> int:
        """Replies still queued for `kind`."""
        with self._lock:
            return len(self._queues[kind])

    def reset(self) -> None:
        """Forget the script and the recorded requests."""
        self.embeddings.reset()
        with self._lock:
            for queue in self._queues.values():
                queue.clear()
            self._requests.clear()
            self.unscripted.clear()
            self.allow_unscripted = False
            self.accept_formats = None
            self.refuse_status = 400
            self.refused.clear()
            self._released.set()
            self._released = threading.Event()
            self._ids = 0

    def start(self) -> None:
        """Serve on a free loopback port in a background thread."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        config = uvicorn.Config(self._app(), log_level="warning", lifespan="off")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the scripted OpenAI server did not start")
            time.sleep(0.01)
        self.base_url = f"http://127.0.0.1:{port}/v1"

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _app(self) -> FastAPI:
        app = FastAPI()

        @app.post("/v1/chat/completions")
        async def completions(request: Request) -> Response:
            body = await request.json()
            refusal = self._refusal(body)
            if refusal is not None:
                return refusal
            reply, recorded = self._take(body)
            if reply is not None and reply.hang_s:
                await self._hang(reply.hang_s)
                return _error(504, "hung")
            return self._answer(reply, recorded)

        self.embeddings.install(app)
        return app

    def _refusal(self, body: dict[str, Any]) -> JSONResponse | None:
        """The refusal of a `response_format` this server does not accept, if it is one."""
        kind = (body.get("response_format") or {}).get("type")
        if kind is None or self.accept_formats is None or kind in self.accept_formats:
            return None
        with self._lock:
            self.refused.append(Recorded("plan", body))
        return _error(self.refuse_status, f"response_format type {kind!r} is not supported")

    def _take(self, body: dict[str, Any]) -> tuple[Reply | None, Recorded]:
        recorded = Recorded(_kind(body), body)
        with self._lock:
            self._requests.append(recorded)
            queue = self._queues[recorded.kind]
            reply = queue.popleft() if queue else None
            if reply is None:
                self.unscripted.append(recorded)
        return reply, recorded

    async def _hang(self, seconds: float) -> None:
        """Sleep `seconds`, cut short when the script is reset (the test is over)."""
        await asyncio.to_thread(self._released.wait, seconds)

    def _answer(self, reply: Reply | None, recorded: Recorded) -> Response:
        kind, body = recorded.kind, recorded.body
        if reply is None:
            return _error(500, f"nothing scripted for a {kind!r} request")
        if reply.raw is not None:
            return Response(reply.raw, status_code=reply.status, media_type=reply.media_type)
        if reply.status != 200:
            return _error(reply.status, "scripted failure")
        with self._lock:
            base = self._ids
            self._ids += len(reply.calls)
        content = reply.content
        if reply.echo and content is not None:
            users = [m.get("content") or "" for m in recorded.messages if m["role"] == "user"]
            content = content.replace("\x00", users[-1] if users else "")
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if reply.calls:
            message["tool_calls"] = [
                c.wire(f"call_{base + i}") for i, c in enumerate(reply.calls, start=1)
            ]
        return JSONResponse(
            {
                "id": f"chatcmpl-{len(self._requests)}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model", "scripted"),
                "choices": [
                    {
                        "index": 0,
                        "message": message,
                        "finish_reason": "tool_calls" if reply.calls else "stop",
                    }
                ],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            }
        )


def _kind(body: dict[str, Any]) -> Kind:
    if "response_format" in body:
        return "plan"
    messages: list[dict[str, Any]] = body.get("messages", [])
    system = next((m for m in messages if m.get("role") == "system"), {})
    if PROMPT_SCHEMA_MARK in str(system.get("content") or ""):
        return "plan"
    return "tools" if body.get("tools") else "text"


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse(
        {"error": {"message": message, "type": "scripted", "code": None}}, status_code=status
    )


@pytest.fixture(scope="session")
def scripted_openai_server() -> Iterator[ScriptedOpenAI]:
    """One scripted server for the whole test session."""
    server = ScriptedOpenAI()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def scripted_openai(scripted_openai_server: ScriptedOpenAI) -> Iterator[ScriptedOpenAI]:
    """The scripted server, reset for this test; unscripted requests fail the test unless
    it sets `allow_unscripted`. Import this fixture into a conftest to use it."""
    server = scripted_openai_server
    server.reset()
    yield server
    unexpected = [] if server.allow_unscripted else list(server.unscripted)
    server.reset()
    if unexpected:
        kinds = ", ".join(r.kind for r in unexpected)
        pytest.fail(f"the scripted OpenAI server got unscripted requests: {kinds}")
