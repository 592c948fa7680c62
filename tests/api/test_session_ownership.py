"""Session ownership and the embedded store over real HTTP, with the real agent and no Redis
(sessions in var/sessions.sqlite3 of a private var folder): the server issues ids and a
token only the creator gets, a wrong or missing token is the 404 of no session on every
route, a client-chosen id creates nothing, and a restarted server remembers its sessions."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.agent.session import SESSIONS_FILE
from app.api.app import create_app
from app.config.registry import REGISTRY
from app.config.settings import Settings
from app.recall.breakers import BREAKERS
from app.recall.search_index import SearchIndex
from app.runtime import Runtime
from tests.api.live_server import live_server
from tests.api.sse import parse_sse

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

TOKEN = "X-Session-Token"


def serve(settings: Settings, index: SearchIndex) -> Any:
    BREAKERS.reset()
    return live_server(create_app(settings, runtime=Runtime(settings, index=index)))


@pytest.fixture(scope="module")
def base_url(no_redis: Settings, shared_index: SearchIndex) -> Iterator[str]:
    with serve(no_redis, shared_index) as url:
        yield url


def stored(settings: Settings, session_id: str) -> str | None:
    """The raw JSON row of a session in the embedded store, or None."""
    with sqlite3.connect(settings.var_dir / SESSIONS_FILE) as db:
        row = db.execute("SELECT data FROM sessions WHERE id = ?", (session_id,)).fetchone()
    return None if row is None else str(row[0])


def chat(
    client: httpx.Client, message: str, sid: str | None = None, token: str | None = None
) -> httpx.Response:
    body = {"message": message, **({"session_id": sid} if sid else {})}
    return client.post("/v1/chat?stream=false", json=body, headers={TOKEN: token} if token else {})


def test_only_the_creator_reaches_a_session(base_url: str, no_redis: Settings) -> None:
    with httpx.Client(base_url=base_url, timeout=120) as client:
        first = chat(client, "a usb-c charger")
        assert first.status_code == 200, first.text
        doc = first.json()
        sid, token = doc["session_id"], doc["session_token"]
        assert doc["saved"] is True
        assert len(sid) >= 32
        assert len(token) >= 40
        assert first.headers[TOKEN] == token
        assert first.headers["x-session-id"] == sid

        row = stored(no_redis, sid)
        assert row is not None
        assert token not in row
        assert hashlib.sha256(token.encode()).hexdigest() in row

        streamed = client.post(
            "/v1/chat", json={"session_id": sid, "message": "under $20"}, headers={TOKEN: token}
        )
        assert streamed.status_code == 200, streamed.text
        assert TOKEN not in streamed.headers
        events = parse_sse(streamed.text)
        assert events[0].data["data"]["new"] is False
        assert "session_token" not in events[0].data["data"]
        assert events[-1].event == "done"
        assert events[-1].data["data"]["saved"] is True

        unknown = client.get("/v1/sessions/NeverIssuedById0123456789abcdefgh")
        assert unknown.status_code == 404
        for headers in ({}, {TOKEN: "wrong"}, {TOKEN: token[:-1]}, {"Authorization": token}):
            refused = [
                client.post("/v1/chat", json={"session_id": sid, "message": "hi"}, headers=headers),
                client.get(f"/v1/sessions/{sid}", headers=headers),
                client.delete(f"/v1/sessions/{sid}", headers=headers),
                client.patch(
                    f"/v1/sessions/{sid}/plan", json={"budget_usd": None}, headers=headers
                ),
            ]
            for response in refused:
                assert response.status_code == 404, (headers, response.text)
                assert response.json() == {
                    "error": {"code": "not_found", "message": f"no session '{sid}'"}
                }
                assert TOKEN not in response.headers

        view = client.get(f"/v1/sessions/{sid}", headers={TOKEN: token})
        assert view.status_code == 200
        assert view.json()["turns"] == 2
        assert "token_hash" not in view.json()
        edited = client.patch(
            f"/v1/sessions/{sid}/plan?stream=false",
            json={"budget_usd": None},
            headers={TOKEN: token},
        )
        assert edited.status_code == 200, edited.text
        assert edited.json()["saved"] is True
        assert client.delete(f"/v1/sessions/{sid}", headers={TOKEN: token}).status_code == 204
        assert client.get(f"/v1/sessions/{sid}", headers={TOKEN: token}).status_code == 404
        assert stored(no_redis, sid) is None


def test_a_planner_failure_says_what_kind_without_internals(base_url: str) -> None:
    too_long_to_plan = "usb hub " * 3000  # over the planner's 20,000 characters
    with (
        REGISTRY.overridden(AGENT_MESSAGE_MAX_CHARS=30_000),
        httpx.Client(base_url=base_url, timeout=120) as client,
    ):
        response = chat(client, too_long_to_plan)
    assert response.status_code == 400
    assert response.json() == {
        "error": {"code": "invalid_request", "message": "the planner could not read this message"}
    }


def test_a_client_chosen_id_creates_nothing(base_url: str, no_redis: Settings) -> None:
    chosen = "my-own-session-id"
    with httpx.Client(base_url=base_url, timeout=120) as client:
        for headers in ({}, {TOKEN: "anything"}):
            response = chat(client, "a usb-c charger", chosen, headers.get(TOKEN))
            assert response.status_code == 404
            assert response.json()["error"]["code"] == "not_found"
    assert stored(no_redis, chosen) is None


def test_a_restarted_server_remembers_its_sessions(
    no_redis: Settings, shared_index: SearchIndex, base_url: str
) -> None:
    with serve(no_redis, shared_index) as url, httpx.Client(base_url=url, timeout=120) as client:
        first = chat(client, "wireless headphones")
        assert first.status_code == 200, first.text
    sid, token = first.json()["session_id"], first.json()["session_token"]
    with serve(no_redis, shared_index) as url, httpx.Client(base_url=url, timeout=120) as client:
        later = chat(client, "under $40", sid, token)
        assert later.status_code == 200, later.text
        assert later.json()["session_id"] == sid
        assert later.json()["plan"]["category"] == first.json()["plan"]["category"]
        assert later.json()["plan"]["budget_usd"] == 40.0
        view = client.get(f"/v1/sessions/{sid}", headers={TOKEN: token}).json()
        assert view["turns"] == 2
        assert [m["content"] for m in view["messages"] if m["role"] == "user"] == [
            "wireless headphones",
            "under $40",
        ]
