"""How many times a turn reads shopper text into a plan: every rule-planner call and every
LLM plan draft notes a reading on the counter of the running turn, if there is one; inside
`one_reading` (a planner making one plan, an LLM draft checked by the rules) they count once."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

__all__ = [
    "Readings",
    "count_readings_on",
    "counting_readings",
    "note_reading",
    "one_reading",
]


@dataclass
class Readings:
    """Readings of one turn, shared by the tasks and threads the turn starts."""

    count: int = 0


_CURRENT: ContextVar[Readings | None] = ContextVar("pickwise_readings", default=None)
_ONE: ContextVar[list[bool] | None] = ContextVar("pickwise_one_reading", default=None)
"""Inside `one_reading`: whether its reading is counted yet (a list, shared by the threads
and tasks the block starts, which copy the context)."""


def note_reading() -> None:
    """Count one reading of shopper text on the running turn's counter (none: no turn);
    inside `one_reading`, only the first."""
    readings = _CURRENT.get()
    if readings is None:
        return
    counted = _ONE.get()
    if counted is not None:
        if counted[0]:
            return
        counted[0] = True
    readings.count += 1


@contextmanager
def one_reading() -> Iterator[None]:
    """The readers inside the block make one plan of one text: they count as one reading."""
    token = _ONE.set([False])
    try:
        yield
    finally:
        _ONE.reset(token)


def count_readings_on(readings: Readings) -> None:
    """Count the rest of the current task's readings (and of the tasks it starts) on
    `readings`; for a task of its own, whose context ends with it."""
    _CURRENT.set(readings)


@contextmanager
def counting_readings(readings: Readings | None = None) -> Iterator[Readings]:
    """Count the readings made inside the block (and the tasks it starts) on `readings`."""
    counter = readings if readings is not None else Readings()
    token = _CURRENT.set(counter)
    try:
        yield counter
    finally:
        _CURRENT.reset(token)
