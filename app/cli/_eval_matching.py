"""`pickwise eval matching`: price_compare's same-product grouping against the ditto labels."""

from __future__ import annotations

from typing import Any

import typer

from app.cli._output import emit_json
from app.config import get_settings


def matching(
    json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    split: str = typer.Option("test", help="Labelled split to score: test (report) or valid."),
    end_to_end: bool = typer.Option(
        True,
        "--end-to-end/--pairs-only",
        help="Also run price_compare's candidate generation on the built index.",
    ),
    refit: bool = typer.Option(
        False, "--refit", help="Refit the weights on train and the threshold on valid; print them."
    ),
) -> None:
    """Matcher P/R/F1 on Walmart-Amazon, Amazon-Google and Abt-Buy labelled pairs."""
    settings = get_settings()
    if refit:
        emit_json(_refit(settings.data_dir, settings.esci_locale))
        return
    if split not in ("test", "valid"):
        raise typer.BadParameter("split must be 'test' or 'valid'", param_hint="--split")
    from app.eval.matching_eval import run_matching_eval

    report = run_matching_eval(settings, split=split, end_to_end=end_to_end)
    if json_out:
        emit_json(report)
        return
    for name, scores in report.items():
        line = f"{name}: {_triple(scores)} over {scores['pairs']} pairs ({split})"
        if "end_to_end" in scores:
            line += f"; end to end {_triple(scores['end_to_end'])}"
        typer.echo(line)


def _triple(scores: dict[str, Any]) -> str:
    return f"P {scores['precision']:.3f} R {scores['recall']:.3f} F1 {scores['f1']:.3f}"


def _refit(data_dir: Any, locale: str) -> dict[str, Any]:
    from app.catalog.loader import load_catalog
    from app.catalog.matching_fit import fit_matcher

    fit = fit_matcher(load_catalog(data_dir, locale=locale))
    return {
        "weights": dict(fit.model.weights),
        "bias": fit.model.bias,
        "threshold": fit.threshold,
        "train_pairs": fit.train_pairs,
        "valid_pairs": fit.valid_pairs,
    }
