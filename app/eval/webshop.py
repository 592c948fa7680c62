"""WebShop's crowd-written shopping goals through the whole offline turn (plan, search, pick,
answer), each the first turn of a new session: no goal may crash a turn; outcomes counted
(picked, answered without a pick, refused as bad input) with the turn's p50/p95."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.agent.chat import UNANSWERED, ShoppingAgent, collect
from app.errors import InvalidRequest, PickwiseError
from app.eval.bench_stats import percentile

__all__ = ["GoalRun", "load_goals", "run_goals"]

GOALS_FILE = Path("webshop") / "human_goals.json"


def load_goals(data_dir: Path) -> list[str]:
    """The 12,087 human goals, in the file's order."""
    goals = json.loads((data_dir / GOALS_FILE).read_text(encoding="utf-8"))
    return [str(g) for g in goals]


@dataclass
class GoalRun:
    """Outcome counts, turn times and the first crashes of a run over goals."""

    outcomes: Counter[str] = field(default_factory=Counter)
    turn_ms: list[float] = field(default_factory=list)
    crashes: list[dict[str, str]] = field(default_factory=list)
    wall_s: float = 0.0

    def report(self) -> dict[str, Any]:
        done = sum(self.outcomes.values())
        return {
            "goals": done,
            "crashes": self.outcomes["crash"],
            "outcomes": dict(sorted(self.outcomes.items())),
            "turn_p50_ms": round(percentile(self.turn_ms, 50), 1) if self.turn_ms else None,
            "turn_p95_ms": round(percentile(self.turn_ms, 95), 1) if self.turn_ms else None,
            "goals_per_s": round(done / self.wall_s, 3) if self.wall_s else None,
            "wall_s": round(self.wall_s, 1),
            "first_crashes": self.crashes[:10],
        }


async def run_goals(
    agent: ShoppingAgent, goals: Sequence[str], *, deadline: float | None = None
) -> GoalRun:
    """Each goal as the first turn of a fresh session, in order, until `deadline`
    (`time.monotonic()`); a turn that raises anything but bad input is a crash."""
    run = GoalRun()
    started = time.monotonic()
    for goal in goals:
        if deadline is not None and time.monotonic() > deadline:
            break
        turn_start = time.perf_counter()
        outcome = await _one(agent, goal, run)
        run.outcomes[outcome] += 1
        if outcome != "crash":
            run.turn_ms.append((time.perf_counter() - turn_start) * 1000)
    run.wall_s = time.monotonic() - started
    return run


async def _one(agent: ShoppingAgent, goal: str, run: GoalRun) -> str:
    try:
        summary = await collect(agent.run_turn(None, goal))
    except InvalidRequest:
        return "refused_input"
    except PickwiseError as exc:
        run.crashes.append({"goal": goal, "error": f"{exc.code}: {exc}"})
        return "crash"
    except Exception as exc:  # a crash is what this benchmark counts
        run.crashes.append({"goal": goal, "error": f"{type(exc).__name__}: {exc}"})
        return "crash"
    if summary.answer == UNANSWERED:
        return "unanswered"
    return "picked" if summary.picks else "answered_without_pick"
