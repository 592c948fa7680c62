"""The benchmark library and `pickwise bench`: the statistics by hand, the medians over runs,
the results log, one real run on the full index (its shape and counts, never its times),
and the embedder benchmark script on the catalog texts it dumps."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from app.cli.bench_cmd import summary_lines
from app.cli.main import app
from app.config.params.picker import PICK_RERANK_K
from app.config.settings import Settings
from app.eval.bench import BenchOptions, run_bench, summarise
from app.eval.bench_stats import append_result, median_of, percentile, summary_ms
from app.language.vocabulary_measure import measure
from app.recall.embedder import Embedder
from app.recall.index_manifest import current_paths
from app.recall.reranker import trained_models
from app.recall.search_index import SearchIndex
from app.runtime_agent import build_agent

LEXICON = Path(__file__).resolve().parents[2] / "data" / "lexicon"
REQUIRED = {
    "index": {"items", "build_s", "items_per_s"},
    "search": {"cold_ms", "warm_ms", "warm_speedup"},
    "singleflight": {"concurrent", "encodes", "vector_queries"},
    "gate": {"candidates", "p50_ms"},
    "turn": {"p50_ms", "p95_ms", "readings_p50", "readings_max"},
    "language": {
        "typed_vocabulary_lines",
        "product_vocabulary_lines",
        "grammar_lines",
        "lexicon_files",
        "lexicon_entries",
    },
}


def test_percentiles_interpolate_linearly() -> None:
    assert percentile([4.0, 1.0, 3.0, 2.0], 50) == pytest.approx(2.5)
    assert percentile([1.0, 2.0, 3.0, 4.0, 5.0], 95) == pytest.approx(4.8)
    assert percentile([7.0], 95) == 7.0
    assert summary_ms([0.001, 0.003, 0.002]) == {
        "p50_ms": 2.0,
        "p95_ms": 2.9,
        "mean_ms": 2.0,
        "n": 3,
    }
    assert median_of([3.0, 1.0, 2.0, 10.0]) == 2.5


def _run(cold: float, warm: float, encodes: int, turn_p50: float) -> dict[str, Any]:
    return {
        "search": {
            "cold_ms": cold,
            "warm_ms": warm,
            "queries": 12,
            "all_cold_were_misses": True,
            "all_warm_were_l1": encodes == 1,
        },
        "singleflight": {
            "concurrent": 8,
            "encodes": encodes,
            "vector_queries": encodes,
            "cache_fetches": 1,
            "joined": 7,
        },
        "gate": {"candidates": 15, "p50_ms": turn_p50 / 2, "p95_ms": turn_p50, "model": "m"},
        "turn": {
            "p50_ms": turn_p50,
            "p95_ms": turn_p50 * 3,
            "turns": 6,
            "failed": 0,
            "readings": [encodes + 2, 3],
        },
    }


def test_runs_are_summarised_by_medians_and_the_worst_count() -> None:
    summary = summarise([_run(40, 2, 1, 100), _run(60, 1, 2, 300), _run(50, 4, 1, 200)])
    assert summary["search"]["cold_ms"] == 50
    assert summary["search"]["warm_ms"] == 2
    assert summary["search"]["warm_speedup"] == 25.0
    assert summary["search"]["all_warm_were_l1"] is False
    assert summary["singleflight"]["encodes"] == 2
    assert summary["gate"] == {"candidates": 15, "p50_ms": 100, "p95_ms": 200, "model": "m"}
    assert summary["turn"]["p50_ms"] == 200
    assert summary["turn"]["p95_ms"] == 600
    assert (summary["turn"]["readings_p50"], summary["turn"]["readings_max"]) == (3.0, 4)


def test_a_result_row_carries_the_commit_and_time(tmp_path: Path) -> None:
    log = tmp_path / "results.jsonl"
    append_result("one", {"x": 1}, log)
    append_result("two", {"x": 2}, log)
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(r["bench"], r["x"]) for r in rows] == [("one", 1), ("two", 2)]
    assert all(r["commit"] != "unknown" and len(r["at"]) == 19 for r in rows)


@pytest.fixture(scope="module")
def index(built_index: Settings, embedder: Embedder) -> Iterator[SearchIndex]:
    opened = SearchIndex.open(built_index, embedder=embedder)
    yield opened
    asyncio.run(opened.close())


@pytest.fixture(scope="module")
def bench_run(
    built_index: Settings, index: SearchIndex, tmp_path_factory: pytest.TempPathFactory
) -> tuple[dict[str, Any], Path]:
    """One short real run: two searches, two turns, one repeat, logged to a scratch file."""
    log = tmp_path_factory.mktemp("bench") / "results.jsonl"
    options = BenchOptions(
        repeats=1,
        warm_repeats=2,
        gate_repeats=1,
        queries=("wireless ergonomic mouse", "usb c charging cable"),
        turn_messages=("a wireless mouse under $25", "what's the weather in Paris?"),
        results=log,
    )
    return run_bench(built_index, options, build_agent, index=index), log


@pytest.mark.slow
def test_a_real_run_reports_every_figure_and_logs_it(
    bench_run: tuple[dict[str, Any], Path], built_index: Settings
) -> None:
    report, log = bench_run
    for section, keys in REQUIRED.items():
        assert keys <= set(report[section]), section
    manifest = current_paths(built_index.index_dir).read_manifest()
    assert report["index"]["items"] == manifest.items
    assert report["index"]["build_s"] == manifest.build_s
    assert report["search"]["queries"] == 2
    assert report["search"]["all_cold_were_misses"] is True
    assert report["search"]["all_warm_were_l1"] is True
    assert report["turn"] == {**report["turn"], "turns": 2, "failed": 0}
    assert report["turn"]["readings_max"] >= 1
    counted = measure(Path(__file__).resolve().parents[2])
    for key in ("typed_vocabulary_lines", "product_vocabulary_lines", "grammar_lines"):
        assert report["language"][key] == counted[key], key
    assert report["language"]["lexicon_files"] == len(list(LEXICON.glob("*.tsv")))
    assert len(report["load_avg"]["start"]) == 3
    (row,) = [json.loads(line) for line in log.read_text().splitlines()]
    assert row["bench"] == "bench"
    assert row["commit"] == report["commit"]
    assert row["search"] == report["search"]


@pytest.mark.slow
def test_identical_concurrent_searches_encode_and_query_once(
    bench_run: tuple[dict[str, Any], Path],
) -> None:
    flight = bench_run[0]["singleflight"]
    assert flight["concurrent"] == 8
    assert (flight["encodes"], flight["vector_queries"], flight["cache_fetches"]) == (1, 1, 1)
    assert flight["joined"] == 7


@pytest.mark.slow
def test_the_gate_is_timed_on_full_candidate_sets_or_says_why_not(
    bench_run: tuple[dict[str, Any], Path], built_index: Settings
) -> None:
    gate = bench_run[0]["gate"]
    if trained_models(built_index.models_dir):
        assert gate["candidates"] == PICK_RERANK_K.get()
        assert gate["p50_ms"] > 0
    else:
        assert gate["p50_ms"] is None
        assert "no trained reranker" in gate["error"]


@pytest.mark.slow
def test_the_readable_summary_names_each_figure(bench_run: tuple[dict[str, Any], Path]) -> None:
    lines = summary_lines(bench_run[0])
    assert [line.split(":")[0] for line in lines[:6]] == [
        "index",
        "search",
        "single flight",
        "gate",
        "offline turn",
        "vocabulary",
    ]
    assert "load average" in lines[-1]


def test_the_cli_offers_bench_with_json() -> None:
    result = CliRunner().invoke(app, ["bench", "--help"])
    assert result.exit_code == 0
    assert "--json" in result.output
    assert "--rebuild" in result.output


def _bench_embedder(*args: str) -> subprocess.CompletedProcess[str]:
    script = Path(__file__).resolve().parents[2] / "scripts" / "bench_embedder.py"
    env = {**os.environ, "TORCH_DEVICE": "cpu"}
    return subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, env=env, check=True
    )


def test_the_embedder_bench_measures_the_catalog_texts_it_dumped(
    built_index: Settings, tmp_path: Path
) -> None:
    dumped = tmp_path / "texts.txt"
    _bench_embedder("--dump-texts", str(dumped))
    texts = dumped.read_text(encoding="utf-8").splitlines()
    assert len(texts) == current_paths(built_index.index_dir).read_manifest().items
    assert all(text.strip() and "\n" not in text for text in texts)
    run = _bench_embedder(
        "--texts",
        str(dumped),
        "--limit",
        "24",
        "--batch-sizes",
        "8,16",
        "--repeats",
        "1",
        "--no-record",
    )
    report = json.loads(run.stdout)
    assert (report["items"], report["gpu"]) == (24, None)
    assert set(report["batch_sizes"]) == {"8", "16"}
    for size in report["batch_sizes"].values():
        assert size["device"] == "cpu"
        assert size["items_per_s"] == pytest.approx(24 / size["median_s"], rel=0.01)
