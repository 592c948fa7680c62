"""`pickwise catalog …`: inspect the catalog the loaders build from the datasets folder."""

from __future__ import annotations

from typing import Any

import typer

from app.catalog.loader import Catalog, load_catalog
from app.cli._output import emit_json
from app.config import get_settings

app = typer.Typer(help="Inspect the product catalog built from the datasets.", no_args_is_help=True)


@app.callback()
def catalog() -> None:
    """Inspect the product catalog built from the datasets."""


def catalog_stats(catalog: Catalog) -> dict[str, Any]:
    """Items per platform, their total, and skipped rows by `<source>:<reason>`."""
    platforms = catalog.platform_counts()
    return {
        "platforms": platforms,
        "total": sum(platforms.values()),
        "skipped": dict(catalog.skipped),
    }


@app.command()
def stats(
    as_json: bool = typer.Option(False, "--json", help="Print one JSON document."),
) -> None:
    """Load the catalog and report items per platform and skipped rows."""
    settings = get_settings()
    payload = catalog_stats(load_catalog(settings.data_dir, locale=settings.esci_locale))
    if as_json:
        emit_json(payload)
        return
    width = max(len(name) for name in [*payload["platforms"], "total"])
    for platform, count in payload["platforms"].items():
        typer.echo(f"{platform:<{width}}  {count:>7,}")
    typer.echo(f"{'total':<{width}}  {payload['total']:>7,}")
    skipped = payload["skipped"]
    if not skipped:
        typer.echo("skipped: none")
        return
    typer.echo(f"skipped: {sum(skipped.values()):,}")
    for reason, count in skipped.items():
        typer.echo(f"  {reason}  {count:,}")
