"""Shared CLI output helpers: JSON for machines, short lines for people."""

from __future__ import annotations

import json
from typing import Any

import typer


def emit_json(payload: Any) -> None:
    """Print one JSON document on stdout."""
    typer.echo(json.dumps(payload, ensure_ascii=False, default=str))
