"""`pickwise ask`, `chat` and `serve` on the real index with the offline agent: the `--json`
document, a session continued across runs through Redis and, without Redis, through the
SQLite file under var/, the readable output, bad input exiting 2 (text that is not Unicode
too), the REPL keeping its session until `/new`, and a served chat turn over HTTP."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from redis import Redis
from typer.testing import CliRunner, Result

from app.agent.session import SESSIONS_FILE
from app.cli import chat_cmd
from app.cli.main import app
from app.config.settings import Settings
from app.recall.breakers import BREAKERS
from app.recall.search_index import SearchIndex
from app.runtime import Runtime
from tests.api.conftest import without_redis
from tests.api.live_server import free_port
from tests.api.sse import parse_sse
from tests.turn_document import PICK_KEYS, TURN_KEYS

REDIS_URL = "redis://127.0.0.1:6379/13"
SESSION_KEYS = "pickwise:session:*"

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


@pytest.fixture(scope="module")
def index(built_index: Settings) -> Iterator[SearchIndex]:
    """One opened index (and model) for every command of the module."""
    opened = SearchIndex.open(built_index)
    yield opened
    asyncio.run(opened.close())


@pytest.fixture(scope="module")
def redis() -> Iterator[Redis]:
    client = Redis.from_url(REDIS_URL)
    client.flushdb()
    yield client
    client.flushdb()
    client.close()


@pytest.fixture(autouse=True)
def _cli_on_the_shared_index(
    monkeypatch: pytest.MonkeyPatch, built_index: Settings, index: SearchIndex, redis: Redis
) -> None:
    settings = built_index.model_copy(update={"redis_url": REDIS_URL})
    BREAKERS.reset()
    monkeypatch.setattr(chat_cmd, "get_settings", lambda: settings)
    monkeypatch.setattr(chat_cmd, "open_runtime", lambda s: Runtime(s, index=index))


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(app, list(args), input=stdin)


def ask_json(*args: str) -> dict[str, Any]:
    result = run("ask", *args, "--json")
    assert result.exit_code == 0, result.output
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


def test_ask_json_document() -> None:
    doc = ask_json("a gaming keyboard, not logitech")
    assert set(doc) == TURN_KEYS
    assert (doc["planner"], doc["policy"]) == ("rules", "offline")
    assert doc["saved"] is True
    assert doc["readings"] >= 1
    assert doc["answer"].strip()
    assert doc["picks"]
    for pick in doc["picks"]:
        assert set(pick) == PICK_KEYS
        assert "logitech" not in pick["title"].lower()
        assert pick["reason"]
    assert doc["plan"]["category"] == "gaming keyboard"
    assert [c["term"] for c in doc["plan"]["exclude"]] == ["logitech"]
    assert doc["trace"]
    assert all(set(t) == {"stage", "ms"} for t in doc["trace"])
    assert "planner" in {t["stage"] for t in doc["trace"]}


def test_ask_continues_a_session_across_runs(redis: Redis) -> None:
    first = ask_json("headphones under $30", "--session", "cli-ask-1")
    assert first["session_id"] == "cli-ask-1"
    second = ask_json("not sony", "--session", "cli-ask-1")
    assert second["session_id"] == "cli-ask-1"
    plan = second["plan"]
    assert (plan["category"], plan["budget_usd"]) == ("headphones", 30.0)
    assert [c["term"] for c in plan["exclude"]] == ["sony"]
    stored = json.loads(redis.get("pickwise:session:cli-ask-1") or b"{}")
    assert stored["turns"] == 2


def test_ask_continues_a_session_across_runs_without_redis(
    monkeypatch: pytest.MonkeyPatch, built_index: Settings, tmp_path: Path
) -> None:
    settings = without_redis(built_index, tmp_path)
    monkeypatch.setattr(chat_cmd, "get_settings", lambda: settings)
    first = ask_json("headphones under $30", "--session", "cli-file-1")
    second = ask_json("something cheaper", "--session", "cli-file-1")
    assert second["session_id"] == "cli-file-1"
    assert second["saved"] is True
    assert second["plan"]["category"] == first["plan"]["category"] == "headphones"
    assert second["plan"]["budget_usd"] is not None
    assert second["plan"]["budget_usd"] < 30.0
    with sqlite3.connect(tmp_path / SESSIONS_FILE) as db:
        (raw,) = db.execute("SELECT data FROM sessions WHERE id = 'cli-file-1'").fetchone()
    stored = json.loads(raw)
    assert stored["turns"] == 2
    assert stored["token_hash"] is None, "a local session has no token: no HTTP caller reaches it"


def test_ask_prints_picks_answer_and_session() -> None:
    result = run("ask", "a usb-c charger")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("1. [")
    assert lines[1].startswith("   ")
    assert lines[-1].startswith("(session ")


def test_bad_input_exits_2_with_the_reason() -> None:
    blank = run("ask", "   ", "--json")
    assert blank.exit_code == 2
    assert json.loads(blank.stdout)["error"]["code"] == "invalid_request"
    bad_id = run("ask", "a mouse", "--session", "no spaces allowed")
    assert bad_id.exit_code == 2
    assert "session id" in bad_id.stderr
    undecodable = run(
        "ask", "a mouse \udcff", "--json"
    )  # a non-UTF-8 argv byte, as Python reads it
    assert undecodable.exit_code == 2
    assert json.loads(undecodable.stdout)["error"]["code"] == "invalid_request"


def test_chat_keeps_the_session_until_new(redis: Redis) -> None:
    before = set(redis.scan_iter(SESSION_KEYS))
    script = "a gaming keyboard\nunder $50\n\n/new\nwhat's the weather in Paris?\n/quit\n"
    result = run("chat", stdin=script)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(chat_cmd.HELP)
    assert "(new session)" in result.stdout
    assert "1. [" in result.stdout
    assert "I can only help with shopping." in result.stdout
    sessions = [
        json.loads(redis.get(key) or b"{}") for key in set(redis.scan_iter(SESSION_KEYS)) - before
    ]
    assert sorted(s["turns"] for s in sessions) == [1, 2]
    kept = next(s for s in sessions if s["turns"] == 2)
    assert kept["user_messages"] == ["a gaming keyboard", "under $50"]
    assert (kept["plan"]["category"], kept["plan"]["budget_usd"]) == ("gaming keyboard", 50.0)


def test_chat_ends_at_end_of_input() -> None:
    result = run("chat", stdin="")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(chat_cmd.HELP)


def test_serve_answers_a_chat_turn_over_http(built_index: Settings) -> None:
    port = free_port()
    env = {
        **os.environ,
        "PICKWISE_VAR_DIR": str(built_index.var_dir),
        "PICKWISE_DATA_DIR": str(built_index.data_dir),
        "REDIS_URL": REDIS_URL,
        "HF_HUB_OFFLINE": "1",
    }
    command = [sys.executable, "-m", "app.cli.main", "serve", "--port", str(port)]
    server = subprocess.Popen(
        [*command, "--log-level", "warning"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        assert _wait_healthy(base, server), "pickwise serve did not come up"
        response = httpx.post(f"{base}/v1/chat", json={"message": "a usb-c charger"}, timeout=120)
        assert response.status_code == 200
        events = parse_sse(response.text)
        assert events[0].event == "session"
        assert events[-1].event == "done"
        assert len({e.data["turn_id"] for e in events}) == 1
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=60)
    assert "Traceback" not in output, output


def _wait_healthy(base: str, server: subprocess.Popen[str]) -> bool:
    """Poll /healthz until it answers 200, the server exits, or five minutes pass."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and server.poll() is None:
        try:
            if httpx.get(f"{base}/healthz", timeout=10).status_code == 200:
                return True
        except httpx.TransportError:
            pass
        time.sleep(0.5)
    return False
