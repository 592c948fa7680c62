"""The CPU-bound steps of a turn (query encoding, BM25, cross-encoder scoring, the picker's
stages) run here, off the event loop, so the loop stays free to refuse, stream and answer
health checks. One bounded pool per process, sized from the admission bound: a turn runs
one step at a time, so more threads than turns in flight would never be busy."""

from __future__ import annotations

import asyncio
import contextvars
import functools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from app.config.params.api import API_MAX_TURNS_IN_FLIGHT

__all__ = ["offload", "pool_size"]

P = ParamSpec("P")
T = TypeVar("T")

_POOL: ThreadPoolExecutor | None = None
_LOCK = threading.Lock()


def pool_size() -> int:
    """Threads of the pool: one per turn the admission bound lets run (read at first use)."""
    return max(1, API_MAX_TURNS_IN_FLIGHT.get())


def _pool() -> ThreadPoolExecutor:
    global _POOL
    with _LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(pool_size(), thread_name_prefix="pickwise-cpu")
        return _POOL


async def offload(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """`fn(*args, **kwargs)` on the pool, in a copy of the caller's context (the turn's pinned
    parameters, its readings counter), awaited without holding the event loop."""
    call = functools.partial(contextvars.copy_context().run, fn, *args, **kwargs)
    return await asyncio.get_running_loop().run_in_executor(_pool(), call)
