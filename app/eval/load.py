"""The load test against a running API (loopback): many sessions of several SSE turns each
(time to first event, crossed sessions, unsaved turns) and a burst of simultaneous turns
(5xx, how fast refusals come, health right after). Bounded in count and in time."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx

from app.errors import ConfigError
from app.eval.bench_stats import percentile
from app.eval.load_client import TurnResult, bare_turn, read_session, run_turn

__all__ = ["FIRST_MESSAGES", "FOLLOW_UPS", "LoadOptions", "run_burst", "run_load", "run_sessions"]

FIRST_MESSAGES = (
    "a wireless mouse under $25",
    "a gaming keyboard, not logitech",
    "headphones under $30, not sony",
    "a usb-c charger",
    "a phone case, not black",
    "a laptop stand",
    "an hdmi cable",
    "a portable ssd",
)
FOLLOW_UPS = ("under $40 please", "something cheaper", "not black", "which one is best?")
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


@dataclass(frozen=True)
class LoadOptions:
    """How much load: `sessions` x `turns` SSE turns, then a `burst` of simultaneous turns."""

    sessions: int = 50
    turns: int = 5
    burst: int = 200
    time_limit_s: float = 420.0
    max_retries: int = 1000
    """429s a shopper's turn retries (after `Retry-After`); the time limit bounds them."""
    turn_timeout_s: float = 120.0


@dataclass
class _Session:
    index: int
    session_id: str | None = None
    token: str | None = None
    sent: list[str] = field(default_factory=list)
    said: list[str] | None = None
    asked: list[str] = field(default_factory=list)
    results: list[TurnResult] = field(default_factory=list)


def check_loopback(base_url: str) -> None:
    """The load test only ever targets this machine."""
    host = urlsplit(base_url).hostname or ""
    if host not in LOOPBACK:
        raise ConfigError(f"the load test runs on loopback only, not against {host!r}")


def _client(base_url: str, timeout_s: float) -> httpx.AsyncClient:
    """A client with a connection per request: a reused keep-alive connection the server is
    closing at that instant fails a POST that was never sent (a client-side artefact)."""
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=0)
    return httpx.AsyncClient(base_url=base_url, timeout=timeout_s, limits=limits)


async def run_sessions(base_url: str, options: LoadOptions) -> dict[str, Any]:
    """`options.sessions` shoppers at once, each `options.turns` SSE turns in sequence; a 429
    is retried after its `Retry-After`. Then each session is read back and checked."""
    check_loopback(base_url)
    sessions = [_Session(i) for i in range(options.sessions)]
    started = time.perf_counter()
    async with _client(base_url, options.turn_timeout_s) as client:
        async with asyncio.timeout(options.time_limit_s):
            await asyncio.gather(*(_shop(client, s, options) for s in sessions))
        checks = [await _history(client, s) for s in sessions]
    examples = [
        {"session": s.index, "check": check, "sent": s.sent, "said": s.said}
        for s, check in zip(sessions, checks, strict=True)
        if check != "ok"
    ]
    results = [r for s in sessions for r in s.results]
    ok = [r for r in results if r.ok]
    ttfe = [r.first_event_s * 1000 for r in results if r.first_event_s is not None]
    total = options.sessions * options.turns
    return {
        "sessions": options.sessions,
        "turns_per_session": options.turns,
        "turns": total,
        "succeeded": len(ok),
        "success_pct": round(100 * len(ok) / total, 2) if total else 0.0,
        "failed": total - len(ok),
        "refused_429": sum(r.refusals for r in results),
        "statuses": _count(str(r.status) for r in results),
        "failures": _count(f"{r.status}:{r.terminal}:{r.error_code}" for r in results if not r.ok),
        "ttfe_p50_ms": _round(percentile(ttfe, 50)),
        "ttfe_p95_ms": _round(percentile(ttfe, 95)),
        "turn_p50_ms": _round(percentile([r.total_s * 1000 for r in ok], 50)),
        "turn_p95_ms": _round(percentile([r.total_s * 1000 for r in ok], 95)),
        "crossed_sessions": checks.count("crossed"),
        "lost_sessions": checks.count("lost"),
        "orphaned_turns": checks.count("orphaned"),
        "not_ok_examples": examples[:3],
        "unsaved_turns": sum(1 for r in ok if not r.saved),
        "wall_s": round(time.perf_counter() - started, 1),
    }


async def _shop(client: httpx.AsyncClient, session: _Session, options: LoadOptions) -> None:
    for n in range(options.turns):
        message = (
            FIRST_MESSAGES[session.index % len(FIRST_MESSAGES)]
            if n == 0
            else FOLLOW_UPS[(n - 1) % len(FOLLOW_UPS)]
        )
        result = await run_turn(
            client, message, session.session_id, session.token, retries=options.max_retries
        )
        session.results.append(result)
        session.asked.append(message)
        if not result.ok:
            return
        session.sent.append(message)
        session.session_id = session.session_id or result.session_id
        session.token = result.token or session.token


async def _history(client: httpx.AsyncClient, session: _Session) -> str:
    """ "crossed" when an event named another session or the server holds messages this
    shopper never sent; "orphaned" when it also holds the one turn the client gave up on
    (timed out) after the server had finished it; "lost" when a session said saved cannot
    be read; else "ok"."""
    if any(r.foreign_events for r in session.results):
        return "crossed"
    if session.session_id is None or not session.sent:
        return "ok"
    said = session.said = await read_session(client, session.session_id, session.token)
    if said is None:
        return "lost" if all(r.saved for r in session.results if r.ok) else "ok"
    if said == session.sent:
        return "ok"
    gave_up = [m for m, r in zip(session.asked, session.results, strict=False) if not r.ok]
    return "orphaned" if said == session.sent + gave_up[:1] else "crossed"


async def run_burst(base_url: str, options: LoadOptions) -> dict[str, Any]:
    """`options.burst` turns sent at once, each on its own bare connection (`bare_turn`): how
    many were answered, refused (429) or failed (5xx), how fast the answer or refusal came,
    and `/healthz` right after."""
    check_loopback(base_url)
    where = urlsplit(base_url)
    host, port = where.hostname or "127.0.0.1", where.port or 80
    async with _client(base_url, options.turn_timeout_s) as client:
        gate = asyncio.Event()

        async def one(i: int) -> TurnResult:
            await gate.wait()
            message = FIRST_MESSAGES[i % len(FIRST_MESSAGES)]
            async with asyncio.timeout(options.turn_timeout_s):
                return await bare_turn(host, port, message)

        tasks = [asyncio.create_task(one(i)) for i in range(options.burst)]
        await asyncio.sleep(0.05)
        gate.set()
        async with asyncio.timeout(options.time_limit_s):
            results = await asyncio.gather(*tasks)
        health = await client.get("/healthz")
    refused = [r.status_s * 1000 for r in results if r.status == 429]
    answered = [r for r in results if r.status == 200]
    return {
        "requests": options.burst,
        "answered": len(answered),
        "completed": sum(1 for r in answered if r.ok),
        "refused_429": len(refused),
        "errors_5xx": sum(1 for r in results if r.status >= 500),
        "other": sum(1 for r in results if r.status not in (200, 429) and r.status < 500),
        "refusal_max_ms": _round(max(refused, default=float("nan"))),
        "refusal_p95_ms": _round(percentile(refused, 95)),
        "answer_headers_p95_ms": _round(percentile([r.status_s * 1000 for r in answered], 95)),
        "ttfe_p95_ms": _round(
            percentile([r.first_event_s * 1000 for r in answered if r.first_event_s], 95)
        ),
        "health_after": {"status_code": health.status_code, "status": _status(health)},
    }


async def run_load(base_url: str, options: LoadOptions) -> dict[str, Any]:
    """The sessions phase, then the burst; both as one report."""
    sessions = await run_sessions(base_url, options)
    burst = await run_burst(base_url, options)
    return {"sessions": sessions, "burst": burst}


def _status(response: httpx.Response) -> str | None:
    try:
        status = response.json().get("status")
    except ValueError:
        return None
    return str(status) if status is not None else None


def _count(values: Sequence[str] | Any) -> dict[str, int]:
    counts: dict[str, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return counts


def _round(value: float) -> float | None:
    return None if value != value else round(value, 1)
