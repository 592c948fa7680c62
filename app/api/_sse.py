"""Server-Sent Events for a chat turn: one `event: <type>` / `data: <TurnEvent JSON>` block
per event with an `id` of `<turn_id>:<n>`, comment lines as keep-alive, and a response
that cancels the turn whenever it stops early (client gone, server shutting down)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import anyio
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from app.agent.events import TurnEvent
from app.api._turn import TurnStream
from app.config.params.api import SSE_KEEPALIVE_S

MEDIA_TYPE = "text/event-stream"
KEEPALIVE = b": keep-alive\n\n"
_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def encode_event(event: TurnEvent, seq: int) -> bytes:
    """One SSE block; the JSON of the whole event holds its type, turn id and session id."""
    return (
        f"id: {event.turn_id}:{seq}\nevent: {event.type}\ndata: {event.model_dump_json()}\n\n"
    ).encode()


async def _body(stream: TurnStream, first: TurnEvent) -> AsyncIterator[bytes]:
    yield encode_event(first, 0)
    seq = 1
    async for event in stream.rest(SSE_KEEPALIVE_S.get):
        if event is None:
            yield KEEPALIVE
        else:
            yield encode_event(event, seq)
            seq += 1


class EventStreamResponse(StreamingResponse):
    """Streams a started turn; closes it (cancelling the agent if still running) however
    the response ends."""

    def __init__(self, stream: TurnStream, first: TurnEvent) -> None:
        headers = {**_HEADERS, "X-Session-Id": first.session_id, "X-Turn-Id": first.turn_id}
        super().__init__(_body(stream, first), media_type=MEDIA_TYPE, headers=headers)
        self._stream = stream

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            with anyio.CancelScope(shield=True):
                await self._stream.close()
