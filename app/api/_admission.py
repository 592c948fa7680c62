"""Admission control for chat turns: at most `API_MAX_TURNS_IN_FLIGHT` per worker, counted
from the request's arrival to the end of its (streamed) response; one more is refused at once
with 429 and `Retry-After`, before its body is read, so no queue ever grows without bound."""

from __future__ import annotations

import json
import logging

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.config.params.api import API_MAX_TURNS_IN_FLIGHT, API_RETRY_AFTER_S

log = logging.getLogger(__name__)

ADMITTED_PATHS = frozenset({"/v1/chat"})


class TurnGate:
    """The count of turns in flight in this process and how many were refused."""

    def __init__(self) -> None:
        self.in_flight = 0
        self.refused = 0
        self.peak = 0
        self.refusing = False

    def try_enter(self) -> bool:
        """Take a place when one is free (single-threaded: no await between test and set)."""
        limit = API_MAX_TURNS_IN_FLIGHT.get()
        if self.in_flight >= limit:
            self.refused += 1
            if not self.refusing:
                self.refusing = True
                log.warning("at capacity (%d turns in flight): refusing turns with 429", limit)
            return False
        if self.refusing:
            self.refusing = False
            log.info("below capacity again after %d refused turns in all", self.refused)
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        return True

    def leave(self) -> None:
        self.in_flight -= 1

    def report(self) -> dict[str, int]:
        """For /healthz: turns in flight, the limit, the peak and the refusals so far."""
        return {
            "in_flight": self.in_flight,
            "limit": API_MAX_TURNS_IN_FLIGHT.get(),
            "peak": self.peak,
            "refused": self.refused,
        }


class AdmissionMiddleware:
    """ASGI middleware that runs turns (chat, plan edits) only while the gate has room."""

    def __init__(self, app: ASGIApp, gate: TurnGate | None = None) -> None:
        self.app = app
        self.gate = gate or TurnGate()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not _is_turn(scope):
            await self.app(scope, receive, send)
            return
        if not self.gate.try_enter():
            await _refuse(send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.gate.leave()


def _is_turn(scope: Scope) -> bool:
    """A chat turn, or a plan edit (`PATCH /v1/sessions/{id}/plan`), which runs one too."""
    if scope["type"] != "http":
        return False
    method, path = scope.get("method"), str(scope.get("path", ""))
    if method == "POST":
        return path in ADMITTED_PATHS
    return method == "PATCH" and path.startswith("/v1/sessions/") and path.endswith("/plan")


async def _refuse(send: Send) -> None:
    retry_after = API_RETRY_AFTER_S.get()
    limit = API_MAX_TURNS_IN_FLIGHT.get()
    body = json.dumps(
        {
            "error": {
                "code": "overloaded",
                "message": f"this server is running {limit} turns; retry in {retry_after}s",
                "retry_after_s": retry_after,
            }
        }
    ).encode()
    start: Message = {
        "type": "http.response.start",
        "status": 429,
        "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"retry-after", str(retry_after).encode()),
        ],
    }
    await send(start)
    await send({"type": "http.response.body", "body": body})
