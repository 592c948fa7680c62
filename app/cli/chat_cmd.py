"""`pickwise ask MESSAGE` (one turn, optionally as JSON) and `pickwise chat` (a REPL that keeps
its session): the agent runs in this process on its own runtime, no server needed, as a
trusted local caller (`SessionAccess.local`: no token; `--session S` names or creates S).
Sessions outlive the process: in Redis with REDIS_URL, else in var/sessions.sqlite3."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import typer

from app.agent.chat import ShoppingAgent, collect
from app.agent.events import PickView, TurnEvent, TurnSummary
from app.agent.session_access import SessionAccess
from app.catalog.currency import usd
from app.cli._output import emit_json
from app.cli._runtime import open_runtime
from app.config import get_settings
from app.config.settings import Settings
from app.errors import PickwiseError
from app.runtime_agent import build_agent

__all__ = ["HELP", "ask", "ask_payload", "chat", "open_agent", "register", "run_ask", "run_repl"]

HELP = "Type what you are looking for. /new starts a new session, /quit leaves."


def register(app: typer.Typer) -> None:
    """Add the `ask` and `chat` commands to the root CLI."""
    app.command("ask")(ask)
    app.command("chat")(chat)


@asynccontextmanager
async def open_agent(settings: Settings) -> AsyncIterator[ShoppingAgent]:
    """The production agent on a runtime opened in this event loop, closed on exit."""
    async with open_runtime(settings) as runtime:
        yield build_agent(runtime)


def ask(
    message: str = typer.Argument(..., help="What the shopper says."),
    session: str | None = typer.Option(
        None,
        "--session",
        help="Session to continue, or to start under this id (kept across runs: in Redis with "
        "REDIS_URL, else in var/sessions.sqlite3).",
    ),
    json_out: bool = typer.Option(False, "--json", help="Machine-readable output."),
    platform: list[str] = typer.Option(
        [], "--platform", help="Shop(s) to shop when the message names none; repeatable."
    ),
) -> None:
    """Run one chat turn and print the picks and the answer."""
    shops = tuple(dict.fromkeys(p.strip().lower() for p in platform if p.strip()))
    try:
        summary = asyncio.run(run_ask(get_settings(), message, session, shops=shops))
    except PickwiseError as exc:
        if json_out:
            emit_json({"error": {"code": exc.code, "message": str(exc)}})
        typer.echo(f"error ({exc.code}): {exc}", err=True)
        raise typer.Exit(code=2) from None
    if json_out:
        emit_json(ask_payload(summary))
        return
    _print_picks(summary.picks)
    typer.echo(summary.answer)
    typer.echo(f"(session {summary.session_id})")
    if not summary.saved:
        typer.echo("(this turn could not be saved: the session will not remember it)", err=True)


async def run_ask(
    settings: Settings, message: str, session_id: str | None, *, shops: tuple[str, ...] = ()
) -> TurnSummary:
    """One turn on a fresh runtime, folded into its summary (which says whether the session
    was saved after it); an `error` event raises."""
    async with open_runtime(settings) as runtime:
        agent = build_agent(runtime)
        agent.shops = shops
        return await collect(agent.run_turn(SessionAccess.local(session_id), message))


def ask_payload(summary: TurnSummary) -> dict[str, Any]:
    """The JSON document of `pickwise ask --json`: that of `/v1/chat?stream=false` but the
    `session_token` (a local caller needs none)."""
    return summary.document()


def chat(
    session: str | None = typer.Option(None, "--session", help="Session to continue."),
) -> None:
    """Talk to the agent; the session carries over from one message to the next."""
    asyncio.run(run_repl(get_settings(), session))


async def run_repl(settings: Settings, session_id: str | None) -> None:
    """Read a line, run a turn printing its picks and answer, until /quit or end of input."""
    async with open_agent(settings) as agent:
        typer.echo(HELP)
        while True:
            line = await asyncio.to_thread(_read_line)
            command = None if line is None else line.strip()
            if command is None or command == "/quit":
                return
            if command == "/new":
                session_id = None
                typer.echo("(new session)")
            elif command:
                session_id = await _print_turn(agent, session_id, command)


async def _print_turn(agent: ShoppingAgent, session_id: str | None, message: str) -> str | None:
    """Stream one turn to the terminal; the session id to continue with."""
    try:
        async for event in agent.run_turn(SessionAccess.local(session_id), message):
            session_id = _print_event(event) or session_id
    except PickwiseError as exc:
        typer.echo(f"error ({exc.code}): {exc}", err=True)
    return session_id


def _print_event(event: TurnEvent) -> str | None:
    if event.type == "picks":
        _print_picks([PickView.model_validate(p) for p in event.data.get("picks", [])])
    elif event.type == "message_delta":
        typer.echo(str(event.data.get("text", "")), nl=False)
    elif event.type == "done":
        typer.echo("")
        if event.data.get("saved") is False:
            typer.echo("(this turn could not be saved)", err=True)
    elif event.type == "error":
        typer.echo(f"error ({event.data.get('code')}): {event.data.get('message')}", err=True)
    return event.session_id


def _print_picks(picks: list[PickView]) -> None:
    for rank, pick in enumerate(picks, 1):
        price = "n/a" if pick.price_usd is None else usd(pick.price_usd)
        typer.echo(f"{rank}. [{pick.platform}] {pick.title[:80]}  {price}  ({pick.item_id})")
        typer.echo(f"   {pick.reason}")


def _read_line() -> str | None:
    try:
        return input("you> ")
    except EOFError:
        return None
