"""`pickwise catalog …`: inspect the catalog the loaders build from the datasets folder."""

from __future__ import annotations

from collections import Counter
from typing import Any

import typer

from app.catalog.currency import usd
from app.catalog.facets import CatalogFacets, load_facets
from app.catalog.icecat import ICECAT_FILES, read_spec_sheets
from app.catalog.imported import load_index_catalog
from app.catalog.item_table import read_items
from app.catalog.loader import ICECAT_DIR, Catalog, SkipTally
from app.catalog.profile import read_profile
from app.catalog.schema import offer_json_schema
from app.catalog.spec_categories import (
    SpecRecipe,
    leave_one_out,
    sheet_categories,
    sheet_labels,
)
from app.cli._output import emit_json
from app.cli.catalog_import_cmd import register_import
from app.cli.catalog_live_cmd import register_live
from app.config import get_settings
from app.config.params.api import FACETS_TOP
from app.errors import ConfigError
from app.recall.index_manifest import current_paths

__all__ = [
    "app",
    "catalog",
    "catalog_stats",
    "facets",
    "spec_categories",
    "spec_category_report",
    "stats",
]

app = typer.Typer(help="Import and inspect the product catalog.", no_args_is_help=True)
register_import(app)
register_live(app)


@app.callback()
def catalog() -> None:
    """Import and inspect the product catalog."""


@app.command("schema")
def schema() -> None:
    """Print the JSON Schema of one catalog offer (the unit every import is converted to)."""
    emit_json(offer_json_schema())


@app.command("profile")
def profile(
    as_json: bool = typer.Option(False, "--json", help="Print one JSON document."),
) -> None:
    """Print the catalog profile saved with the index in use (categories, brands, attribute
    values, units, price ranges per category)."""
    found = read_profile(current_paths(get_settings().index_dir).folder)
    if found is None:
        raise ConfigError("the index in use has no catalog profile; run `pickwise index build`")
    if as_json:
        emit_json(found.model_dump(mode="json"))
        return
    typer.echo(f"{found.items:,} items; shops {', '.join(found.shops)}")
    for name, entry in list(found.categories.items())[:20]:
        price = f", median {usd(entry.prices.median)}" if entry.prices else ""
        typer.echo(f"  {entry.count:>7,}  {name} ({entry.plural}){price}")
    typer.echo(f"brands {len(found.brands):,}; attributes {', '.join(found.attributes) or 'none'}")


@app.command("facets")
def facets(
    as_json: bool = typer.Option(False, "--json", help="Print one JSON document."),
    top: int | None = typer.Option(
        None, "--top", min=1, max=500, help="Most categories, brands and values per attribute."
    ),
) -> None:
    """Print the facets of the catalog the index in use was built from: categories, shops,
    brands, attribute values (with counts), price ranges per category, currencies."""
    paths = current_paths(get_settings().index_dir)
    found = load_facets(paths.folder, lambda: read_items(paths.items).values())
    found = found.top(top or FACETS_TOP.get())
    if as_json:
        emit_json({"index_version": paths.version, "facets": found.model_dump(mode="json")})
        return
    _print_facets(found)


def _print_facets(found: CatalogFacets) -> None:
    shown = found.display_currency
    typer.echo(f"{found.items:,} items; prices in {shown}; shops:")
    for shop in found.shops:
        typer.echo(f"  {shop.count:>7,}  {shop.value}")
    typer.echo(f"categories ({found.categories_total:,}):")
    for category in found.categories[:20]:
        median = f", median {category.prices.median:,.2f} {shown}" if category.prices else ""
        typer.echo(f"  {category.count:>7,}  {category.value}{median}")
    brands = ", ".join(f"{b.value} ({b.count:,})" for b in found.brands[:10])
    typer.echo(f"brands ({found.brands_total:,}): {brands or 'none'}")
    for attribute in found.attributes:
        values = ", ".join(f"{v.value} ({v.count:,})" for v in attribute.values[:8])
        typer.echo(f"{attribute.name} ({attribute.distinct:,} values): {values}")
    typer.echo(
        f"ratings: {'yes' if found.has_ratings else 'no'}; "
        f"stock: {'yes' if found.has_availability else 'no'}"
    )


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
    """Load the catalog (the imported one, else the demo's) and report items per shop and
    skipped rows."""
    payload = catalog_stats(load_index_catalog(get_settings()))
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


def spec_category_report(recipe: SpecRecipe) -> dict[str, Any]:
    """How many Icecat items get a category from their spec sheet (stated or inferred), and
    how often the neighbours' vote is right on the categorised items (each hidden in turn)."""
    settings = get_settings()
    paths = [settings.data_dir / ICECAT_DIR / name for name in ICECAT_FILES]
    sheets = read_spec_sheets(paths, SkipTally())
    titled = [i.category for i in sheets.items]
    found = sheet_categories(sheets.fields, sheets.stated, titled, recipe)
    labels = sheet_labels(titled, sheets.stated)
    stated = sum(1 for title, label in zip(titled, labels, strict=True) if label and not title)
    check = leave_one_out(sheets.fields, labels, recipe)
    counts = Counter(c for c in found if c)
    return {
        "recipe": recipe.fingerprint(),
        "items": len(sheets.items),
        "named_by_title": sum(1 for c in titled if c),
        "stated_by_sheet": stated,
        "inferred": sum(counts.values()) - stated,
        "leave_one_out": {
            "items": check.items,
            "coverage": round(check.coverage, 4),
            "accuracy": round(check.accuracy, 4),
        },
        "top_found": dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:15]),
    }


@app.command("spec-categories")
def spec_categories(
    as_json: bool = typer.Option(False, "--json", help="Print one JSON document."),
) -> None:
    """Report the categories inferred from Icecat spec sheets and their leave-one-out accuracy."""
    payload = spec_category_report(SpecRecipe.current())
    if as_json:
        emit_json(payload)
        return
    check = payload["leave_one_out"]
    typer.echo(f"{payload['recipe']}")
    typer.echo(
        f"icecat items {payload['items']:,}: category in the title {payload['named_by_title']:,}, "
        f"stated by the spec sheet {payload['stated_by_sheet']:,}, "
        f"inferred from its fields {payload['inferred']:,}"
    )
    typer.echo(
        f"leave-one-out over {check['items']:,} categorised items: coverage "
        f"{check['coverage']:.3f}, accuracy {check['accuracy']:.3f}"
    )
    for category, count in payload["top_found"].items():
        typer.echo(f"  {count:>6,}  {category}")
