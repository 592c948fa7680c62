"""`pickwise params get|set|reset|audit`: the admin API's operations straight on the shared
override store (Redis at `REDIS_URL`, else `var/params.sqlite3`); no server needed, and
every running worker picks the change up within a second."""

from __future__ import annotations

import getpass
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import typer

from app.cli._output import emit_json
from app.config import get_settings
from app.config.overrides import open_override_store
from app.config.overrides_admin import Change, ParamAdmin
from app.errors import InvalidRequest

__all__ = ["app", "audit", "get", "reset", "set_"]

app = typer.Typer(help="Read and change runtime parameters of every worker.", no_args_is_help=True)


@contextmanager
def _admin() -> Iterator[ParamAdmin]:
    admin = ParamAdmin(open_override_store(get_settings()))
    try:
        yield admin
    finally:
        admin.store.close()


def _actor() -> str:
    try:
        return f"cli:{getpass.getuser()}"
    except (KeyError, OSError):
        return "cli"


@app.command("get")
def get(
    names: list[str] = typer.Argument(None, help="Parameters to show; default: all."),
    group: str | None = typer.Option(None, "--group", help="Only this group."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Show parameters with their value in force and where it comes from (secrets masked)."""
    with _admin() as admin:
        params = admin.params()
        version = admin.version
    known = {p["name"] for p in params}
    unknown = [n for n in names or () if n not in known]
    if unknown:
        raise InvalidRequest(f"unknown parameter(s): {', '.join(unknown)}")
    shown = [p for p in params if (not names or p["name"] in names) and group in (None, p["group"])]
    if json_out:
        emit_json({"version": version, "params": shown})
        return
    for p in shown:
        note = "" if p["source"] == "default" else f"  ({p['source']}; default {p['default']!r})"
        typer.echo(f"{p['group']:<12} {p['name']} = {p['value']!r}{note}")


@app.command("set")
def set_(
    assignments: list[str] = typer.Argument(..., help="NAME=VALUE pairs, applied together."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Override parameters; every value is checked first and nothing changes if one fails."""
    values: dict[str, Any] = {}
    for text in assignments:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            raise InvalidRequest(f"expected NAME=VALUE, got {text!r}")
        values[name.strip()] = value
    with _admin() as admin:
        _report(admin.update(values, actor=_actor()), json_out)


@app.command("reset")
def reset(
    names: list[str] = typer.Argument(None, help="Parameters whose override to drop."),
    everything: bool = typer.Option(False, "--all", help="Drop every override."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Drop overrides so defaults (or the environment) apply again."""
    if bool(names) == everything:
        raise InvalidRequest("name the parameters to reset, or pass --all")
    with _admin() as admin:
        _report(admin.reset(None if everything else names, actor=_actor()), json_out)


@app.command("audit")
def audit(
    limit: int = typer.Option(20, "--limit", min=1, max=10_000, help="Newest entries to show."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Who changed which parameter when, from what to what (secrets masked)."""
    with _admin() as admin:
        entries = [e.as_dict() for e in admin.audit(limit)]
    if json_out:
        emit_json({"entries": entries})
        return
    for e in entries:
        typer.echo(
            f"{e['at']} v{e['version']} {e['actor']}: {e['action']} {e['key']} "
            f"{e['old']!r} -> {e['new']!r}"
        )


def _report(change: Change, json_out: bool) -> None:
    entries = [e.as_dict() for e in change.entries]
    if json_out:
        emit_json({"version": change.version, "changed": entries})
        return
    if not entries:
        typer.echo(f"nothing changed (version {change.version})")
    for e in entries:
        typer.echo(f"{e['action']} {e['key']}: {e['old']!r} -> {e['new']!r}")
    if entries:
        typer.echo(f"version {change.version}")
