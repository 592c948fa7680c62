"""The turn's CPU pool: work runs on another thread than the event loop's, sees the turn's
pinned parameters, and the pool holds one thread per turn the admission bound admits."""

from __future__ import annotations

import asyncio
import threading

from app.config.params.llm import LLM_TURN_DEADLINE_S
from app.config.registry import REGISTRY
from app.recall.offload import offload, pool_size


def _where_and_what() -> tuple[int, float]:
    return threading.get_ident(), LLM_TURN_DEADLINE_S.get()


async def test_work_runs_off_the_loop_with_the_turns_parameters() -> None:
    with REGISTRY.overridden(LLM_TURN_DEADLINE_S=7.5), REGISTRY.pinned(REGISTRY.snapshot()):
        thread, seen = await offload(_where_and_what)
    assert thread != threading.get_ident()
    assert seen == 7.5


async def test_the_loop_keeps_running_while_the_pool_works() -> None:
    started = threading.Event()
    release = threading.Event()

    def blocking() -> str:
        started.set()
        release.wait(timeout=30)
        return "done"

    work = asyncio.ensure_future(offload(blocking))
    await asyncio.to_thread(started.wait, 30)
    other = asyncio.ensure_future(asyncio.sleep(0, result="loop ran"))
    assert await other == "loop ran", "the loop ran another task meanwhile"
    assert not work.done()
    release.set()
    assert await work == "done"


def test_the_pool_is_sized_from_the_admission_bound() -> None:
    with REGISTRY.overridden(API_MAX_TURNS_IN_FLIGHT=5):
        assert pool_size() == 5
