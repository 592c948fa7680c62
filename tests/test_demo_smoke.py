"""The demo's smoke part on the real index: searches, the six conversations through the real
offline agent and the recall smoke test pass `scripts/demo_thresholds.json`; a threshold the
run misses (or a metric it does not measure) fails with its name and a non-zero exit code."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.api.app import build_agent
from app.catalog.loader import load_catalog
from app.config.settings import Settings
from app.eval.demo import ERROR, DemoOptions, DemoRun, conclude, ensure_reranker, measure, offline
from app.eval.demo_script import SCENARIOS
from app.eval.demo_thresholds import FAILED, PASSED, load_thresholds
from app.recall.search_index import SearchIndex

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
