"""WebShop goals through the whole offline turn: the file holds the 12,087 goals, and a slice
of them (the first few and the longest) runs through the real agent without a crash."""

from __future__ import annotations

import asyncio

import pytest

from app.config.settings import Settings
from app.eval.webshop import load_goals, run_goals
from app.runtime import Runtime
from app.runtime_agent import build_agent

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


def test_the_goal_file_holds_every_goal(settings: Settings) -> None:
    goals = load_goals(settings.data_dir)
    assert len(goals) == 12_087
    assert all(isinstance(g, str) and g.strip() for g in goals)


def test_a_slice_of_goals_runs_through_the_offline_turn_without_a_crash(
    built_index: Settings,
) -> None:
    goals = load_goals(built_index.data_dir)
    chosen = [*goals[:4], max(goals, key=len), ""]
    offline = built_index.model_copy(update={"redis_url": None, "openai_base_url": None})

    async def run() -> dict[str, object]:
        async with Runtime(offline) as runtime:
            return (await run_goals(build_agent(runtime), chosen)).report()

    report = asyncio.run(run())
    assert report["goals"] == len(chosen)
    assert report["crashes"] == 0, report["first_crashes"]
    outcomes = report["outcomes"]
    assert isinstance(outcomes, dict)
    assert outcomes.get("refused_input") == 1, "an empty goal is bad input, not a crash"
    assert sum(outcomes.values()) == len(chosen)
    assert set(outcomes) <= {"picked", "answered_without_pick", "unanswered", "refused_input"}
