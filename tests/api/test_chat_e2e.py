"""The API end to end with the real agent on the real index, offline (no LLM): the SSE turn,
a session that carries P_t over and lifts a constraint, two conversations at once that
never mix, the session routes, and Redis down refusing a turn before any event."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import pytest_asyncio

from app.api.app import create_app
from app.config.settings import Settings
from app.recall.breakers import BREAKERS
from app.recall.search_index import SearchIndex
from app.runtime import Runtime
from tests.api.conftest import serving
from tests.api.live_server import free_port
from tests.api.owner import SessionTokens
from tests.api.sse import SseMessage, parse_sse
from tests.turn_document import PICK_KEYS, TURN_KEYS

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(600),
    pytest.mark.asyncio(loop_scope="module"),
]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(
    api_settings: Settings, shared_index: SearchIndex
) -> AsyncIterator[httpx.AsyncClient]:
    """The production app (the lifespan builds the agent) on the shared index and Redis."""
    BREAKERS.reset()
    app = create_app(api_settings, runtime=Runtime(api_settings, index=shared_index))
    async with serving(app) as c:
        yield SessionTokens().install(c)  # the owner's token goes along, as on the page
    BREAKERS.reset()


async def stream_turn(
    client: httpx.AsyncClient, message: str, session_id: str | None = None
) -> list[SseMessage]:
    body = {"message": message, **({"session_id": session_id} if session_id else {})}
    response = await client.post("/v1/chat", json=body)
    assert response.status_code == 200, response.text
    events = parse_sse(response.text)
    check_stream(events)
    return events


async def whole_turn(
    client: httpx.AsyncClient, message: str, session_id: str | None = None
) -> dict[str, Any]:
    body = {"message": message, **({"session_id": session_id} if session_id else {})}
    response = await client.post("/v1/chat?stream=false", json=body)
    assert response.status_code == 200, response.text
    doc: dict[str, Any] = response.json()
    assert set(doc) == TURN_KEYS | ({"session_token"} if session_id is None else set())
    assert (doc["planner"], doc["policy"]) == ("rules", "offline")
    assert doc["saved"] is True
    assert doc["readings"] >= 1
    assert all(set(p) == PICK_KEYS for p in doc["picks"])
    return doc


def check_stream(events: list[SseMessage]) -> None:
    """session first, done last, one turn id, SSE ids in sequence, tool events paired."""
    kinds = [e.event for e in events]
    assert kinds[0] == "session", kinds
    assert kinds[-1] == "done", kinds
    assert kinds[1] == "plan", kinds
    turn_id = events[0].data["turn_id"]
    assert [e.id for e in events] == [f"{turn_id}:{n}" for n in range(len(events))]
    assert {(e.data["turn_id"], e.data["session_id"]) for e in events} == {
        (turn_id, events[0].data["session_id"])
    }
    starts = [e.data["data"]["call_id"] for e in events if e.event == "tool_start"]
    ends = [e.data["data"]["call_id"] for e in events if e.event == "tool_end"]
    assert sorted(starts) == sorted(ends)
    first_delta = kinds.index("message_delta")
    assert set(kinds[first_delta:-1]) == {"message_delta"}


def done_of(events: list[SseMessage]) -> dict[str, Any]:
    data: dict[str, Any] = events[-1].data["data"]
    return data


async def test_an_offline_turn_streams_plan_tools_picks_and_answer(
    client: httpx.AsyncClient,
) -> None:
    events = await stream_turn(client, "a gaming keyboard, not logitech")
    session = events[0].data["data"]
    assert (session["new"], session["mode"]) == (True, "offline")
    plan = events[1].data["data"]["plan"]
    assert plan["category"] == "gaming keyboard"
    assert [c["term"] for c in plan["exclude"]] == ["logitech"]
    tools = [e.data["data"]["tool"] for e in events if e.event == "tool_end"]
    assert tools[0] == "item_search"
    assert "item_picker" in tools
    picks = [e for e in events if e.event == "picks"][-1].data["data"]["picks"]
    assert picks
    assert all("logitech" not in p["title"].lower() for p in picks)
    done = done_of(events)
    deltas = "".join(e.data["data"]["text"] for e in events if e.event == "message_delta")
    assert deltas == done["answer"]
    assert done["picks"] == picks


async def test_the_session_carries_over_and_a_later_message_lifts_a_constraint(
    client: httpx.AsyncClient,
) -> None:
    first = await whole_turn(client, "headphones under $30, not sony")
    sid = first["session_id"]
    assert first["plan"]["budget_usd"] == 30.0
    assert [c["term"] for c in first["plan"]["exclude"]] == ["sony"]
    second = await stream_turn(client, "sony is fine actually", sid)
    assert second[0].data["session_id"] == sid
    assert second[0].data["data"]["new"] is False
    plan = done_of(second)["plan"]
    assert plan["exclude"] == []
    assert (plan["category"], plan["budget_usd"]) == ("headphones", 30.0)
    third = await whole_turn(client, "under $20 please", sid)
    assert third["session_id"] == sid
    assert third["plan"]["budget_usd"] == 20.0
    assert all(p["price_usd"] is not None and p["price_usd"] <= 20 for p in third["picks"])
    view = (await client.get(f"/v1/sessions/{sid}")).json()
    assert view["turns"] == 3
    assert view["plan"] == third["plan"]
    assert [m["role"] for m in view["messages"]] == ["user", "assistant"] * 3
    assert view["messages"][-1]["content"] == third["answer"]
    assert view["picks"] == third["picks"]


async def conversation(client: httpx.AsyncClient, messages: list[str]) -> list[dict[str, Any]]:
    """The messages of one shopper in order, one session; the stream=false documents."""
    docs: list[dict[str, Any]] = []
    for message in messages:
        docs.append(await whole_turn(client, message, docs[-1]["session_id"] if docs else None))
    return docs


async def test_two_concurrent_sessions_never_mix(client: httpx.AsyncClient) -> None:
    phones, mice = await asyncio.gather(
        conversation(client, ["a phone case, not black", "under $15"]),
        conversation(client, ["a wireless mouse under $40, not logitech", "quiet clicks"]),
    )
    phone_sid, mouse_sid = phones[0]["session_id"], mice[0]["session_id"]
    assert phone_sid != mouse_sid
    assert {d["session_id"] for d in phones} == {phone_sid}
    assert {d["session_id"] for d in mice} == {mouse_sid}
    phone_plan, mouse_plan = phones[-1]["plan"], mice[-1]["plan"]
    assert "phone case" in phone_plan["category"]
    assert [c["term"] for c in phone_plan["exclude"]] == ["black"]
    assert phone_plan["budget_usd"] == 15.0
    assert "mouse" in mouse_plan["category"]
    assert [c["term"] for c in mouse_plan["exclude"]] == ["logitech"]
    assert mouse_plan["budget_usd"] == 40.0
    phone_ids = {p["item_id"] for d in phones for p in d["picks"]}
    mouse_ids = {p["item_id"] for d in mice for p in d["picks"]}
    assert phone_ids
    assert mouse_ids
    assert not phone_ids & mouse_ids
    for sid, docs, own, other in (
        (phone_sid, phones, "phone case", "mouse"),
        (mouse_sid, mice, "mouse", "phone case"),
    ):
        view = (await client.get(f"/v1/sessions/{sid}")).json()
        assert view["plan"] == docs[-1]["plan"]
        assert view["picks"] == docs[-1]["picks"]
        said = " ".join(m["content"] for m in view["messages"] if m["role"] == "user")
        assert own in said
        assert other not in said


async def test_delete_forgets_the_session(client: httpx.AsyncClient) -> None:
    sid = (await whole_turn(client, "a usb-c charger"))["session_id"]
    assert (await client.get(f"/v1/sessions/{sid}")).status_code == 200
    assert (await client.delete(f"/v1/sessions/{sid}")).status_code == 204
    assert (await client.get(f"/v1/sessions/{sid}")).status_code == 404
    assert (await client.delete(f"/v1/sessions/{sid}")).status_code == 404
    again = await client.post("/v1/chat", json={"session_id": sid, "message": "a usb-c charger"})
    assert again.status_code == 404, "a deleted session's id starts nothing new"
    assert (await client.get(f"/v1/sessions/{sid}")).status_code == 404


async def test_redis_down_answers_a_new_session_unsaved_and_refuses_an_existing_one(
    built_index: Settings, shared_index: SearchIndex
) -> None:
    settings = built_index.model_copy(update={"redis_url": f"redis://127.0.0.1:{free_port()}/13"})
    BREAKERS.reset()
    app = create_app(settings, runtime=Runtime(settings, index=shared_index))
    try:
        async with serving(app) as down:
            doc = (await down.post("/v1/chat?stream=false", json={"message": "a mouse"})).json()
            assert doc["answer"]
            assert doc["saved"] is False
            assert any("will not be remembered" in note for note in doc["notes"]), doc["notes"]
            assert not any("127.0.0.1" in n or "Error" in n for n in doc["notes"]), "no internals"
            streamed = await down.post("/v1/chat", json={"message": "a usb-c charger"})
            events = parse_sse(streamed.text)
            assert (events[0].event, events[-1].event) == ("session", "done")
            assert events[-1].data["data"]["saved"] is False
            existing = {"session_id": doc["session_id"], "message": "something cheaper"}
            headers = {"X-Session-Token": doc["session_token"]}
            for stream in ("true", "false"):
                response = await down.post(
                    f"/v1/chat?stream={stream}", json=existing, headers=headers
                )
                assert response.status_code == 503
                error = response.json()["error"]
                assert (error["code"], error["dependency"]) == ("dependency_down", "redis_sessions")
            health = await down.get("/healthz")
            assert health.status_code == 200
            store = health.json()["components"]["session_store"]
            assert (store["status"], store["reachable"]) == ("degraded", False)
    finally:
        BREAKERS.reset()
