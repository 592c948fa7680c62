"""The readings counter: every rule-planner call inside a turn's block counts once, on the
turn's counter, across the tasks and threads it starts; the planner tool reads once."""

from __future__ import annotations

import asyncio

import pytest

from app.eval.language_cases import load_cases
from app.tools.base import ToolContext, invoke_tool
from app.tools.plan.planner_rules import plan_from_text, read_plan
from app.tools.plan.readings import Readings, count_readings_on, counting_readings, note_reading
from app.tools.planner.planner import PlannerResult, PlannerTool


def test_readings_outside_a_turn_count_nowhere() -> None:
    note_reading()
    plan_from_text(["a mouse"])
    with counting_readings() as readings:
        pass
    assert readings.count == 0


async def test_tasks_and_threads_of_the_block_count_on_its_counter() -> None:
    with counting_readings(Readings()) as readings:
        plan_from_text(["a mouse", "under $20"])
        await asyncio.create_task(asyncio.to_thread(plan_from_text, ["a keyboard"]))
        with counting_readings() as inner:
            plan_from_text(["a laptop"])
    plan_from_text(["a tablet"])
    assert (readings.count, inner.count) == (2, 1)


async def test_a_task_counts_on_the_counter_it_was_given_and_leaves_others_alone() -> None:
    given = Readings()

    async def turn() -> None:
        count_readings_on(given)
        plan_from_text(["a mouse"])
        await asyncio.to_thread(plan_from_text, ["a keyboard"])

    with counting_readings() as outer:
        await asyncio.create_task(turn())
        plan_from_text(["a laptop"])
    assert (given.count, outer.count) == (2, 1)


@pytest.mark.parametrize(
    "messages",
    sorted({c.messages for c in load_cases() if c.messages and c.follow_up is None}),
)
def test_the_latest_message_is_read_as_alone(messages: tuple[str, ...]) -> None:
    reading = read_plan(messages)
    assert reading.plan == plan_from_text(messages)
    assert reading.latest_is_shopping == plan_from_text(messages[-1:]).is_shopping


@pytest.mark.parametrize(
    ("messages", "shopping"),
    [(["a mouse under $20", "thanks, how are you?"], False), (["hi", "a mouse"], True)],
)
async def test_the_planner_tool_reads_the_messages_once(
    messages: list[str], shopping: bool
) -> None:
    with counting_readings() as readings:
        outcome = await invoke_tool(PlannerTool(), {"messages": messages}, ToolContext("s", "t"))
    assert isinstance(outcome.output, PlannerResult)
    assert outcome.output.turn_is_shopping is shopping
    assert readings.count == 1
