"""WebShop evaluation of the rule planner: budget_usd must equal N in every goal that says
"price lower than N dollars" (appended WebShop's way when the file states none, see
`priced_goals`), plus counts of excludes, avoids, bundles and unstated budgets."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from app.errors import ConfigError
from app.tools.plan import ShoppingPlan, plan_from_text

__all__ = [
    "GOALS_FILE",
    "PRICE_CLAUSE",
    "QUERY_MAP_FILE",
    "WEBSHOP_PRICE_GRID",
    "budget_score",
    "constraint_census",
    "load_goals",
    "load_query_map",
    "priced_goals",
    "query_budget_score",
    "run_planner_eval",
]

GOALS_FILE = Path("webshop") / "human_goals.json"
QUERY_MAP_FILE = Path("webshop") / "goal_query_map.json"
PRICE_CLAUSE = re.compile(r"price lower than (\d+(?:\.\d+)?) dollars")
WEBSHOP_PRICE_GRID = tuple(10.0 * i for i in range(1, 100))
"""`PRICE_RANGE` of WebShop's goal generator: the ceilings its price clauses use."""
_QUERY_PRICE = re.compile(r"\$\s?(\d+(?:\.\d+)?)(?![\d.]*\w)|(?<![\w.])(\d+(?:\.\d+)?) dollars\b")


def load_goals(data_dir: Path) -> list[str]:
    """The WebShop human instructions, as stored."""
    goals = _read_json(data_dir / GOALS_FILE)
    if not isinstance(goals, list) or not all(isinstance(g, str) for g in goals):
        raise ConfigError(f"{data_dir / GOALS_FILE} is not a JSON list of strings")
    return goals


def load_query_map(data_dir: Path) -> dict[str, list[str]]:
    """WebShop instruction -> the search queries people typed for it."""
    raw = _read_json(data_dir / QUERY_MAP_FILE)
    if not isinstance(raw, dict):
        raise ConfigError(f"{data_dir / QUERY_MAP_FILE} is not a JSON object")
    return {str(k): [str(q) for q in v] for k, v in raw.items()}


def priced_goals(goals: Sequence[str], *, seed: int = 0) -> tuple[list[tuple[str, float]], str]:
    """(goal text, stated ceiling) pairs and how the price got there: "stated" or "appended"."""
    stated = [(g, float(m.group(1))) for g in goals if (m := PRICE_CLAUSE.search(g))]
    if stated:
        return stated, "stated"
    rng = random.Random(seed)
    pairs = []
    for goal in goals:
        price = rng.choice(WEBSHOP_PRICE_GRID)
        pairs.append((goal.strip(".") + f", and price lower than {price:.2f} dollars", price))
    return pairs, "appended"


def budget_score(pairs: Sequence[tuple[str, float]], *, max_misses: int = 50) -> dict[str, Any]:
    """Share of texts whose plan has budget_usd equal to the expected ceiling, and the misses."""
    misses = []
    for text, expected in pairs:
        got = plan_from_text([text]).budget_usd
        if got != expected:
            misses.append({"goal": text, "expected": expected, "got": got})
    n = len(pairs)
    return {
        "n": n,
        "budget_exact_rate": round((n - len(misses)) / n, 4) if n else None,
        "misses": misses[:max_misses],
        "misses_total": len(misses),
    }


def query_budget_score(query_map: dict[str, list[str]], *, max_misses: int = 20) -> dict[str, Any]:
    """Human search queries that state exactly one "$N" / "N dollars": is the budget N?"""
    pairs = []
    for query in sorted({q for qs in query_map.values() for q in qs}):
        prices = [float(a or b) for a, b in _QUERY_PRICE.findall(query.lower())]
        if len(prices) == 1:
            pairs.append((query, prices[0]))
    score = budget_score(pairs, max_misses=max_misses)
    return {"n": score["n"], "exact_rate": score["budget_exact_rate"], "misses": score["misses"]}


def constraint_census(goals: Sequence[str], *, examples: int = 8, seed: int = 0) -> dict[str, Any]:
    """How many goals yield each kind of finding, with a seeded sample of each to read;
    "exclude_by_negation" counts excludes from "not / no / without" rather than "X-free"."""
    plans = [(goal, plan_from_text([goal])) for goal in goals]
    kinds: dict[str, Callable[[str, ShoppingPlan], bool]] = {
        "exclude": lambda g, p: bool(p.exclude),
        "exclude_by_negation": lambda g, p: any(
            not c.evidence.lower().endswith("free") for c in p.exclude
        ),
        "avoid": lambda g, p: bool(p.avoid),
        "bundle": lambda g, p: len(p.bundle) > 1,
        "must_have": lambda g, p: bool(p.must_have),
        "prefer": lambda g, p: bool(p.prefer),
        "category": lambda g, p: p.category is not None,
        "not_shopping": lambda g, p: not p.is_shopping,
        "budget_without_price": lambda g, p: (
            p.budget_usd is not None and not PRICE_CLAUSE.search(g)
        ),
    }
    rng = random.Random(seed)
    counts: dict[str, Any] = {}
    samples: dict[str, list[dict[str, Any]]] = {}
    for kind, test in kinds.items():
        hits = [(g, p) for g, p in plans if test(g, p)]
        counts[f"goals_with_{kind}"] = len(hits)
        if kind in {
            "exclude",
            "exclude_by_negation",
            "avoid",
            "bundle",
            "not_shopping",
            "budget_without_price",
        }:
            chosen = rng.sample(hits, min(examples, len(hits)))
            samples[kind] = [_example(g, p, kind) for g, p in chosen]
    counts["excludes_total"] = sum(len(p.exclude) for _, p in plans)
    counts["avoids_total"] = sum(len(p.avoid) for _, p in plans)
    counts["examples"] = samples
    return counts


def run_planner_eval(
    data_dir: Path, *, max_misses: int = 50, seed: int = 0, examples: int = 8
) -> dict[str, Any]:
    """The whole WebShop evaluation of the rule planner, as one JSON-ready report."""
    goals = load_goals(data_dir)
    pairs, clause = priced_goals(goals, seed=seed)
    report: dict[str, Any] = budget_score(pairs, max_misses=max_misses)
    report["price_clause"] = clause
    report["goals_total"] = len(goals)
    report["goals_stating_price"] = len(pairs) if clause == "stated" else 0
    report["seed"] = seed
    report.update(constraint_census(goals, examples=examples, seed=seed))
    if (data_dir / QUERY_MAP_FILE).is_file():
        report["query_budget"] = query_budget_score(load_query_map(data_dir))
    return report


def _example(goal: str, plan: ShoppingPlan, kind: str) -> dict[str, Any]:
    out: dict[str, Any] = {"goal": goal}
    if kind.startswith("exclude"):
        out["exclude"] = [[c.term, c.evidence] for c in plan.exclude]
    elif kind == "avoid":
        out["avoid"] = [[c.term, c.evidence] for c in plan.avoid]
    elif kind == "bundle":
        out["bundle"] = [s.category for s in plan.bundle]
    elif kind == "budget_without_price":
        out["budget_usd"] = plan.budget_usd
    return out


def _read_json(path: Path) -> Any:
    if not path.is_file():
        raise ConfigError(f"{path} not found; set PICKWISE_DATA_DIR to the datasets folder")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ConfigError(f"{path} is not valid JSON: {exc}") from exc
