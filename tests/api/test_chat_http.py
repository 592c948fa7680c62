"""`POST /v1/chat` and the session routes against a scripted agent, in-process (one app for
the module): event order and ids, the non-streaming document, validation, every failure."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
import pytest_asyncio

from app.api.app import create_app
from app.config.registry import REGISTRY
from app.config.settings import Settings
from app.errors import ConfigError, DependencyDown
from app.recall.search_index import SearchIndex
from app.runtime import Runtime
from tests.api import scripted_agent as script
from tests.api.conftest import serving
from tests.api.sse import SseMessage, parse_sse
from tests.turn_document import TURN_KEYS

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module")]


@pytest.fixture(scope="module")
def agent() -> script.ScriptedAgent:
    return script.ScriptedAgent()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(
    api_settings: Settings, shared_index: SearchIndex, agent: script.ScriptedAgent
) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(api_settings, agent=agent, runtime=Runtime(api_settings, index=shared_index))
    async with serving(app) as c:
        yield c


async def chat_events(client: httpx.AsyncClient, **body: object) -> list[SseMessage]:
    response = await client.post("/v1/chat", json=body)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/event-stream")
    return parse_sse(response.text)


async def test_events_stream_in_order_with_the_turn_id_on_each(client: httpx.AsyncClient) -> None:
    events = await chat_events(client, message="usb hub")
    kinds = [e.event for e in events]
    assert kinds == [
        "session",
        "plan",
        "tool_start",
        "tool_end",
        "picks",
        "message_delta",
        "message_delta",
        "done",
    ]
    turn_id, session_id = events[0].data["turn_id"], events[0].data["session_id"]
    for seq, event in enumerate(events):
        assert event.data["type"] == event.event
        assert (event.data["turn_id"], event.data["session_id"]) == (turn_id, session_id)
        assert event.id == f"{turn_id}:{seq}"
    assert set(events[0].data["data"]) == {"new", "session_token"}
    assert events[0].data["data"]["new"] is True
    assert events[4].data["data"]["picks"][0]["item_id"] == "item-usb-hub"
    assert "".join(e.data["data"]["text"] for e in events[5:7]) == "Here is usb hub."


async def test_stream_false_answers_one_document(client: httpx.AsyncClient) -> None:
    response = await client.post("/v1/chat?stream=false", json={"message": "usb hub"})
    assert response.status_code == 200, response.text
    doc = response.json()
    assert set(doc) == TURN_KEYS | {"session_token"}
    assert doc["saved"] is True
    assert response.headers["x-session-token"] == doc["session_token"]
    assert doc["answer"] == "Here is usb hub."
    assert doc["plan"]["keywords"] == ["usb", "hub"]
    assert doc["picks"] == [
        {
            "item_id": "item-usb-hub",
            "title": "Usb Hub",
            "platform": "amazon",
            "price_usd": 9.99,
            "brand": None,
            "price": None,
            "currency": None,
            "attributes": {},
            "availability": "preorder",
            "reason": "matches 'usb hub'",
        }
    ]
    assert doc["trace"] == [{"stage": "item_search", "ms": 1.0}]
    assert response.headers["x-session-id"] == doc["session_id"]
    assert response.headers["x-turn-id"]


async def test_a_session_id_continues_the_session(
    client: httpx.AsyncClient, agent: script.ScriptedAgent
) -> None:
    first = await client.post("/v1/chat?stream=false", json={"message": "usb hub"})
    sid, token = first.json()["session_id"], first.json()["session_token"]
    response = await client.post(
        "/v1/chat",
        json={"session_id": sid, "message": "with four ports"},
        headers={"X-Session-Token": token},
    )
    assert response.status_code == 200, response.text
    assert "x-session-token" not in response.headers
    events = parse_sse(response.text)
    assert events[0].data["session_id"] == sid
    assert events[0].data["data"] == {"new": False}
    assert events[1].data["data"]["plan"]["keywords"] == ["usb", "hub", "with", "four", "ports"]


@pytest.mark.parametrize(
    ("body", "where", "words"),
    [
        ({"message": "   "}, "message", "blank"),
        ({}, "message", "required"),
        ({"message": "x" * 41}, "message", "longer than 40"),
        ({"message": "hi", "session_id": "../etc"}, "session_id", "letters, digits"),
        ({"message": "hi", "session_id": "s" * 65}, "session_id", "longer than 64"),
        ({"message": "hi", "sessionId": "abc"}, "sessionId", "extra"),
        ({"message": 5}, "message", "string"),
    ],
)
async def test_bad_requests_are_422_with_a_message(
    client: httpx.AsyncClient, body: dict[str, object], where: str, words: str
) -> None:
    with REGISTRY.overridden(AGENT_MESSAGE_MAX_CHARS=40):
        response = await client.post("/v1/chat", json=body)
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "validation_error"
    assert where in error["message"]
    assert words.lower() in error["message"].lower()
    assert "Value error" not in error["message"]
    assert any(where in f["loc"] for f in error["fields"])


async def test_a_body_that_is_not_json_is_422(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/chat", content=b"message=hi", headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "validation_error"


@pytest.mark.parametrize("stream", ["true", "false"])
async def test_failures_before_the_first_event_are_http_errors(
    client: httpx.AsyncClient, stream: str
) -> None:
    down = await client.post(f"/v1/chat?stream={stream}", json={"message": script.FAIL_BEFORE})
    assert down.status_code == 503
    assert down.headers["content-type"] == "application/json"
    assert down.json() == {
        "error": {
            "code": "dependency_down",
            "message": "redis is unavailable: connection refused",
            "dependency": "redis",
        }
    }
    rejected = await client.post(f"/v1/chat?stream={stream}", json={"message": script.REJECT})
    assert rejected.status_code == 400
    assert rejected.json()["error"] == {
        "code": "invalid_request",
        "message": "the agent rejects this message",
    }
    refused = await client.post(f"/v1/chat?stream={stream}", json={"message": script.ERROR_FIRST})
    assert refused.status_code == 503
    assert refused.json()["error"] == {"code": "dependency_down", "message": "llm is unavailable"}


async def test_an_error_event_after_the_session_event_ends_the_stream(
    client: httpx.AsyncClient,
) -> None:
    events = await chat_events(client, message=script.ERROR_EVENT)
    assert [e.event for e in events] == ["session", "error"]
    whole = await client.post("/v1/chat?stream=false", json={"message": script.ERROR_EVENT})
    assert whole.status_code == 503
    assert whole.json()["error"]["message"] == "llm is unavailable"


async def test_dependency_down_mid_turn_ends_the_stream_with_an_error_event(
    client: httpx.AsyncClient,
) -> None:
    events = await chat_events(client, message=script.FAIL_MIDWAY)
    assert [e.event for e in events] == ["session", "plan", "tool_start", "error"]
    error = events[-1].data
    assert error["turn_id"] == events[0].data["turn_id"]
    assert error["data"] == {
        "code": "dependency_down",
        "message": "qdrant is unavailable: circuit open",
        "dependency": "qdrant",
    }
    whole = await client.post("/v1/chat?stream=false", json={"message": script.FAIL_MIDWAY})
    assert whole.status_code == 503
    assert whole.json()["error"]["dependency"] == "qdrant"


async def test_a_bug_mid_turn_is_an_error_event_without_internals(
    client: httpx.AsyncClient,
) -> None:
    events = await chat_events(client, message=script.BUG_MIDWAY)
    assert events[-1].event == "error"
    assert events[-1].data["data"]["code"] == "internal_error"
    assert "secret" not in str(events[-1].data)
    whole = await client.post("/v1/chat?stream=false", json={"message": script.BUG_MIDWAY})
    assert whole.status_code == 500
    assert "secret" not in whole.text


async def test_get_and_delete_a_session(client: httpx.AsyncClient) -> None:
    first = await client.post("/v1/chat?stream=false", json={"message": "usb hub"})
    sid = first.json()["session_id"]
    owner = {"X-Session-Token": first.json()["session_token"]}
    got = await client.get(f"/v1/sessions/{sid}", headers=owner)
    assert got.status_code == 200
    view = got.json()
    assert set(view) == {
        "session_id",
        "turns",
        "plan",
        "messages",
        "picks",
        "slots",
        "created_at",
        "updated_at",
    }
    assert (view["session_id"], view["turns"]) == (sid, 1)
    assert view["plan"]["keywords"] == ["usb", "hub"]
    assert view["messages"] == [
        {"role": "user", "content": "usb hub"},
        {"role": "assistant", "content": "Here is usb hub."},
    ]
    assert view["picks"] == first.json()["picks"]
    deleted = await client.delete(f"/v1/sessions/{sid}", headers=owner)
    assert deleted.status_code == 204
    assert deleted.content == b""
    for response in (
        await client.get(f"/v1/sessions/{sid}", headers=owner),
        await client.delete(f"/v1/sessions/{sid}", headers=owner),
    ):
        assert response.status_code == 404
        assert response.json()["error"] == {"code": "not_found", "message": f"no session '{sid}'"}


async def test_session_routes_validate_the_id(client: httpx.AsyncClient) -> None:
    response = await client.get("/v1/sessions/bad%20id")
    assert response.status_code == 422
    assert "letters, digits" in response.json()["error"]["message"]
    unknown_route = await client.get("/v1/nothing")
    assert unknown_route.status_code == 404
    assert unknown_route.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize(
    ("raised", "status", "error"),
    [
        (
            DependencyDown("redis", "timed out"),
            503,
            {
                "code": "dependency_down",
                "message": "redis is unavailable: timed out",
                "dependency": "redis",
            },
        ),
        (
            ConfigError("REDIS_URL names no database"),
            500,
            {
                "code": "config_error",
                "message": "server misconfigured: REDIS_URL names no database",
            },
        ),
        (
            RuntimeError("secret internals"),
            500,
            {"code": "internal_error", "message": "internal error; see the server log"},
        ),
    ],
)
async def test_route_failures_map_to_one_error_shape(
    client: httpx.AsyncClient,
    agent: script.ScriptedAgent,
    monkeypatch: pytest.MonkeyPatch,
    raised: Exception,
    status: int,
    error: dict[str, str],
) -> None:
    async def failing_get(session_id: str) -> None:
        raise raised

    monkeypatch.setattr(agent.sessions, "get", failing_get)
    response = await client.get("/v1/sessions/abc")
    assert response.status_code == status
    assert response.json() == {"error": error}
