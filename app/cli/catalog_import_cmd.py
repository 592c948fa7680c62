"""`pickwise catalog import`: bring a shop's product file into the catalog of the var dir."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import typer

from app.catalog.import_mapping import ColumnMapping, mapping_defaults
from app.catalog.importer import FORMATS, ImportFormat, ImportReport, import_files
from app.catalog.offer_store import OfferStore
from app.cli._output import emit_json
from app.config import get_settings
from app.errors import InvalidRequest

__all__ = ["register_import"]


def register_import(app: typer.Typer) -> None:
    """Add `import` to the `catalog` command group."""
    app.command("import")(import_command)


def import_command(
    paths: list[Path] = typer.Argument(..., help="Files to import (several may be given)."),
    fmt: str = typer.Option(
        "auto", "--format", help=f"One of {', '.join(FORMATS)}; auto goes by suffix and header."
    ),
    maps: list[str] = typer.Option(
        [], "--map", help="FIELD=COLUMN (or attributes.NAME=COLUMN); repeatable."
    ),
    mapping_file: Path | None = typer.Option(
        None, "--mapping", help="A TOML file: [map] FIELD = COLUMN, [attributes], shop, currency."
    ),
    shop: str | None = typer.Option(None, "--shop", help="The shop every row belongs to."),
    currency: str | None = typer.Option(
        None, "--currency", help="ISO 4217 code of prices that state no currency."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the report as one JSON document."),
) -> None:
    """Validate every row, store the good ones, report each bad one (file, row, reason).
    Exit 0 when any row imported or was already there unchanged, 2 when none could be."""
    defaults = mapping_defaults(mapping_file) if mapping_file else {}
    chosen = fmt if fmt != "auto" else defaults.get("format", "auto")
    if chosen not in FORMATS:
        raise InvalidRequest(f"unknown format {chosen!r}; one of {', '.join(FORMATS)}")
    report = import_files(
        paths,
        OfferStore.of(get_settings().var_dir),
        fmt=cast(ImportFormat, chosen),
        mapping=ColumnMapping.parse(maps, mapping_file),
        shop=shop or defaults.get("shop"),
        currency=currency or defaults.get("currency"),
    )
    if as_json:
        emit_json(report.as_json())
    else:
        _print(report)
    if report.accepted == 0:
        raise typer.Exit(2)


def _print(report: ImportReport) -> None:
    typer.echo(
        f"imported {report.imported:,}, updated {report.updated:,}, unchanged "
        f"{report.unchanged:,}, rejected {report.rejected:,} in {report.seconds:.1f} s"
    )
    for issue in report.errors:
        typer.echo(f"  {issue.file}:{issue.row}: {issue.reason}")
    if report.rejected > len(report.errors):
        typer.echo(f"  … and {report.rejected - len(report.errors):,} more rejected rows")
    for issue in report.warnings:
        typer.echo(f"  warning {issue.file}:{issue.row}: {issue.reason}")
