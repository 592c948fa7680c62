"""`pickwise eval recall`: recall configurations against a graded judgments CSV."""

from __future__ import annotations

from pathlib import Path

import typer

from app.cli._output import emit_json
from app.config import get_settings
from app.eval.judgments_eval import CONFIGS

DEFAULT_CHART = Path("reports") / "recall_eval.png"


def recall(
    judgments: list[Path] = typer.Option(
        ...,
        "--judgments",
        help="CSV with query,docid,rating (0-3); unjudged = not relevant. Repeat it to score "
        "the same rankings on several files side by side.",
    ),
    platform: str = typer.Option(
        "icecat",
        help="Platform of the judged items: recall is restricted to it, as item_search does "
        "('all' searches everything and needs --id-prefix).",
    ),
    id_prefix: str | None = typer.Option(
        None, help="Turns a docid into an item id (default '<platform>:')."
    ),
    configs: str = typer.Option(",".join(CONFIGS), help="Comma-separated configurations."),
    relevant: int = typer.Option(2, min=1, max=3, help="Lowest rating counted relevant."),
    stat_test: str = typer.Option("student", help="Paired test: student (t-test) or fisher."),
    chart: Path | None = typer.Option(
        None, help="Where to write the PNG bar chart (default var/reports/recall_eval.png)."
    ),
    unjudged_out: Path | None = typer.Option(
        None,
        help="Write the unjudged top-10 items of every configuration here (CSV to judge; "
        "for the last --judgments file).",
    ),
    ceiling_depth: int | None = typer.Option(
        None,
        min=100,
        help="Also ask bm25 and dense for this many hits and say where the first stage's "
        "missing Recall@100 is: each source and their union at 100 and at this depth, the "
        "same at 100 split by the file's source column (who pooled each pair), and the "
        "queries that lose the most.",
    ),
    json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """NDCG@10, Recall@20/100, MRR@20 and judged@10 per configuration, with p-values."""
    from app.eval.judgments_eval import (
        RecallEvalOptions,
        ceiling_lines,
        markdown_table,
        run_recall_eval_files,
        side_by_side_table,
    )

    settings = get_settings()
    options = RecallEvalOptions(
        judgments=judgments[0],
        platform=None if platform.strip().lower() == "all" else platform.strip().lower(),
        id_prefix=id_prefix,
        configs=tuple(c.strip() for c in configs.split(",") if c.strip()),
        relevant=relevant,
        stat_test=stat_test,
        chart=chart or settings.var_dir / DEFAULT_CHART,
        unjudged_out=unjudged_out,
        ceiling_depth=ceiling_depth,
    )
    reports = run_recall_eval_files(settings, options, judgments)
    if json_out:
        emit_json(reports[0] if len(reports) == 1 else {"files": reports})
        return
    for report in reports:
        typer.echo(f"## {report['judgments']}\n")
        typer.echo(markdown_table(report))
        if ceiling := ceiling_lines(report):
            typer.echo(f"\n{ceiling}")
        typer.echo(f"chart: {report['chart']}\n")
    if len(reports) > 1:
        typer.echo(side_by_side_table(reports))
