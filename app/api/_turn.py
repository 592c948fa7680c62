"""One agent turn driven from its own task, so the HTTP layer can wait with a keep-alive,
tell failures before the first event (an HTTP error) from later ones (an `error` event),
and cancel the turn when the client goes away."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from app.agent.events import ChatAgent, TurnEvent
from app.api.errors import describe_exception
from app.errors import PickwiseError

log = logging.getLogger(__name__)

TERMINAL = frozenset({"done", "error"})
_QUEUE_SIZE = 16
_CLOSE_GRACE_S = 5.0


@dataclass(frozen=True)
class _Failed:
    exc: BaseException


class _Ended:
    """The agent's iterator is exhausted."""


_END = _Ended()
Item = TurnEvent | _Failed | _Ended


class TurnStream:
    """Runs `agent.run_turn` in one task (its context variables stay whole) and hands its
    events over a bounded queue; `start()` first, then `rest()`, and always `close()`."""

    def __init__(self, agent: ChatAgent, session_id: str | None, message: str) -> None:
        self._queue: asyncio.Queue[Item] = asyncio.Queue(maxsize=_QUEUE_SIZE)
        self._task = asyncio.create_task(self._produce(agent, session_id, message))
        self._getter: asyncio.Task[Item] | None = None
        self._first: TurnEvent | None = None
        self.terminal: TurnEvent | None = None

    async def start(self) -> TurnEvent:
        """The first event; raises what the agent raised before yielding anything."""
        item = await self._next()
        if isinstance(item, _Failed):
            raise item.exc
        if not isinstance(item, TurnEvent):
            raise PickwiseError("the agent ended the turn without any event")
        self._first = item
        if item.type in TERMINAL:
            self.terminal = item
        return item

    async def rest(
        self, keepalive_s: Callable[[], float] | None = None
    ) -> AsyncIterator[TurnEvent | None]:
        """The events after the first, ending with exactly one `done` or `error`; a failure
        becomes an `error` event. Yields None when `keepalive_s()` seconds pass quietly."""
        first = self._require_started()
        while self.terminal is None:
            item = await self._next(keepalive_s() if keepalive_s else None)
            if item is None:
                yield None
                continue
            if isinstance(item, TurnEvent):
                if item.type in TERMINAL:
                    self.terminal = item
                yield item
                continue
            self.terminal = self._error_event(first, item)
            yield self.terminal
        await self._drain()

    async def events(self) -> AsyncIterator[TurnEvent]:
        """Every event from the first to the terminal one, without keep-alive ticks."""
        yield self._first if self._first is not None else await self.start()
        async for event in self.rest():
            if event is not None:
                yield event

    async def close(self) -> None:
        """Cancel the turn if it is still running and wait (briefly) for it to unwind."""
        for task in (self._getter, self._task):
            if task is not None and not task.done():
                task.cancel()
        with contextlib.suppress(BaseException):
            async with asyncio.timeout(_CLOSE_GRACE_S):
                await asyncio.gather(self._task, return_exceptions=True)

    @property
    def cancelled(self) -> bool:
        return self._task.cancelled()

    async def _produce(self, agent: ChatAgent, session_id: str | None, message: str) -> None:
        events = agent.run_turn(session_id, message)
        try:
            async for event in events:
                await self._queue.put(event)
        except Exception as exc:
            await self._queue.put(_Failed(exc))
            return
        finally:
            aclose = getattr(events, "aclose", None)
            if aclose is not None:
                await aclose()
        await self._queue.put(_END)

    async def _next(self, wait_s: float | None = None) -> Item | None:
        """The next queued item, or None after `wait_s` seconds (the pending get is kept)."""
        if self._getter is None:
            self._getter = asyncio.ensure_future(self._queue.get())
        done, _ = await asyncio.wait({self._getter}, timeout=wait_s)
        if not done:
            return None
        item, self._getter = self._getter.result(), None
        return item

    async def _drain(self) -> None:
        """Let the agent finish what it does after its last event (e.g. saving the session)."""
        while not self._task.done() or not self._queue.empty():
            if isinstance(await self._next(), _Ended | _Failed):
                break

    def _require_started(self) -> TurnEvent:
        if self._first is None:
            raise RuntimeError("call start() before rest()")
        return self._first

    @staticmethod
    def _error_event(first: TurnEvent, item: _Failed | _Ended) -> TurnEvent:
        if isinstance(item, _Ended):
            error = {"code": "internal_error", "message": "the turn ended without done or error"}
            log.error("agent turn %s ended without a terminal event", first.turn_id)
        else:
            status, error = describe_exception(item.exc)
            if status >= 500 and not isinstance(item.exc, PickwiseError):
                log.error("agent turn %s failed", first.turn_id, exc_info=item.exc)
        return TurnEvent(
            type="error", turn_id=first.turn_id, session_id=first.session_id, data=error
        )
