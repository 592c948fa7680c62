"""`SingleFlight`: concurrent calls for one key in one process share a single running task."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from functools import partial
from typing import Any, Generic, TypeVar

V = TypeVar("V")


class SingleFlight(Generic[V]):
    """At most one task per key; callers await it shielded, so a caller that is cancelled
    leaves the task running for the others, and its result or error reaches them all."""

    def __init__(self) -> None:
        self._tasks: dict[str, asyncio.Task[V]] = {}

    async def run(self, key: str, start: Callable[[], Coroutine[Any, Any, V]]) -> tuple[V, bool]:
        """The result of the task for `key`, starting it with `start()` if none is running;
        the flag says whether this caller joined a task another caller had started."""
        loop = asyncio.get_running_loop()
        task = self._tasks.get(key)
        joined = task is not None and not task.done() and task.get_loop() is loop
        if task is None or not joined:
            task = loop.create_task(start())
            self._tasks[key] = task
            task.add_done_callback(partial(self._finished, key))
        return await asyncio.shield(task), joined

    def in_flight(self) -> int:
        """Tasks still running."""
        return sum(not t.done() for t in self._tasks.values())

    def _finished(self, key: str, task: asyncio.Task[V]) -> None:
        if self._tasks.get(key) is task:
            del self._tasks[key]
        if not task.cancelled():
            task.exception()  # retrieved here, so an error nobody awaited is not logged as lost
