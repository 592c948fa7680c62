"""`pickwise eval …`: offline evaluations on the public datasets, as JSON or a short summary."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from app.catalog.profile import read_profile
from app.cli._eval_esci import esci
from app.cli._eval_matching import matching
from app.cli._eval_recall import recall
from app.cli._output import emit_json
from app.config import get_settings
from app.errors import ConfigError
from app.eval.language_cases import CORPUS_FILE
from app.eval.language_eval import run_language_eval
from app.eval.planner_eval import run_planner_eval

__all__ = ["app", "planner"]

app = typer.Typer(help="Offline evaluations on the public datasets.", no_args_is_help=True)
app.command("matching")(matching)
app.command("recall")(recall)
app.command("esci")(esci)


@app.callback()
def _group() -> None:
    """Offline evaluations on the public datasets."""


@app.command("planner")
def planner(
    json_out: bool = typer.Option(False, "--json", help="Print the full report as JSON."),
    max_misses: int = typer.Option(50, min=0, help="Misses listed in the report."),
    seed: int = typer.Option(0, help="Seed of the appended price clauses and the samples."),
) -> None:
    """Rule planner on WebShop goals: budget_usd == N for "price lower than N dollars"."""
    report = run_planner_eval(get_settings().data_dir, max_misses=max_misses, seed=seed)
    if json_out:
        emit_json(report)
        return
    for line in _summary(report):
        typer.echo(line)


@app.command("language")
def language(
    json_out: bool = typer.Option(False, "--json", help="Print the full report as JSON."),
    cases: Path = typer.Option(CORPUS_FILE, help="The labelled corpus (YAML)."),
    webshop: bool = typer.Option(True, help="Also score the 12,087 WebShop goals (~1 min)."),
    max_failures: int = typer.Option(30, min=0, help="Failures listed per split."),
    seed: int = typer.Option(0, help="Seed of WebShop's appended price clauses."),
    profile: Path | None = typer.Option(
        None,
        help="A folder holding a catalog profile.json (an index version's): its kinds are "
        "merged into the rules' product nouns, as a runtime on that index merges them.",
    ),
) -> None:
    """Rule reading on the labelled corpus (per extractor and field, dev and heldout apart)
    and on WebShop goals (what needs no labels)."""
    data_dir = get_settings().data_dir if webshop else None
    vocabulary = None
    if profile is not None:
        found = read_profile(profile)
        if found is None:
            raise ConfigError(f"no catalog profile in {profile}")
        vocabulary = found.vocabulary()
    report = run_language_eval(
        data_dir, cases_file=cases, seed=seed, max_failures=max_failures, vocabulary=vocabulary
    )
    if json_out:
        emit_json(report)
        return
    for line in _language_summary(report):
        typer.echo(line)


def _language_summary(report: dict[str, Any]) -> list[str]:
    lines = []
    for split in ("dev", "heldout"):
        part = report[split]
        lines.append(
            f"{split}: {part['case_accuracy']} of {part['cases']} cases wholly right; "
            f"{part['failures_total']} fields wrong"
        )
        lines += [
            f"  {name}: cases {row['case_accuracy']} of {row['cases']}, "
            f"fields {row['field_accuracy']}"
            for name, row in part["per_extractor"].items()
        ]
    shop = report.get("webshop")
    if shop:
        lines.append(
            f"webshop ({shop['goals']} goals): budget exact {shop['budget_exact_rate']}, "
            f"shopping {shop['shopping_rate']}, category {shop['category_rate']} "
            f"(in goal {shop['category_in_goal_rate']}), keywords in goal "
            f"{shop['keyword_in_goal_rate']}, exclude evidence in goal "
            f"{shop['exclude_evidence_in_goal_rate']}"
        )
    return lines


def _summary(report: dict[str, Any]) -> list[str]:
    rate = report["budget_exact_rate"]
    lines = [
        f"budget exact: {rate if rate is not None else 'n/a'} over {report['n']} goals "
        f"(price clause {report['price_clause']}; {report['misses_total']} misses)",
        f"goals: {report['goals_total']}; with exclude {report['goals_with_exclude']} "
        f"({report['goals_with_exclude_by_negation']} from not/no/without/free of, rest X-free), "
        f"avoid {report['goals_with_avoid']}, bundle {report['goals_with_bundle']}, "
        f"must-have {report['goals_with_must_have']}, prefer {report['goals_with_prefer']}",
        f"budget read where no price is stated: {report['goals_with_budget_without_price']}; "
        f"not shopping: {report['goals_with_not_shopping']}",
    ]
    query = report.get("query_budget")
    if query:
        lines.append(
            f"human search queries with one price: {query['exact_rate']} over {query['n']}"
        )
    lines += [
        f"  miss: {m['goal']!r} expected {m['expected']} got {m['got']}"
        for m in report["misses"][:5]
    ]
    return lines
