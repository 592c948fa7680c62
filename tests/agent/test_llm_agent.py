"""The LLM-driven turn on the real index against the scripted OpenAI server (real client,
real HTTP): tool schemas, the autopick hint, a parallel batch, malformed arguments, a real
dependency that is down, the iteration cap, terminal tools, an unknown tool, the search
budget, the planner's repair inside a turn, and the offline policy taking over from a
failed LLM."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from app.agent.chat import ShoppingAgent
from app.agent.events import PickView, TurnEvent
from app.config.registry import REGISTRY
from app.config.settings import Settings
from app.recall._kb_opensearch import OpenSearchKnowledgeBase
from app.recall.category_kb import load_card_index
from app.recall.search_index import SearchIndex
from app.runtime import Runtime
from app.tools.base import tool_json_schema
from app.tools.browse.category_insight import CategoryInsightTool
from app.tools.compare.price_compare import PriceCompareTool
from app.tools.summary._facts import cited_ids
from tests.agent.conftest import open_agent
from tests.agent.events_check import gather_events, of_type, tool_calls
from tests.fakes.scripted_openai import Call, ScriptedOpenAI, calls, echo, fail, say, structured

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300), pytest.mark.asyncio(loop_scope="module")]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def opened(
    built_index: Settings,
    agent_index: SearchIndex,
    compare_tool: PriceCompareTool,
    scripted_openai_server: ScriptedOpenAI,
) -> AsyncIterator[tuple[Runtime, ShoppingAgent]]:
    base_url = scripted_openai_server.base_url
    settings = built_index.model_copy(update={"openai_base_url": base_url})
    async with open_agent(settings, agent_index, compare_tool) as pair:
        yield pair


@pytest.fixture(scope="module")
def agent(opened: tuple[Runtime, ShoppingAgent]) -> ShoppingAgent:
    return opened[1]


def plan(**fields: Any) -> Any:
    return structured(fields)


async def turn(
    agent: ShoppingAgent, message: str, session_id: str | None = None
) -> list[TurnEvent]:
    return await gather_events(agent.run_turn(session_id, message))


def tool_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in messages if m["role"] == "tool"]


def picks_of(events: list[TurnEvent]) -> list[PickView]:
    return [PickView.model_validate(p) for p in events[-1].data["picks"]]


async def test_tool_calls_autopick_and_a_written_summary(
    opened: tuple[Runtime, ShoppingAgent], scripted_openai: ScriptedOpenAI
) -> None:
    runtime, agent = opened
    scripted_openai.script("plan", plan(category="wireless mouse", budget_usd=999))
    scripted_openai.script(
        "tools",
        calls(Call("item_search", {"query": "wireless mouse"})),
        calls(Call("shopping_summary", {})),
    )
    scripted_openai.script("text", echo("Happy shopping!\n"))
    events = await turn(agent, "a wireless mouse under $25")
    done = events[-1].data
    assert (done["mode"], done["planner"], done["policy"]) == ("llm", "llm", "llm")
    assert done["plan_source"] == "llm"
    assert done["plan"]["budget_usd"] == 25.0
    first, second = scripted_openai.requests("tools")
    offered = {t["function"]["name"]: t for t in first.body["tools"]}
    assert set(offered) == set(runtime.tools) - {"planner"}
    for name, schema in offered.items():
        assert schema == tool_json_schema(runtime.tools[name])
    assert first.messages[0]["role"] == "system"
    assert '"budget_usd":25.0' in first.messages[0]["content"]
    assert runtime.index.facets.brief() in first.messages[0]["content"]
    (planner_call,) = scripted_openai.requests("plan")
    assert runtime.index.facets.brief() in planner_call.messages[0]["content"]
    assert first.messages[1:] == [{"role": "user", "content": "a wireless mouse under $25"}]
    (search_result,) = tool_messages(second.messages)
    assert search_result["tool_call_id"] == "call_1"
    assert search_result["content"].startswith('item_search "wireless mouse"')
    hint = second.messages[-1]
    assert hint["role"] == "user"
    assert hint["content"].startswith("[autopick] autopick ran price_compare and item_picker")
    assert {c["tool"]: c["by"] for c in tool_calls(events)} == {
        "item_search": "model",
        "price_compare": "autopick",
        "item_picker": "autopick",
        "shopping_summary": "model",
    }
    picks = picks_of(events)
    assert picks
    assert all(p.price_usd is not None and p.price_usd <= 25.0 for p in picks)
    assert done["answer"].startswith("Happy shopping!\nHere are my")
    assert set(cited_ids(done["answer"])) >= {p.item_id for p in picks}
    assert [t["stage"] for t in done["trace"]][:3] == ["planner", "harness.autopick", "model.1"]

    scripted_openai.script("plan", plan(is_shopping=False))
    scripted_openai.script("tools", say("You're welcome!"))
    later = await turn(agent, "thanks!", events[0].session_id)
    assert later[-1].data["answer"] == "You're welcome!"
    third = scripted_openai.requests("tools")[-1]
    assert "Picks of the previous turn:" in third.messages[0]["content"]
    assert f"[{picks[0].item_id}]" in third.messages[0]["content"]
    assert third.messages[1:] == [
        {"role": "user", "content": "a wireless mouse under $25"},
        {"role": "assistant", "content": done["answer"]},
        {"role": "user", "content": "thanks!"},
    ]


async def test_a_batch_of_searches_runs_together_and_autopick_picks_every_slot(
    agent: ShoppingAgent, scripted_openai: ScriptedOpenAI
) -> None:
    scripted_openai.script(
        "plan",
        plan(
            category="laptop",
            bundle=[
                {"slot": "laptop", "category": "laptop"},
                {"slot": "mouse", "category": "mouse"},
            ],
        ),
    )
    scripted_openai.script(
        "tools",
        calls(
            Call("item_search", {"query": "laptop", "slot": "laptop"}),
            Call("item_search", {"query": "wireless mouse", "slot": "mouse"}),
        ),
        calls(Call("shopping_summary", {})),
    )
    scripted_openai.script("text", echo())
    events = await turn(agent, "a laptop and a mouse")
    search_events = [
        (e.type, e.data["call_id"])
        for e in events
        if e.type.startswith("tool_") and e.data["tool"] == "item_search"
    ]
    assert search_events == [
        ("tool_start", "call_1"),
        ("tool_start", "call_2"),
        ("tool_end", "call_1"),
        ("tool_end", "call_2"),
    ]
    second = scripted_openai.requests("tools")[1]
    results = tool_messages(second.messages)
    assert [m["tool_call_id"] for m in results] == ["call_1", "call_2"]
    assert 'for slot "laptop"' in results[0]["content"]
    assert 'for slot "mouse"' in results[1]["content"]
    assert "item_picker laptop:" in second.messages[-1]["content"]
    assert "item_picker mouse:" in second.messages[-1]["content"]
    answer = events[-1].data["answer"]
    assert "Laptop:" in answer
    assert "Mouse:" in answer


async def test_malformed_arguments_go_back_to_the_model_as_structured_errors(
    agent: ShoppingAgent, scripted_openai: ScriptedOpenAI
) -> None:
    scripted_openai.script("plan", plan(category="mouse"))
    scripted_openai.script(
        "tools",
        calls(
            Call("item_search", '{"query": "mouse"'),
            Call("item_search", {"query": "mouse", "top_k": 0, "colour": "red"}),
        ),
        say("Which kind of mouse would you like?"),
    )
    events = await turn(agent, "a mouse")
    assert events[-1].data["answer"] == "Which kind of mouse would you like?"
    broken, invalid = (
        json.loads(m["content"])
        for m in tool_messages(scripted_openai.requests("tools")[1].messages)
    )
    assert broken["ok"] is False
    assert broken["code"] == "invalid_arguments"
    assert "not valid JSON" in broken["message"]
    assert invalid["code"] == "invalid_arguments"
    assert invalid["retry"] is True
    assert {e["field"] for e in invalid["details"]["errors"]} == {"top_k", "colour"}
    ends = tool_calls(events)
    assert [(c["tool"], c["ok"], c["code"]) for c in ends] == [
        ("item_search", False, "invalid_arguments"),
        ("item_search", False, "invalid_arguments"),
    ]
    assert of_type(events, "picks") == []


async def test_a_dependency_down_is_noted_not_retried_and_told(
    opened: tuple[Runtime, ShoppingAgent], built_index: Settings, scripted_openai: ScriptedOpenAI
) -> None:
    runtime, agent = opened
    cards = load_card_index(built_index, runtime.index)
    kb = OpenSearchKnowledgeBase.connect("http://127.0.0.1:1", cards, runtime.index.embedder)
    agent.tools["category_insight"] = CategoryInsightTool(kb)
    scripted_openai.script("plan", plan(category="mouse"))
    scripted_openai.script(
        "tools",
        calls(Call("category_insight", {"query": "mouse"})),
        calls(Call("category_insight", {"query": "computer mouse"})),
        say("Our category guide is unavailable right now, sorry."),
    )
    try:
        events = await turn(agent, "what kinds of mouse are there?")
    finally:
        del agent.tools["category_insight"]
        await kb.close()
    first, again = (
        tool_messages(r.messages)[-1]["content"] for r in scripted_openai.requests("tools")[1:]
    )
    assert '"code":"dependency_down"' in first
    assert "NOTE: opensearch is unavailable right now. Do not call category_insight again" in first
    assert "Tell the shopper plainly" in first
    assert "unavailable this turn" in again
    assert [c["code"] for c in tool_calls(events)] == ["dependency_down", "dependency_down"]
    assert events[-1].data["answer"] == "Our category guide is unavailable right now, sorry."


async def test_the_iteration_cap_ends_the_turn_with_a_summary(
    agent: ShoppingAgent, scripted_openai: ScriptedOpenAI
) -> None:
    scripted_openai.script("plan", plan(category="wireless mouse"))
    scripted_openai.script(
        "tools",
        calls(Call("item_search", {"query": "mouse"})),
        calls(Call("item_search", {"query": "wireless mouse"})),
    )
    scripted_openai.script("text", echo())
    with REGISTRY.overridden(AGENT_MAX_ITERATIONS=2):
        events = await turn(agent, "a wireless mouse")
    assert len(scripted_openai.requests("tools")) == 2
    done = events[-1].data
    assert "stopped after 2 model calls" in done["notes"]
    summary = tool_calls(events)[-1]
    assert (summary["tool"], summary["by"]) == ("shopping_summary", "agent")
    assert [c["by"] for c in tool_calls(events, "item_picker")] == ["autopick", "autopick"]
    assert set(cited_ids(done["answer"])) >= {p.item_id for p in picks_of(events)}


async def test_chat_fallback_ends_the_turn_after_a_repaired_plan(
    agent: ShoppingAgent, scripted_openai: ScriptedOpenAI
) -> None:
    scripted_openai.script("plan", structured("{oops"), plan(is_shopping=False))
    scripted_openai.script("tools", calls(Call("chat_fallback", {"message": "tell me a joke"})))
    scripted_openai.script("text", say("I'm better at shopping than jokes. What do you need?"))
    events = await turn(agent, "tell me a joke")
    assert events[-1].data["plan_source"] == "llm_repaired"
    assert len(scripted_openai.requests("tools")) == 1
    assert [(c["tool"], c["by"]) for c in tool_calls(events)] == [("chat_fallback", "model")]
    assert events[-1].data["answer"] == "I'm better at shopping than jokes. What do you need?"


async def test_an_unknown_tool_is_an_error_result_and_invented_ids_leave_the_answer(
    agent: ShoppingAgent, scripted_openai: ScriptedOpenAI
) -> None:
    scripted_openai.script("plan", plan(category="mouse"))
    scripted_openai.script(
        "tools",
        calls(Call("teleport", {"to": "mars"})),
        say("I can't teleport.\nBut [amazon:deadbeef0000] is a great mouse."),
    )
    events = await turn(agent, "teleport me a mouse")
    (result,) = tool_messages(scripted_openai.requests("tools")[1].messages)
    error = json.loads(result["content"])
    assert error["code"] == "unknown_tool"
    assert "item_search" in error["message"]
    assert events[-1].data["answer"] == "I can't teleport."
    assert any("amazon:deadbeef0000" in n for n in events[-1].data["notes"])


async def test_searches_past_the_turn_budget_are_refused(
    agent: ShoppingAgent, scripted_openai: ScriptedOpenAI
) -> None:
    scripted_openai.script("plan", plan(category="mouse"))
    scripted_openai.script(
        "tools",
        calls(
            Call("item_search", {"query": "mouse"}),
            Call("item_search", {"query": "keyboard", "slot": "keyboard"}),
        ),
        calls(Call("shopping_summary", {})),
    )
    scripted_openai.script("text", echo())
    with REGISTRY.overridden(AGENT_MAX_SEARCHES_PER_TURN=1):
        events = await turn(agent, "a mouse")
    codes = [c.get("code") for c in tool_calls(events, "item_search")]
    assert codes == [None, "search_limit"]
    refused = tool_messages(scripted_openai.requests("tools")[1].messages)[1]
    assert json.loads(refused["content"])["code"] == "search_limit"
    assert events[-1].type == "done"


async def test_a_failing_llm_hands_the_turn_to_the_offline_policy(
    agent: ShoppingAgent, scripted_openai: ScriptedOpenAI
) -> None:
    scripted_openai.script("plan", plan(category="wireless mouse"))
    scripted_openai.script("tools", fail(503))
    scripted_openai.script("text", fail(503))
    events = await turn(agent, "a wireless mouse under $25")
    done = events[-1].data
    assert (done["mode"], done["planner"], done["policy"]) == ("offline", "llm", "offline")
    assert "policy: llm answered HTTP 503, offline policy used" in done["notes"]
    assert events[0].data["policy"] == "llm"
    assert tool_calls(events, "item_search")[0]["by"] == "policy"
    assert done["answer"].startswith("Here are my") or done["answer"].startswith("Here is my")
    assert set(cited_ids(done["answer"])) >= {p.item_id for p in picks_of(events)}
