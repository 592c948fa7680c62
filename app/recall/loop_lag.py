"""How late the running event loop is: a light ticker per loop records how late each tick
ran, so a timeout can be told apart as local (the loop was busy) or remote (it was not)."""

from __future__ import annotations

import asyncio
import contextlib
import time
import weakref
from collections import deque

__all__ = ["LoopLag", "loop_lag"]

TICK_S = 0.05
_KEPT = 400


class LoopLag:
    """Ticks every `tick_s` in one loop; `worst_since(t)` is the longest stall seen since `t`
    (including the stall in progress, if the next tick is overdue)."""

    def __init__(self, tick_s: float = TICK_S) -> None:
        self.tick_s = tick_s
        self._lags: deque[tuple[float, float]] = deque(maxlen=_KEPT)
        self._next_tick = time.monotonic() + tick_s
        self._task: asyncio.Task[None] | None = None

    def ensure_running(self) -> None:
        """Start the ticker in the running loop if it is not ticking yet."""
        if self._task is None or self._task.done():
            self._next_tick = time.monotonic() + self.tick_s
            self._task = asyncio.get_running_loop().create_task(self._tick(), name="loop-lag")

    def worst_since(self, since: float) -> float:
        """Seconds of the longest stall of the loop seen at or after `since` (monotonic)."""
        now = time.monotonic()
        worst = max(0.0, now - self._next_tick)
        for at, lag in reversed(self._lags):
            if at < since:
                break
            worst = max(worst, lag)
        return worst

    def stop(self) -> None:
        """Cancel the ticker (tests)."""
        if self._task is not None:
            self._task.cancel()

    async def _tick(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            while True:
                now = time.monotonic()
                late = now - self._next_tick
                if late > 0:
                    self._lags.append((now, late))
                self._next_tick = now + self.tick_s
                await asyncio.sleep(self.tick_s)


_MONITORS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LoopLag] = (
    weakref.WeakKeyDictionary()
)


def loop_lag() -> LoopLag:
    """The ticking monitor of the running loop, started on first use."""
    loop = asyncio.get_running_loop()
    monitor = _MONITORS.get(loop)
    if monitor is None:
        monitor = _MONITORS[loop] = LoopLag()
    monitor.ensure_running()
    return monitor
