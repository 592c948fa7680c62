"""The WebShop evaluation of the rule planner, on the real goal file, and its CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from app.cli.eval_cmd import app
from app.config import get_settings
from app.errors import ConfigError
from app.eval.planner_eval import (
    PRICE_CLAUSE,
    WEBSHOP_PRICE_GRID,
    budget_score,
    load_goals,
    priced_goals,
)


@pytest.fixture(scope="module")
def data_dir() -> Path:
    return get_settings().data_dir


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    """One full run through the CLI, as JSON: it exercises the command and the evaluation."""
    result = CliRunner().invoke(app, ["planner", "--json", "--max-misses", "50"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_budget_is_exact_on_webshop_price_goals(report: dict[str, Any], data_dir: Path) -> None:
    goals = load_goals(data_dir)
    assert report["goals_total"] == len(goals) == 12087
    assert report["n"] == len(goals)
    assert report["budget_exact_rate"] >= 0.98
    assert report["misses_total"] == round(report["n"] * (1 - report["budget_exact_rate"]))
    assert len(report["misses"]) <= 50


def test_report_says_how_the_price_clause_got_there(report: dict[str, Any], data_dir: Path) -> None:
    stated = [g for g in load_goals(data_dir) if PRICE_CLAUSE.search(g)]
    assert report["goals_stating_price"] == len(stated)
    assert report["price_clause"] == ("stated" if stated else "appended")


def test_no_budget_is_read_where_no_price_is_stated(report: dict[str, Any]) -> None:
    assert report["goals_with_budget_without_price"] <= 0.001 * report["goals_total"]


def test_constraint_counts_and_readable_examples(report: dict[str, Any]) -> None:
    assert report["goals_with_exclude"] > 1000
    assert report["goals_with_bundle"] >= 1
    assert report["goals_with_not_shopping"] == 0
    assert report["goals_with_category"] >= 0.9 * report["goals_total"]
    for example in report["examples"]["exclude"]:
        for term, evidence in example["exclude"]:
            assert evidence in example["goal"]
            assert term.split()[0] in evidence.lower()


def test_human_search_queries_with_a_price(report: dict[str, Any]) -> None:
    assert report["query_budget"]["n"] > 100
    assert report["query_budget"]["exact_rate"] >= 0.98


def test_appended_clause_follows_webshop() -> None:
    pairs, clause = priced_goals(["i need a red lamp.", "a blue rug"], seed=3)
    assert clause == "appended"
    for (text, price), goal in zip(pairs, ["i need a red lamp", "a blue rug"], strict=True):
        assert price in WEBSHOP_PRICE_GRID
        assert text == f"{goal}, and price lower than {price:.2f} dollars"
    assert priced_goals(["a lamp, and price lower than 30.00 dollars"]) == (
        [("a lamp, and price lower than 30.00 dollars", 30.0)],
        "stated",
    )


def test_misses_are_reported_and_capped() -> None:
    pairs = [
        ("a lamp, and price lower than 30.00 dollars", 30.0),
        ("a lamp, and price lower than 30.00 dollars", 25.0),
        ("a 16 inch lamp", 16.0),
        ("a lamp", 40.0),
    ]
    score = budget_score(pairs, max_misses=2)
    assert score["n"] == 4
    assert score["budget_exact_rate"] == 0.25
    assert score["misses_total"] == 3
    assert score["misses"] == [
        {"goal": "a lamp, and price lower than 30.00 dollars", "expected": 25.0, "got": 30.0},
        {"goal": "a 16 inch lamp", "expected": 16.0, "got": None},
    ]
    assert budget_score([])["budget_exact_rate"] is None


def test_human_summary(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    goals = ["a quiet gaming keyboard, not logitech", "a laptop and a mouse"]
    (tmp_path / "webshop").mkdir()
    (tmp_path / "webshop" / "human_goals.json").write_text(json.dumps(goals), encoding="utf-8")
    monkeypatch.setenv("PICKWISE_DATA_DIR", str(tmp_path))
    get_settings.cache_clear()
    try:
        result = CliRunner().invoke(app, ["planner"])
    finally:
        get_settings.cache_clear()
    assert result.exit_code == 0, result.output
    assert "budget exact: 1.0 over 2 goals (price clause appended; 0 misses)" in result.output
    assert "with exclude 1 (1 from not/no/without/free of, rest X-free), avoid 0" in result.output


def test_missing_goal_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"human_goals\.json"):
        load_goals(tmp_path)
