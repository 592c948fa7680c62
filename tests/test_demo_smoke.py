"""The demo's smoke part on the real index: searches, the six conversations through the real
offline agent and the recall smoke test pass `scripts/demo_thresholds.json`; a threshold the
run misses (or a metric it does not measure) fails with its name and a non-zero exit code."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.agent.chat import UNANSWERED
from app.agent.events import PickView, TurnSummary
from app.catalog.item import Item
from app.catalog.loader import load_catalog
from app.config.settings import Settings
from app.errors import ConfigError
from app.eval.demo import ERROR, DemoOptions, DemoRun, conclude, ensure_reranker, measure, offline
from app.eval.demo_script import SCENARIOS, Conversation, conversation_metrics
from app.eval.demo_thresholds import FAILED, PASSED, load_thresholds
from app.recall.search_index import SearchIndex
from app.runtime_agent import build_agent

REPO = Path(__file__).resolve().parent.parent
THRESHOLDS = REPO / "scripts" / "demo_thresholds.json"

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


@pytest.fixture(scope="module")
def demo(built_index: Settings) -> tuple[DemoRun, list[str]]:
    """One smoke run of the demo (no training when a reranker exists) and what it printed."""
    lines: list[str] = []
    settings = ensure_reranker(offline(built_index), smoke=True, echo=lines.append)
    thresholds = load_thresholds(THRESHOLDS)
    aliases = load_catalog(settings.data_dir, locale=settings.esci_locale).aliases
    index = SearchIndex.open(settings)
    try:
        options = DemoOptions(thresholds=THRESHOLDS, smoke=True)
        run = measure(
            settings, options, thresholds.smoke, build_agent,
            index=index, aliases=aliases, echo=lines.append,
        )  # fmt: skip
    finally:
        asyncio.run(index.close())
    return run, lines


def test_the_smoke_demo_passes_its_thresholds(demo: tuple[DemoRun, list[str]]) -> None:
    run, _ = demo
    out: list[str] = []
    code = conclude(run, load_thresholds(THRESHOLDS), out.append)
    assert code == PASSED, "\n".join(out)
    assert out[-1].startswith("PASSED: all 17 checks hold")


def test_the_story_shows_searches_every_conversation_a_trace_and_the_table(
    demo: tuple[DemoRun, list[str]],
) -> None:
    run, lines = demo
    text = "\n".join(lines)
    assert "2. Plain searches" in text
    assert "> usb flash drive 32gb" in text
    for scenario in SCENARIOS:
        assert f"shopper: {scenario.message}" in text
    assert "Where the time went in 'a laptop and a mouse under $900'" in text
    assert "harness.demo-recorder" not in text
    assert any(line.strip().startswith("pipeline ") for line in lines)
    assert run.smoke["n_queries"] == 20
    assert {c.scenario.key for c in run.conversations if c.error} == set()


def test_a_missed_threshold_fails_naming_the_metric(
    demo: tuple[DemoRun, list[str]], tmp_path: Path
) -> None:
    run, _ = demo
    data = json.loads(THRESHOLDS.read_text())
    data["checks"]["smoke.pipeline.ndcg@10"] = {"min": run.metrics["smoke.pipeline.ndcg@10"] + 0.01}
    data["checks"]["bundle.not_a_metric"] = {"max": 0}
    strict = tmp_path / "strict.json"
    strict.write_text(json.dumps(data))
    out: list[str] = []
    code = conclude(run, load_thresholds(strict), out.append)
    assert code == FAILED
    assert out[-1] == "FAILED 2 of 18 checks: smoke.pipeline.ndcg@10, bundle.not_a_metric"
    assert any(line.strip().startswith("FAIL smoke.pipeline.ndcg@10 = ") for line in out)
    assert "  FAIL bundle.not_a_metric = not measured (max 0)" in out


def test_the_script_refuses_a_broken_thresholds_file_before_running(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"checks": {"budget.picks": {"least": 1}}}))
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "demo.py"), "--thresholds", str(broken)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )
    assert done.returncode == ERROR
    assert "check 'budget.picks' needs 'min' and/or 'max' only" in done.stdout


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("{not json", "is not valid JSON"),
        ('{"smoke": {}}', "expected an object with a 'checks' object"),
        ('{"checks": {}}', "no checks"),
        ('{"checks": {"a.b": {"min": "1"}}}', "bounds must be numbers"),
        ('{"checks": {"a.b": {"max": 0}}, "smoke": {"query": 5}}', "unknown smoke setting"),
    ],
)
def test_a_bad_thresholds_file_is_a_config_error_saying_why(
    tmp_path: Path, content: str, problem: str
) -> None:
    path = tmp_path / "t.json"
    path.write_text(content)
    with pytest.raises(ConfigError, match=problem):
        load_thresholds(path)


def test_a_configured_or_already_trained_reranker_is_kept(
    settings: Settings, tmp_path: Path
) -> None:
    lines: list[str] = []
    pinned = settings.model_copy(update={"reranker_model": "/models/gate"})
    assert ensure_reranker(pinned, smoke=False, echo=lines.append) is pinned
    trained = tmp_path / "models" / "reranker-0123456789abcdef"
    trained.mkdir(parents=True)
    (trained / "training.json").write_text('{"finished_at": "2026-01-01T00:00:00+00:00"}')
    scratch = settings.model_copy(update={"var_dir": tmp_path, "reranker_model": None})
    assert ensure_reranker(scratch, smoke=True, echo=lines.append) is scratch
    assert lines == [
        "  reranker: as configured (/models/gate)",
        "  reranker: reranker-0123456789abcdef (newest trained model)",
    ]


def _pick(item_id: str, title: str, price: float | None) -> PickView:
    return PickView(item_id=item_id, title=title, platform="amazon", price_usd=price, reason="r")


def _facts(key: str, answer: str, picks: list[PickView], **more: Any) -> dict[str, float]:
    scenario = next(s for s in SCENARIOS if s.key == key)
    summary = TurnSummary(
        session_id="s", turn_id="t", answer=answer, picks=picks, plan=more.pop("plan", {})
    )
    logitech = Item(
        item_id="amazon:1", platform="amazon", title="Mouse M1", brand="Logitech", source="t"
    )
    items = {logitech.item_id: logitech}
    return conversation_metrics(Conversation(scenario, summary, **more), items)


def test_conversation_facts_count_what_each_check_is_about() -> None:
    over = [_pick("amazon:2", "Mouse", 24.99), _pick("amazon:3", "Mouse", 25.01)]
    over.append(_pick("amazon:4", "Mouse", None))
    assert _facts("budget", "", over) == {"budget.picks": 3, "budget.over_budget": 2}
    black = [_pick("amazon:2", "Case Black", 5), _pick("amazon:3", "Case Pink", 5)]
    assert _facts("exclude_term", "", black)["exclude_term.naming_excluded"] == 1
    brand = [_pick("amazon:1", "Mouse M1", 20), _pick("amazon:2", "A LOGITECH mouse", 20)]
    assert _facts("exclude_brand", "", brand)["exclude_brand.excluded_brand"] == 2
    quoted = "No pick: 1 match is above your $10.00 budget; the cheapest is $2,812.95."
    assert _facts("blocked", quoted, [])["blocked.explained_with_price"] == 1
    assert (
        _facts("blocked", "No pick within your $10.00 budget.", [])["blocked.explained_with_price"]
        == 0
    )
    plan = {"bundle": [{"slot": "laptop"}, {"slot": "mouse"}]}
    bundle = _facts("bundle", "", over[:2], plan=plan, picks_by_slot={"laptop": 1, "mouse": 2})
    assert (bundle["bundle.slots"], bundle["bundle.slots_not_one_pick"]) == (2, 1)
    assert _facts("chat", "I can only help with shopping.", [])["chat.answered"] == 1
    assert _facts("chat", UNANSWERED, [])["chat.answered"] == 0
