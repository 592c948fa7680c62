"""`pickwise eval …`: offline evaluations on the public datasets, as JSON or a short summary."""

from __future__ import annotations

from typing import Any

import typer

from app.cli._eval_esci import esci
from app.cli._eval_matching import matching
from app.cli._eval_recall import recall
from app.cli._output import emit_json
from app.config import get_settings
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
