"""Entry point of the `pickwise` console script; each command group lives in its own module."""

from __future__ import annotations

import sys

import typer

from app.cli import (
    bench_cmd,
    catalog_cmd,
    chat_cmd,
    eval_cmd,
    index_cmd,
    models_cmd,
    params_cmd,
    pick_cmd,
    search_cmd,
    serve_cmd,
)
from app.errors import PickwiseError
from app.logging_setup import configure_logging

__all__ = ["app", "main"]

app = typer.Typer(
    name="pickwise",
    help="Pickwise: a conversational shopping backend over a real catalog.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
app.add_typer(catalog_cmd.app, name="catalog")
app.add_typer(index_cmd.app, name="index")
app.add_typer(eval_cmd.app, name="eval")
app.add_typer(params_cmd.app, name="params")
app.add_typer(models_cmd.app, name="models")
search_cmd.register(app)
pick_cmd.register(app)
chat_cmd.register(app)
serve_cmd.register(app)
bench_cmd.register(app)


def main() -> None:
    """Run the CLI; our own errors print one clear line and exit 2 instead of a traceback."""
    configure_logging("WARNING")
    try:
        app()
    except PickwiseError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
