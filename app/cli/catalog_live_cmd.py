"""`pickwise catalog upsert` and `pickwise catalog delete`: change offers of the imported
catalog in place; every running `serve` sees the change within a second, no rebuild."""

from __future__ import annotations

import asyncio
import getpass
from pathlib import Path
from typing import cast

import typer

from app.catalog.import_mapping import ColumnMapping, mapping_defaults
from app.catalog.importer import FORMATS, ImportFormat, ImportReport, offer_rows
from app.cli._output import emit_json
from app.config import get_settings
from app.errors import InvalidRequest
from app.recall.live_push import push_configured
from app.recall.live_update import LiveReport, LiveWriter

__all__ = ["register_live"]


def register_live(app: typer.Typer) -> None:
    """Add `upsert` and `delete` to the `catalog` command group."""
    app.command("upsert")(upsert_command)
    app.command("delete")(delete_command)


def upsert_command(
    paths: list[Path] = typer.Argument(..., help="Files of offers (the formats of import)."),
    fmt: str = typer.Option("auto", "--format", help=f"One of {', '.join(FORMATS)}."),
    maps: list[str] = typer.Option([], "--map", help="FIELD=COLUMN; repeatable."),
    mapping_file: Path | None = typer.Option(None, "--mapping", help="A TOML mapping file."),
    shop: str | None = typer.Option(None, "--shop", help="The shop every row belongs to."),
    currency: str | None = typer.Option(None, "--currency", help="ISO 4217 code of prices."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as one JSON document."),
) -> None:
    """Store new or changed offers and make them searchable at once (only they are embedded);
    unchanged rows change nothing, bad rows are reported. Exit 2 when no row was valid."""
    defaults = mapping_defaults(mapping_file) if mapping_file else {}
    chosen = fmt if fmt != "auto" else defaults.get("format", "auto")
    if chosen not in FORMATS:
        raise InvalidRequest(f"unknown format {chosen!r}; one of {', '.join(FORMATS)}")
    settings = get_settings()
    writer = LiveWriter.open(settings)
    read = ImportReport()
    rows = offer_rows(
        paths,
        read,
        fmt=cast(ImportFormat, chosen),
        mapping=ColumnMapping.parse(maps, mapping_file),
        shop=shop or defaults.get("shop"),
        currency=currency or defaults.get("currency"),
    )
    report = LiveReport()
    writer.upsert(rows, actor=_actor(), report=report)
    report.rejected += read.rejected
    report.errors[:0] = [vars(e) for e in read.errors]
    _push(writer, report)
    _emit(report, as_json)
    if report.upserted + report.unchanged == 0:
        raise typer.Exit(2)


def delete_command(
    ids: list[str] = typer.Argument(..., help="SHOP:ID of each offer (or ID with --shop)."),
    shop: str | None = typer.Option(None, "--shop", help="The shop of every ID given."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as one JSON document."),
) -> None:
    """Remove offers from the catalog and every serving index; exit 2 when none was known."""
    keys = [_key(i, shop) for i in ids]
    writer = LiveWriter.open(get_settings())
    report = writer.delete(keys, actor=_actor())
    _push(writer, report)
    _emit(report, as_json)
    if report.deleted == 0:
        raise typer.Exit(2)


def _push(writer: LiveWriter, report: LiveReport) -> None:
    """Send the acknowledged change to the remote backends configured; one that is down
    gets it from the journal later (the backlog says how much waits)."""
    if report.upserted or report.deleted:
        report.backlog = asyncio.run(push_configured(get_settings(), writer.manifest)) or None


def _key(given: str, shop: str | None) -> tuple[str, str]:
    if shop:
        return shop.strip().lower(), given
    found, sep, offer_id = given.partition(":")
    if not sep or not found or not offer_id:
        raise InvalidRequest(f"name an offer as SHOP:ID (or pass --shop), got {given!r}")
    return found.strip().lower(), offer_id


def _actor() -> str:
    try:
        return f"cli:{getpass.getuser()}"
    except (KeyError, OSError):
        return "cli"


def _emit(report: LiveReport, as_json: bool) -> None:
    if as_json:
        emit_json(report.as_json())
        return
    typer.echo(
        f"upserted {report.upserted:,} ({report.embedded:,} embedded), unchanged "
        f"{report.unchanged:,}, deleted {report.deleted:,}, rejected {report.rejected:,}; "
        f"catalog generation {report.generation}"
    )
    for target, waiting in (report.backlog or {}).items():
        if waiting:
            typer.echo(f"  {target}: {waiting} change(s) wait in the journal for the push")
    for error in report.errors:
        where = error.get("item_id") or f"{error.get('file', '')}:{error.get('row')}"
        typer.echo(f"  {where}: {error['reason']}")
