"""`pickwise eval language`: accuracy per extractor and per field on a corpus, dev and
heldout apart, a wrong label counted as such, and the label-free WebShop measures."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from typer.testing import CliRunner

from app.cli.eval_cmd import app
from app.eval.language_cases import load_cases, split_of
from app.eval.language_eval import corpus_report, webshop_report


def _corpus(tmp_path: Path) -> Path:
    """Two dev budget cases (one labelled wrong on budget_usd) and one heldout negation case."""
    ids: dict[str, list[str]] = {"dev": [], "heldout": []}
    n = 0
    while len(ids["dev"]) < 2 or not ids["heldout"]:
        ids[split_of(f"case-{n}")].append(f"case-{n}")
        n += 1
    entries = [
        {
            "id": ids["dev"][0],
            "split": "dev",
            "extractor": "budget_currency",
            "messages": ["a kettle under 60 euros"],
            "expect": {"budget_amount": 60.0, "currency": "EUR"},
        },
        {
            "id": ids["dev"][1],
            "split": "dev",
            "extractor": "budget_currency",
            "messages": ["a mouse under $25"],
            "expect": {"budget_usd": 30.0, "currency": "USD"},
        },
        {
            "id": ids["heldout"][0],
            "split": "heldout",
            "extractor": "negation",
            "messages": ["a mouse, not Razer"],
            "expect": {"exclude_terms": ["razer"]},
        },
    ]
    path = tmp_path / "cases.yaml"
    path.write_text(yaml.safe_dump(entries))
    return path


def test_accuracy_per_extractor_and_field_with_splits_apart(tmp_path: Path) -> None:
    report = corpus_report(load_cases(_corpus(tmp_path)))
    dev, heldout = report["dev"], report["heldout"]
    assert (dev["cases"], dev["case_accuracy"]) == (2, 0.5)
    assert dev["per_extractor"]["budget_currency"]["field_accuracy"] == 0.75
    assert dev["per_field"]["budget_usd"] == {"n": 1, "accuracy": 0.0}
    assert dev["per_field"]["currency"] == {"n": 2, "accuracy": 1.0}
    assert [(f["field"], f["expected"], f["got"]) for f in dev["failures"]] == [
        ("budget_usd", 30.0, 25.0)
    ]
    assert heldout["per_extractor"] == {
        "negation": {"cases": 1, "case_accuracy": 1.0, "field_accuracy": 1.0}
    }


def test_webshop_measures_need_no_labels() -> None:
    goals = [
        "i want a quiet gaming keyboard, not logitech",
        "hello there",
        "i need gluten free crackers",
    ]
    report = webshop_report(goals)
    assert report["goals"] == 3
    assert report["price_clause"] == "appended"
    assert report["budget_exact_rate"] == 1.0
    assert report["category_in_goal_of_planned"] == 1.0
    assert report["exclude_evidence_in_goal_rate"] == 1.0
    assert report["excludes"] >= 2


def test_the_cli_prints_the_corpus_report_as_json(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["language", "--json", "--no-webshop", "--cases", str(_corpus(tmp_path))]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["dev"]["failures_total"] == 1
    assert "webshop" not in report
