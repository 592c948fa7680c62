"""One reading of the parameters per turn: a snapshot keeps the values of its moment, and a
pinned snapshot is what `Param.get()` returns in its context, in the tasks and worker threads
started from it, whatever overrides are applied meanwhile."""

from __future__ import annotations

import asyncio
import threading

import pytest

from app.config.registry import ParamRegistry, ParamSnapshot


def test_a_snapshot_keeps_the_values_of_its_moment() -> None:
    reg = ParamRegistry(env_file=None)
    depth = reg.declare("DEPTH", int, 5, group="t", description="a depth", minimum=1)
    reg.declare("MODE", str, "fast", group="t", description="a mode")
    reg.load_env({"DEPTH": "7"})
    reg.apply_overrides({"MODE": "slow"}, version=3)
    snapshot = reg.snapshot()
    reg.apply_overrides({"DEPTH": 9}, version=4)
    assert isinstance(snapshot, ParamSnapshot)
    assert dict(snapshot) == {"DEPTH": 7, "MODE": "slow"}
    assert snapshot.value(depth) == snapshot["DEPTH"] == 7
    assert snapshot.version == 3
    assert depth.get() == 9


async def test_a_pinned_context_reads_its_snapshot_while_overrides_change() -> None:
    reg = ParamRegistry(env_file=None)
    depth = reg.declare("DEPTH", int, 5, group="t", description="a depth", minimum=1)
    changed = asyncio.Event()
    seen: dict[str, int] = {}

    async def read() -> int:
        return depth.get()

    async def turn() -> None:
        seen["start"] = depth.get()
        await changed.wait()
        seen["after_change"] = depth.get()
        seen["child_task"] = await asyncio.create_task(read())
        seen["to_thread"] = await asyncio.to_thread(depth.get)

    with reg.pinned(reg.snapshot()):
        task = asyncio.create_task(turn())
    await asyncio.sleep(0)
    reg.apply_overrides({"DEPTH": 11}, version=1)
    changed.set()
    await task
    assert seen == {"start": 5, "after_change": 5, "child_task": 5, "to_thread": 5}
    assert depth.get() == 11, "outside the pinned context the new value is read"


def test_a_plain_thread_started_outside_reads_live_values() -> None:
    reg = ParamRegistry(env_file=None)
    depth = reg.declare("DEPTH", int, 5, group="t", description="a depth", minimum=1)
    seen: list[int] = []
    with reg.pinned(reg.snapshot()):
        reg.apply_overrides({"DEPTH": 6}, version=1)
        assert depth.get() == 5
        worker = threading.Thread(target=lambda: seen.append(depth.get()))
        worker.start()
        worker.join()
    assert seen == [6]


def test_overridden_inside_a_pinned_context_is_read_and_then_undone() -> None:
    reg = ParamRegistry(env_file=None)
    depth = reg.declare("DEPTH", int, 5, group="t", description="a depth", minimum=1)
    mode = reg.declare("MODE", str, "fast", group="t", description="a mode")
    with reg.pinned(reg.snapshot()):
        reg.apply_overrides({"MODE": "slow"}, version=1)
        with reg.overridden(DEPTH=2):
            assert (depth.get(), mode.get()) == (2, "fast")
        assert (depth.get(), mode.get()) == (5, "fast")
    assert (depth.get(), mode.get()) == (5, "slow")


def test_a_snapshot_pins_only_its_own_registry() -> None:
    one, other = ParamRegistry(env_file=None), ParamRegistry(env_file=None)
    one.declare("DEPTH", int, 5, group="t", description="a depth")
    depth = other.declare("DEPTH", int, 8, group="t", description="a depth")
    with pytest.raises(ValueError, match="registry it was taken from"):
        other.pinned(one.snapshot()).__enter__()
    with one.pinned(one.snapshot()):
        other.apply_overrides({"DEPTH": 9}, version=1)
        assert depth.get() == 9
