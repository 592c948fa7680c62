"""A per-search `RecallTrace` in a context variable: cache level, encodes, vector queries and
ms per step, recorded by the recall layer so a tool can report them without changing the
`Retriever` protocol. Child tasks share the caller's trace object."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "CacheLevel",
    "RecallTrace",
    "current_trace",
    "recall_trace",
    "record_cache_level",
    "record_encode",
    "record_vector_query",
    "timed_step",
]

CacheLevel = Literal["miss", "l1", "l2"]


@dataclass
class RecallTrace:
    """Counts and timings of one search; `cache` is the level of the last cached recall."""

    cache_levels: list[CacheLevel] = field(default_factory=list)
    encodes: int = 0
    vector_queries: int = 0
    steps_ms: dict[str, float] = field(default_factory=dict)

    @property
    def cache(self) -> CacheLevel | None:
        """Level that answered the most recent cached recall (None before any)."""
        return self.cache_levels[-1] if self.cache_levels else None

    def add_ms(self, step: str, ms: float) -> None:
        """Add `ms` to the running total of `step`."""
        self.steps_ms[step] = self.steps_ms.get(step, 0.0) + ms


_TRACE: ContextVar[RecallTrace | None] = ContextVar("pickwise_recall_trace", default=None)


def current_trace() -> RecallTrace | None:
    """The trace of the current context, if a caller started one."""
    return _TRACE.get()


@contextmanager
def recall_trace() -> Iterator[RecallTrace]:
    """Start a fresh trace for the enclosed code (one search) and restore the previous after."""
    trace = RecallTrace()
    token = _TRACE.set(trace)
    try:
        yield trace
    finally:
        _TRACE.reset(token)


def record_cache_level(level: CacheLevel) -> None:
    """Note which cache level answered a recall."""
    trace = _TRACE.get()
    if trace is not None:
        trace.cache_levels.append(level)


def record_encode() -> None:
    """Note one query encoding."""
    trace = _TRACE.get()
    if trace is not None:
        trace.encodes += 1


def record_vector_query() -> None:
    """Note one query sent to the vector store."""
    trace = _TRACE.get()
    if trace is not None:
        trace.vector_queries += 1


@contextmanager
def timed_step(step: str) -> Iterator[None]:
    """Add the wall time of the enclosed block to `step` in the current trace."""
    trace = _TRACE.get()
    start = time.perf_counter()
    try:
        yield
    finally:
        if trace is not None:
            trace.add_ms(step, (time.perf_counter() - start) * 1000.0)
