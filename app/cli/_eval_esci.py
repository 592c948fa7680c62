"""`pickwise eval esci`: recall on the official ESCI files; exit 0 pass, 1 below the gates,
2 missing data or services (the CLI's handler of Pickwise errors)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import typer

from app.cli._output import emit_json
from app.config import get_settings


def esci(
    esci_dir: Path = typer.Argument(
        ..., help="Folder with the official examples and products parquet files."
    ),
    split: str = typer.Option("test", help="Split of the examples: test or train."),
    version: str | None = typer.Option(
        None, help="Only the examples of the small or the large version (default: all)."
    ),
    locale: str = typer.Option("us", help="Product locale of the examples and products."),
    corpus: str = typer.Option(
        "labelled",
        help="Products to index: labelled (those labelled in the selected examples) or "
        "locale (every product of the locale).",
    ),
    k: int = typer.Option(10, min=1, help="Depth of every metric."),
    build_index: bool = typer.Option(
        False, "--build-index", help="Build the ESCI index (a no-op when its version exists)."
    ),
    max_queries: int | None = typer.Option(None, min=1, help="Score the first N queries only."),
    var_dir: Path | None = typer.Option(
        None, help="Folder of the ESCI index (default var/esci/<selection>)."
    ),
    gates: Path | None = typer.Option(None, help="JSON or TOML {config: {metric: minimum}}."),
    gate: list[str] = typer.Option([], help="A gate as config.metric=minimum (repeatable)."),
    output: Path | None = typer.Option(None, help="Also write the JSON report here."),
) -> None:
    """bm25, dense, hybrid and the item_search pipeline: Recall@k, MRR@k (E), NDCG@k (E3 S2
    C1 I0), complement hits."""
    from app.eval.esci_eval import EsciEvalOptions, load_gates, run_esci_eval

    report = run_esci_eval(
        get_settings(),
        EsciEvalOptions(
            esci_dir=esci_dir,
            locale=locale,
            split=split,
            version=cast(Any, version),
            corpus=cast(Any, corpus),
            k=k,
            build_index=build_index,
            max_queries=max_queries,
            var_dir=var_dir,
            gates=load_gates(gates, gate),
        ),
    )
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(_json(report))
    emit_json(report)
    if not report["gates"]["passed"]:
        for failure in report["gates"]["failures"]:
            typer.echo(f"below gate: {failure}", err=True)
        raise typer.Exit(1)


def _json(report: dict[str, Any]) -> str:
    import json

    return json.dumps(report, indent=2, ensure_ascii=False)
