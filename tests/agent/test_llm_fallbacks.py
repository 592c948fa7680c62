"""Whole turns on the real index while the LLM fails (the scripted OpenAI server, or a closed
port): refused, 500, garbage 200 bodies, empty choices, hanging past the turn's deadline.
Each turn completes with the rules and the offline policy, says so in `done` (planner,
policy, a short note per fallback), and counts on the right breaker and metric. A server
that refuses `json_schema` keeps tool calling on."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from app.agent.chat import ShoppingAgent
from app.agent.events import TurnEvent
from app.config.registry import REGISTRY
from app.config.settings import Settings
from app.recall.breakers import BREAKERS
from app.recall.search_index import SearchIndex
from app.telemetry import METRICS
from app.tools.compare.price_compare import PriceCompareTool
from tests.agent.conftest import open_agent
from tests.agent.events_check import gather_events, tool_calls
from tests.fakes.scripted_openai import (
    Call,
    Reply,
    ScriptedOpenAI,
    calls,
    fail,
    hang,
    raw,
    say,
    structured,
)

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300), pytest.mark.asyncio(loop_scope="module")]

MESSAGE = "a wireless mouse under $25"
CLOSED_PORT = "http://127.0.0.1:1/v1"


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def agent(
    built_index: Settings,
    agent_index: SearchIndex,
    compare_tool: PriceCompareTool,
    scripted_openai_server: ScriptedOpenAI,
) -> AsyncIterator[ShoppingAgent]:
    settings = built_index.model_copy(update={"openai_base_url": scripted_openai_server.base_url})
    async with open_agent(settings, agent_index, compare_tool) as (_, opened):
        yield opened


def counted(role: str, reason: str) -> float:
    value = METRICS.get_sample_value(
        "pickwise_llm_failures_total", {"role": role, "reason": reason}
    )
    return value or 0.0


async def turn(agent: ShoppingAgent, message: str = MESSAGE) -> list[TurnEvent]:
    return await gather_events(agent.run_turn(None, message))


def assert_answered_offline(events: list[TurnEvent]) -> dict[str, Any]:
    """The turn completed with the rules' plan, the offline policy's search and picks."""
    done = events[-1]
    assert done.type == "done", done.data
    data = done.data
    assert (data["planner"], data["policy"], data["plan_source"]) == ("rules", "offline", "rules")
    assert data["plan"]["budget_usd"] == 25.0
    assert tool_calls(events, "item_search")[0]["by"] == "policy"
    assert data["picks"]
    return data


FAILURES: list[tuple[str, Reply, str, str]] = [
    ("http 500", fail(500), "http_5xx", "answered HTTP 500"),
    ("garbage body", raw("<html>502</html>", media_type="text/html"), "malformed", "not JSON"),
    ("a JSON string", raw('"upstream overloaded"'), "malformed", "a JSON str"),
    ("empty choices", raw('{"object": "chat.completion", "choices": []}'), "empty", "no choices"),
]


@pytest.mark.parametrize(
    ("reply", "reason", "words"), [f[1:] for f in FAILURES], ids=[f[0] for f in FAILURES]
)
async def test_a_failing_llm_ends_the_turn_with_the_rules(
    agent: ShoppingAgent, scripted_openai: ScriptedOpenAI, reply: Reply, reason: str, words: str
) -> None:
    scripted_openai.script("plan", reply)
    scripted_openai.script("tools", reply)
    scripted_openai.script("text", reply)
    planner, policy = counted("planner", reason), counted("agent", reason)
    data = assert_answered_offline(await turn(agent))
    notes = [n for n in data["notes"] if n.startswith(("planner:", "policy:"))]
    assert len(notes) == 2
    assert words in notes[0]
    assert notes[0].endswith(", rules used")
    assert words in notes[1]
    assert notes[1].endswith(", offline policy used")
    assert counted("planner", reason) == planner + 1
    assert counted("agent", reason) == policy + 2  # the loop's call and the summary writer's
    assert BREAKERS.state("llm_planner").failures == 1
    assert BREAKERS.state("llm_agent").failures == 2


async def test_a_refused_connection_ends_the_turn_with_the_rules(
    built_index: Settings, agent_index: SearchIndex, compare_tool: PriceCompareTool
) -> None:
    settings = built_index.model_copy(update={"openai_base_url": CLOSED_PORT})
    planner, policy = counted("planner", "connection"), counted("agent", "connection")
    async with open_agent(settings, agent_index, compare_tool) as (_, refused):
        data = assert_answered_offline(await turn(refused))
    assert "planner: llm could not be reached, rules used" in data["notes"]
    assert "policy: llm could not be reached, offline policy used" in data["notes"]
    assert counted("planner", "connection") == planner + 1
    assert counted("agent", "connection") == policy + 2


async def test_a_hanging_planner_call_is_cut_by_the_turn_deadline(
    agent: ShoppingAgent, scripted_openai: ScriptedOpenAI
) -> None:
    scripted_openai.script("plan", hang(120))
    cut, skipped = counted("planner", "deadline"), counted("agent", "deadline")
    with REGISTRY.overridden(LLM_TURN_DEADLINE_S=1.0):
        events = await turn(agent)
    data = assert_answered_offline(events)
    hit = "llm hit the turn deadline (LLM_TURN_DEADLINE_S=1s); circuit opened"
    assert f"planner: {hit}, rules used" in data["notes"]
    assert f"policy: {hit}, offline policy used" in data["notes"]
    assert counted("planner", "deadline") == cut + 1
    assert counted("agent", "deadline") == skipped + 2  # neither agent call was sent
    assert scripted_openai.requests("tools") == []
    assert scripted_openai.requests("text") == []
    assert BREAKERS.state("llm_planner").state == "open"
    assert BREAKERS.state("llm_agent").state == "open", "the hang spent the agent's time too"
    data = (await turn(agent))[-1].data
    assert (data["planner"], data["policy"]) == ("rules", "offline")
    assert len(scripted_openai.requests("plan")) == 1, "the next turn does not wait"


async def test_one_deadline_covers_every_model_call_of_the_turn(
    agent: ShoppingAgent, scripted_openai: ScriptedOpenAI
) -> None:
    scripted_openai.script("plan", structured({"category": "wireless mouse"}))
    scripted_openai.script("tools", hang(120))
    skipped = counted("agent", "deadline")
    with REGISTRY.overridden(LLM_TURN_DEADLINE_S=1.0):
        events = await turn(agent)
    data = events[-1].data
    assert (data["planner"], data["policy"]) == ("llm", "offline")
    assert (
        "policy: llm hit the turn deadline (LLM_TURN_DEADLINE_S=1s); circuit opened, "
        "offline policy used" in data["notes"]
    )
    assert counted("agent", "deadline") == skipped + 2  # the hung call, the summary not sent
    assert scripted_openai.requests("text") == []
    assert data["picks"]
    assert BREAKERS.state("llm_agent").state == "open"
    assert BREAKERS.state("llm_planner").state == "closed", "the planner had answered"


async def test_a_server_refusing_json_schema_keeps_tool_calling_on(
    agent: ShoppingAgent, scripted_openai: ScriptedOpenAI
) -> None:
    scripted_openai.accept_formats = frozenset({"json_object"})
    scripted_openai.refuse_status = 422
    for answer in ("Here are some mice.", "Here are more mice."):
        scripted_openai.script("plan", structured({"category": "wireless mouse"}))
        scripted_openai.script(
            "tools", calls(Call("item_search", {"query": "wireless mouse"})), say(answer)
        )
        events = await turn(agent)
        data = events[-1].data
        assert (data["planner"], data["policy"], data["answer"]) == ("llm", "llm", answer)
        assert events[0].data["planner"] == "llm"
        assert not [n for n in data["notes"] if n.startswith(("planner:", "policy:"))]
    assert len(scripted_openai.refused) == 1
    assert [r.body["response_format"]["type"] for r in scripted_openai.requests("plan")] == [
        "json_object",
        "json_object",
    ]
    assert BREAKERS.state("llm_planner").failures == 0
    assert BREAKERS.state("llm_agent").failures == 0


async def test_an_open_planner_breaker_leaves_the_agent_on(
    agent: ShoppingAgent, scripted_openai: ScriptedOpenAI
) -> None:
    with REGISTRY.overridden(BREAKER_LLM_PLANNER_FAIL_MAX=1):
        scripted_openai.script("plan", fail(500))
        scripted_openai.script("tools", say("Which mouse?"), say("Still: which mouse?"))
        first = await turn(agent, "a mouse")
        second = await turn(agent, "a mouse")
    assert BREAKERS.state("llm_planner").state == "open"
    assert second[0].data["planner"] == "rules"
    assert second[0].data["policy"] == "llm"
    data = second[-1].data
    assert (data["planner"], data["policy"]) == ("rules", "llm")
    assert data["answer"] == "Still: which mouse?"
    assert "planner: llm is off (circuit open), rules used" in data["notes"]
    assert first[-1].data["policy"] == "llm"
    assert len(scripted_openai.requests("plan")) == 1
