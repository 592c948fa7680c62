"""Conversations through the API with the real agent driving an LLM: the real `openai`
client against the scripted OpenAI-compatible server on loopback, over the real index; a
garbage reply is a completed turn that says so, and a server that takes only `json_object`
keeps the model on."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from app.api.app import create_app
from app.config.registry import REGISTRY
from app.config.settings import Settings
from app.recall.breakers import BREAKERS
from app.recall.search_index import SearchIndex
from app.runtime import Runtime
from tests.api.conftest import serving
from tests.api.owner import SessionTokens
from tests.api.sse import SseMessage, parse_sse
from tests.fakes.scripted_openai import Call, ScriptedOpenAI, calls, raw, say, structured

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

FIRST_ANSWER = "Here are three wireless mice under $25."
SECOND_ANSWER = "These ones stay under $15."


@pytest.fixture
async def client(
    api_settings: Settings, shared_index: SearchIndex, scripted_openai: ScriptedOpenAI
) -> AsyncIterator[httpx.AsyncClient]:
    """The production app with OPENAI_BASE_URL on the scripted server."""
    BREAKERS.reset()
    settings = api_settings.model_copy(update={"openai_base_url": scripted_openai.base_url})
    app = create_app(settings, runtime=Runtime(settings, index=shared_index))
    async with serving(app) as c:
        yield SessionTokens().install(c)  # the owner's token goes along, as on the page
    BREAKERS.reset()


def script_turn(server: ScriptedOpenAI, budget: float, answer: str) -> None:
    """The planner's JSON, one item_search call, then a written answer (autopick picks)."""
    plan = {"category": "wireless mouse", "keywords": ["wireless"], "budget_usd": budget}
    server.script("plan", structured(plan))
    server.script("tools", calls(Call("item_search", {"query": "wireless mouse"})), say(answer))


async def stream(client: httpx.AsyncClient, body: dict[str, Any]) -> list[SseMessage]:
    response = await client.post("/v1/chat", json=body)
    assert response.status_code == 200, response.text
    events = parse_sse(response.text)
    assert events[0].event == "session"
    assert events[-1].event == "done", events[-1].data
    return events


def tool_ends(events: list[SseMessage]) -> list[dict[str, Any]]:
    return [e.data["data"] for e in events if e.event == "tool_end"]


async def test_a_conversation_driven_by_the_model(
    client: httpx.AsyncClient, scripted_openai: ScriptedOpenAI
) -> None:
    script_turn(scripted_openai, 25, FIRST_ANSWER)
    first = await stream(client, {"message": "a wireless mouse under $25"})
    sid = first[0].data["session_id"]
    assert first[0].data["data"]["mode"] == "llm"
    assert first[1].data["data"]["source"] == "llm"
    assert [(t["tool"], t["by"]) for t in tool_ends(first)][:3] == [
        ("item_search", "model"),
        ("price_compare", "autopick"),
        ("item_picker", "autopick"),
    ]
    done = first[-1].data["data"]
    assert done["answer"] == FIRST_ANSWER
    assert done["plan"]["budget_usd"] == 25.0
    assert done["picks"]
    assert all(p["price_usd"] is not None and p["price_usd"] <= 25 for p in done["picks"])

    script_turn(scripted_openai, 15, SECOND_ANSWER)
    second = await stream(client, {"session_id": sid, "message": "under $15 instead"})
    assert second[0].data["session_id"] == sid
    done = second[-1].data["data"]
    assert done["answer"] == SECOND_ANSWER
    assert done["plan"]["budget_usd"] == 15.0
    assert all(p["price_usd"] is not None and p["price_usd"] <= 15 for p in done["picks"])

    tool_requests = scripted_openai.requests("tools")
    assert len(tool_requests) == 4
    assert "item_search" in tool_requests[0].tool_names
    assert "planner" not in tool_requests[0].tool_names
    later = [(m["role"], m.get("content")) for m in tool_requests[2].messages]
    assert ("user", "a wireless mouse under $25") in later
    assert ("assistant", FIRST_ANSWER) in later
    assert later[-1] == ("user", "under $15 instead")
    planner_inputs = [r.messages[-1]["content"] for r in scripted_openai.requests("plan")]
    assert "a wireless mouse under $25" in planner_inputs[1]
    assert "under $15 instead" in planner_inputs[1]

    view = (await client.get(f"/v1/sessions/{sid}")).json()
    assert view["turns"] == 2
    assert view["messages"][-1] == {"role": "assistant", "content": SECOND_ANSWER}
    assert view["picks"] == done["picks"]


async def test_a_garbage_llm_reply_is_a_completed_turn_that_says_so(
    client: httpx.AsyncClient, scripted_openai: ScriptedOpenAI
) -> None:
    scripted_openai.script("plan", raw('"not a completion"'))
    scripted_openai.script("tools", raw("<html>oops</html>", media_type="text/html"))
    scripted_openai.script("text", raw('{"choices": []}'))
    with REGISTRY.overridden(BREAKER_LLM_PLANNER_FAIL_MAX=1, BREAKER_LLM_AGENT_FAIL_MAX=5):
        response = await client.post(
            "/v1/chat?stream=false", json={"message": "a wireless mouse under $25"}
        )
        health = (await client.get("/healthz")).json()["components"]
    assert response.status_code == 200, response.text
    doc = response.json()
    assert (doc["planner"], doc["policy"]) == ("rules", "offline")
    assert (
        "planner: llm sent a malformed reply (a JSON str); circuit opened, rules used"
        in (doc["notes"])
    )
    assert "policy: llm sent a malformed reply (not JSON), offline policy used" in doc["notes"]
    assert doc["picks"]
    llm = health["llm"]
    assert (llm["status"], llm["planner"], llm["mode"]) == ("degraded", "rules", "llm")
    assert llm["breakers"] == {"llm_planner": "open", "llm_agent": "closed"}
    failures = {b["name"]: b["failures"] for b in health["breakers"]["states"]}
    assert failures["llm_agent"] == 2
    metrics = (await client.get("/metrics")).text
    failed = {
        (s.labels["role"], s.labels["reason"])
        for family in text_string_to_metric_families(metrics)
        for s in family.samples
        if s.name == "pickwise_llm_failures_total" and s.value >= 1
    }
    assert {("planner", "malformed"), ("agent", "malformed"), ("agent", "empty")} <= failed


async def test_a_server_taking_only_json_object_keeps_the_model_on(
    client: httpx.AsyncClient, scripted_openai: ScriptedOpenAI
) -> None:
    scripted_openai.accept_formats = frozenset({"json_object"})
    scripted_openai.refuse_status = 422
    script_turn(scripted_openai, 25, FIRST_ANSWER)
    first = await stream(client, {"message": "a wireless mouse under $25"})
    script_turn(scripted_openai, 15, SECOND_ANSWER)
    sid = first[0].data["session_id"]
    second = await stream(client, {"session_id": sid, "message": "under $15 instead"})
    for events, answer in ((first, FIRST_ANSWER), (second, SECOND_ANSWER)):
        session, done = events[0].data["data"], events[-1].data["data"]
        assert (session["planner"], session["policy"]) == ("llm", "llm")
        assert (done["planner"], done["policy"], done["answer"]) == ("llm", "llm", answer)
    assert len(scripted_openai.refused) == 1
    llm = (await client.get("/healthz")).json()["components"]["llm"]
    assert llm["status"] == "ok"
    assert llm["structured_output"] == {"gpt-4o-mini": "json_object"}
    assert llm["breakers"] == {"llm_planner": "closed", "llm_agent": "closed"}
