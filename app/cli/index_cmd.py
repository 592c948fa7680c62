"""`pickwise index build`: build (or confirm) the search index of the current catalog."""

from __future__ import annotations

import typer

from app.cli._output import emit_json
from app.config import get_settings
from app.recall.index_build import build_index

app = typer.Typer(help="Build and inspect the search index.", no_args_is_help=True)


@app.command("build")
def build(
    force: bool = typer.Option(False, "--force", help="Rebuild even when the index is up to date."),
    json_out: bool = typer.Option(False, "--json", help="Print the manifest as JSON."),
) -> None:
    """Embed every catalog item, write vectors, BM25 and the item table; idempotent."""
    report = build_index(get_settings(), force=force, show_progress=not json_out)
    if json_out:
        emit_json(
            {"built": report.built, "message": report.message, **report.manifest.model_dump()}
        )
    else:
        typer.echo(report.message)
