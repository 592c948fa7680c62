"""The judgment evaluation end to end: a tiny real index whose BM25 rankings are known, so the
metrics can be checked by hand; the real dev judgments on the full index; and the CLI."""

from __future__ import annotations

import asyncio
import csv
import json
import math
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.catalog.item import Item
from app.cli import _eval_recall
from app.cli.main import app, main
from app.config.settings import Settings
from app.errors import InvalidRequest
from app.eval.judgments_eval import RecallEvalOptions, run_recall_eval, run_recall_eval_files
from app.recall.bm25_retriever import Bm25Retriever
from app.recall.embedder import Embedder
from app.recall.filters import SearchFilters
from app.recall.search_index import SearchIndex
from tests.eval.conftest import build_tiny_index

ITEMS = [
    Item(item_id="icecat:1", platform="icecat", title="zorblax charger", brand="Acme", source="t"),
    Item(item_id="icecat:2", platform="icecat", title="zorblax cable", brand="Acme", source="t"),
    Item(item_id="icecat:3", platform="icecat", title="quintar lamp", brand="Globex", source="t"),
    Item(
        item_id="icecat:5", platform="icecat", title="zorblax adapter", brand="Initech", source="t"
    ),
    Item(item_id="amazon:1", platform="amazon", title="zorblax charger", brand="Acme", source="t"),
]
JUDGMENTS = """query,docid,rating
zorblax,1,1
zorblax,2,3
zorblax,9,2
quintar,3,2
quintar,1,1
plumbus,3,0
"""
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
DEV_FILE = "icecat/judgments_dev.csv"


@pytest.fixture(scope="module")
def tiny(
    tmp_path_factory: pytest.TempPathFactory, settings: Settings, embedder: Embedder
) -> Iterator[tuple[Settings, SearchIndex]]:
    root = tmp_path_factory.mktemp("tiny-index")
    tiny_settings = build_tiny_index(root, settings, embedder, ITEMS)
    index = SearchIndex.open(tiny_settings, embedder=embedder)
    yield tiny_settings, index
    asyncio.run(index.close())


async def test_the_tiny_index_ranks_as_the_hand_computation_assumes(
    tiny: tuple[Settings, SearchIndex],
) -> None:
    bm25 = Bm25Retriever(tiny[1].bm25)
    icecat = SearchFilters.build(platforms=["icecat"])
    zorblax = await bm25.recall("zorblax", icecat, top_k=100)
    assert [h.item_id for h in zorblax] == ["icecat:1", "icecat:2", "icecat:5"]
    assert len({h.score for h in zorblax}) == 1  # a tie, broken by item id
    assert [h.item_id for h in await bm25.recall("quintar", icecat, top_k=100)] == ["icecat:3"]


def test_bm25_metrics_on_the_tiny_index_are_exact(
    tiny: tuple[Settings, SearchIndex], tmp_path: Path
) -> None:
    path = tmp_path / "j.csv"
    path.write_text(JUDGMENTS)
    options = RecallEvalOptions(
        judgments=path,
        configs=("bm25", "dense", "hybrid_rrf", "pipeline"),
        chart=tmp_path / "c.png",
        unjudged_out=tmp_path / "pool.csv",
    )
    report = run_recall_eval(tiny[0], options, index=tiny[1], aliases={})
    # zorblax ranks 1 (gain 1), 2 (gain 3), 5 (unjudged); docid 9 is not in the index
    zorblax = (1 + 3 / math.log2(3)) / (3 + 1 / math.log2(3))
    quintar = 2 / (2 + 1 / math.log2(3))  # finds 3 (gain 2), misses 1 (gain 1)
    bm25 = report["configs"]["bm25"]
    assert bm25["ndcg@10"] == pytest.approx((zorblax + quintar) / 2)
    assert bm25["recall@20"] == pytest.approx(1.0)
    assert bm25["recall@100"] == pytest.approx(1.0)
    assert bm25["mrr@20"] == pytest.approx((1 / 2 + 1) / 2)
    assert bm25["judged@10"] == pytest.approx((2 / 3 + 1) / 2)
    assert (report["n_queries"], report["n_queries_binary"], report["queries_in_file"]) == (2, 2, 3)
    assert report["queries_not_scored"] == ["plumbus"]
    assert report["judged_items_not_in_index"] == 1
    assert set(report["configs"]) == {"bm25", "dense", "hybrid_rrf", "pipeline"}
    for scores in report["configs"].values():
        assert 0 <= scores["judged@10"] <= 1
        assert 0 <= scores["ndcg@10"] <= scores["ndcg@10_condensed"] + 1e-9
    assert report["best_single"] in ("bm25", "dense")
    assert set(report["significance"]["p_values"]) == {
        "bm25",
        "dense",
        "hybrid_rrf",
        "pipeline",
    } - {report["best_single"]}
    assert (tmp_path / "c.png").read_bytes().startswith(PNG_MAGIC)
    with (tmp_path / "pool.csv").open(newline="") as handle:
        pool = list(csv.DictReader(handle))
    assert len(pool) == report["unjudged_in_top10"]
    judged = {("zorblax", "1"), ("zorblax", "2"), ("quintar", "3"), ("quintar", "1")}
    assert all((row["query"], row["docid"]) not in judged and row["rating"] == "" for row in pool)
    zorblax_5 = next(r for r in pool if (r["query"], r["docid"]) == ("zorblax", "5"))
    assert "bm25" in zorblax_5["found_by"].split()


def test_a_missing_reranker_skips_rerank_with_a_note(
    tiny: tuple[Settings, SearchIndex], tmp_path: Path
) -> None:
    path = tmp_path / "j.csv"
    path.write_text(JUDGMENTS)
    options = RecallEvalOptions(judgments=path, configs=("bm25", "rerank"))
    no_model = tiny[0].model_copy(update={"reranker_model": None, "reranker_backend": "local"})
    report = run_recall_eval(no_model, options, index=tiny[1], aliases={})
    assert report["skipped"] == ["rerank"]
    assert "no trained reranker" in report["notes"]["rerank"]
    assert set(report["configs"]) == {"bm25"}


def test_options_are_checked_before_anything_runs(tmp_path: Path, settings: Settings) -> None:
    path = tmp_path / "j.csv"
    for bad in (
        RecallEvalOptions(judgments=path, configs=("bm25", "magic")),
        RecallEvalOptions(judgments=path, relevant=4),
        RecallEvalOptions(judgments=path, stat_test="wilcoxon"),
        RecallEvalOptions(judgments=path, platform=None),
    ):
        with pytest.raises(InvalidRequest):
            run_recall_eval(settings, bad, aliases={})


@pytest.mark.slow
def test_the_dev_judgments_end_to_end(built_index: Settings, tmp_path: Path) -> None:
    options = RecallEvalOptions(
        judgments=built_index.data_dir / DEV_FILE,
        configs=("bm25", "dense", "hybrid_rrf"),
        chart=tmp_path / "dev.png",
    )
    report = run_recall_eval(built_index, options)
    assert (report["queries_in_file"], report["n_queries"], report["n_queries_binary"]) == (
        102,
        88,
        86,
    )
    assert report["judged_items_not_in_index"] == 0
    assert report["judged_docids_merged"] == 5
    configs = report["configs"]
    assert configs["bm25"]["ndcg@10"] > 0.7
    assert configs["dense"]["ndcg@10"] > 0.55
    assert configs["hybrid_rrf"]["recall@100"] > 0.85
    for scores in configs.values():
        assert scores["recall@20"] <= scores["recall@100"]
        assert 0 < scores["judged@10"] <= 1
    # the judgments were pooled from a keyword engine: dense surfaces more unjudged items
    assert configs["dense"]["judged@10"] < configs["bm25"]["judged@10"]
    assert report["best_single"] == "bm25"
    assert report["significance"]["p_values"]["dense"]["ndcg@10"] < 0.05
    assert (tmp_path / "dev.png").read_bytes().startswith(PNG_MAGIC)


def test_cli_rejects_a_bad_judgments_file_with_exit_2(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    settings: Settings,
    tmp_path: Path,
) -> None:
    monkeypatch.setattr(_eval_recall, "get_settings", lambda: settings)
    bad = tmp_path / "bad.csv"
    bad.write_text("query,docid,rating\nlaptop,1229111,5\n")
    monkeypatch.setattr(sys, "argv", ["pickwise", "eval", "recall", "--judgments", str(bad)])
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == 2
    assert "line 2: rating 5 is outside 0-3" in capsys.readouterr().err


@pytest.fixture
def judged_cli(
    monkeypatch: pytest.MonkeyPatch, tiny: tuple[Settings, SearchIndex], tmp_path: Path
) -> Path:
    """The CLI pointed at the tiny index, and the judgments file it reads."""
    monkeypatch.setattr(_eval_recall, "get_settings", lambda: tiny[0])
    path = tmp_path / "j.csv"
    path.write_text(JUDGMENTS)
    return path


def test_cli_json_on_the_tiny_index(judged_cli: Path, tmp_path: Path) -> None:
    path = judged_cli
    args = ["eval", "recall", "--judgments", str(path), "--configs", "bm25,dense", "--json"]
    result = CliRunner().invoke(app, [*args, "--chart", str(tmp_path / "c.png")])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert set(report["configs"]) == {"bm25", "dense"}
    for scores in report["configs"].values():
        assert {"ndcg@10", "recall@20", "recall@100", "mrr@20", "judged@10"} <= set(scores)
    assert report["n_queries"] == 2
    assert report["best_single"] in {"bm25", "dense"}
    table = CliRunner().invoke(app, [*args[:-1], "--chart", str(tmp_path / "d.png")])
    assert table.exit_code == 0, table.output
    assert "| bm25" in table.stdout
    assert "judged@10" in table.stdout


def test_two_files_score_the_same_rankings_side_by_side(
    monkeypatch: pytest.MonkeyPatch, tiny: tuple[Settings, SearchIndex], tmp_path: Path
) -> None:
    """A second file that rates the unjudged zorblax item 5 raises judged@10 and NDCG of
    every configuration that ranks it, on the same rankings; the CLI prints both tables and
    one side by side."""
    human, extended = tmp_path / "human.csv", tmp_path / "extended.csv"
    human.write_text(JUDGMENTS)
    extended.write_text(JUDGMENTS + "zorblax,5,3\n")
    options = RecallEvalOptions(judgments=human, configs=("bm25", "dense"))
    first, second = run_recall_eval_files(
        tiny[0], options, [human, extended], index=tiny[1], aliases={}
    )
    alone = run_recall_eval(tiny[0], options, index=tiny[1], aliases={})
    assert first["configs"] == alone["configs"]
    bm25, rated = first["configs"]["bm25"], second["configs"]["bm25"]
    assert rated["judged@10"] == pytest.approx(1.0)
    assert bm25["judged@10"] < 1.0
    assert rated["ndcg@10"] > bm25["ndcg@10"]
    monkeypatch.setattr(_eval_recall, "get_settings", lambda: tiny[0])
    args = ["eval", "recall", "--judgments", str(human), "--judgments", str(extended)]
    args += ["--configs", "bm25,dense", "--chart", str(tmp_path / "c.png")]
    table = CliRunner().invoke(app, args)
    assert table.exit_code == 0, table.output
    assert "NDCG@10 human" in table.stdout
    assert "judged@10 extended" in table.stdout
    assert (tmp_path / "c-extended.png").read_bytes().startswith(PNG_MAGIC)


def test_the_evaluation_reports_the_ceiling_of_the_first_stage_in_force(
    tiny: tuple[Settings, SearchIndex], tmp_path: Path
) -> None:
    path = tmp_path / "j.csv"
    path.write_text(JUDGMENTS)
    configs = ("bm25", "dense", "hybrid_rrf", "hybrid_weighted")
    options = RecallEvalOptions(judgments=path, configs=configs, ceiling_depth=150)
    report = run_recall_eval(tiny[0], options, index=tiny[1], aliases={})
    found = report["first_stage_ceiling"]
    assert (found["queries"], found["depth"], found["cut"]) == (2, 150, 100)
    recall = found["recall"]
    first = found["first_stage"]
    assert first in configs
    assert recall[f"{first}@100"] == pytest.approx(report["configs"][first]["recall@100"], abs=1e-4)
    for source in ("bm25", "dense"):
        assert recall[f"{source}@100"] == pytest.approx(
            report["configs"][source]["recall@100"], abs=1e-4
        )
        assert recall[f"{source}@100"] <= recall[f"{source}@150"] <= recall["union@150"]
    without = run_recall_eval(
        tiny[0], RecallEvalOptions(judgments=path, configs=configs), index=tiny[1], aliases={}
    )
    assert "first_stage_ceiling" not in without
    singles = RecallEvalOptions(judgments=path, configs=("bm25", "dense"), ceiling_depth=150)
    alone = run_recall_eval(tiny[0], singles, index=tiny[1], aliases={})
    assert "was not run" in alone["first_stage_ceiling"]["skipped"]


def test_the_cli_prints_the_ceiling_and_refuses_a_shallow_depth(
    judged_cli: Path, tiny: tuple[Settings, SearchIndex], tmp_path: Path
) -> None:
    path = judged_cli
    args = ["eval", "recall", "--judgments", str(path), "--chart", str(tmp_path / "c.png")]
    args += ["--configs", "bm25,dense,hybrid_rrf,hybrid_weighted"]
    shown = CliRunner().invoke(app, [*args, "--ceiling-depth", "120"])
    assert shown.exit_code == 0, shown.output
    assert "First-stage recall over 2 queries (sources asked for 120)" in shown.stdout
    assert "pooled by" not in shown.stdout  # the file has no source column
    sourced = tmp_path / "sourced.csv"
    sourced.write_text(
        JUDGMENTS.replace("rating\n", "rating,source\n")
        .replace("zorblax,2,3", "zorblax,2,3,llm")
        .replace("quintar,3,2", "quintar,3,2,human")
    )
    split = CliRunner().invoke(
        app, [*args[:2], "--judgments", str(sourced), *args[4:], "--ceiling-depth", "120"]
    )
    assert split.exit_code == 0, split.output
    assert (
        "- pooled by human (1 relevant pairs, 1 queries; 0 not in the first stage's top): "
        "bm25@100 1.0000" in split.stdout
    )
    assert (
        "- pooled by llm (1 relevant pairs, 1 queries; 0 not in the first stage's top): "
        "bm25@100 1.0000" in split.stdout
    )
    shallow = CliRunner().invoke(app, [*args, "--ceiling-depth", "50"])
    assert shallow.exit_code == 2
    with pytest.raises(InvalidRequest, match="ceiling depth"):
        run_recall_eval(tiny[0], RecallEvalOptions(judgments=path, ceiling_depth=99), index=tiny[1])
