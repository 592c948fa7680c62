"""How many times a turn reads shopper text into a plan: every rule-planner call and every
LLM plan draft notes one reading on the counter of the running turn, if there is one."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

__all__ = ["Readings", "count_readings_on", "counting_readings", "note_reading"]


@dataclass
class Readings:
    """Readings of one turn, shared by the tasks and threads the turn starts."""

    count: int = 0


_CURRENT: ContextVar[Readings | None] = ContextVar("pickwise_readings", default=None)


def note_reading() -> None:
    """Count one reading of shopper text on the running turn's counter (none: no turn)."""
    readings = _CURRENT.get()
    if readings is not None:
        readings.count += 1


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
