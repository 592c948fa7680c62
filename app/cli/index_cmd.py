"""`pickwise index build | prune`: build (or confirm) the search index of the current catalog,
and remove the folders of versions no longer in use."""

from __future__ import annotations

import dataclasses

import typer

from app.cli._output import emit_json
from app.config import get_settings
from app.recall.index_build import build_index
from app.recall.index_prune import prune_index_versions
from app.recall.reranker_training import gate_model_note

__all__ = ["app", "build", "prune"]

app = typer.Typer(help="Build and inspect the search index.", no_args_is_help=True)


@app.command("build")
def build(
    force: bool = typer.Option(False, "--force", help="Rebuild even when the index is up to date."),
    json_out: bool = typer.Option(False, "--json", help="Print the manifest as JSON."),
    no_embedding_cache: bool = typer.Option(
        False,
        "--no-embedding-cache",
        help="Embed every text again instead of reusing an earlier build's vectors.",
    ),
) -> None:
    """Embed every catalog item (texts an earlier build with the same model embedded come from
    the embedding cache), write vectors, BM25 and the item table; idempotent."""
    settings = get_settings()
    report = build_index(
        settings,
        force=force,
        show_progress=not json_out,
        reuse_embeddings=not no_embedding_cache,
    )
    gate = gate_model_note(settings)
    if json_out:
        manifest = report.manifest.model_dump()
        emit_json({"built": report.built, "message": report.message, "gate": gate, **manifest})
    else:
        typer.echo(report.message)
        if gate:
            typer.echo(gate)


@app.command("prune")
def prune(
    keep: int = typer.Option(
        1, "--keep", min=0, help="Previous complete versions to keep besides the current one."
    ),
    dry_run: bool = typer.Option(False, "--dry-run", help="Say what would go; remove nothing."),
    json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Remove old index versions and stopped builds; the version in use always stays.
    Restart servers still serving an older version before pruning it."""
    settings = get_settings()
    report = prune_index_versions(settings.index_dir, keep=keep, dry_run=dry_run)
    if json_out:
        emit_json({**dataclasses.asdict(report), "dry_run": dry_run})
        return
    verb = "would remove" if dry_run else "removed"
    names = ", ".join(report.removed) or "nothing"
    typer.echo(f"{verb} {names} ({report.freed_bytes / 1e6:.0f} MB); current {report.current}")
    if report.kept:
        typer.echo(f"kept previous: {', '.join(report.kept)}")
    if settings.qdrant_url:
        typer.echo("collections of old versions on the Qdrant server are left as they are")
