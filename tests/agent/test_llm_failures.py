"""Every way the LLM can fail, against the scripted OpenAI server (or a closed port): each is a
`DependencyDown` of the role's breaker (`llm_planner` or `llm_agent`, never both), counted
there and in `pickwise_llm_failures_total{role,reason}`, and the planner falls back to the
rules with a short note. The turn's deadline cuts a hanging call and skips later ones; a
hang it cut opens the breakers of the roles the turn was waiting on."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from app.config.registry import REGISTRY
from app.errors import BadReply, DependencyDown
from app.recall.breakers import BREAKERS
from app.telemetry import METRICS
from app.tools.base import ToolContext, invoke_tool
from app.tools.llm._openai_chat import OpenAIChatModel
from app.tools.llm.llm import turn_deadline
from app.tools.plan.planner_rules import plan_from_text
from app.tools.planner.planner import PlannerResult, PlannerTool
from tests.fakes.scripted_openai import Reply, ScriptedOpenAI, fail, hang, raw, structured

MESSAGES = ["a wireless mouse under $25"]
CLOSED_PORT = "http://127.0.0.1:1/v1"


@pytest.fixture
async def model(scripted_openai: ScriptedOpenAI) -> AsyncIterator[OpenAIChatModel]:
    chat = OpenAIChatModel(scripted_openai.base_url)
    yield chat
    await chat.close()


def counted(role: str, reason: str) -> float:
    value = METRICS.get_sample_value(
        "pickwise_llm_failures_total", {"role": role, "reason": reason}
    )
    return value or 0.0


async def plan(model: OpenAIChatModel) -> PlannerResult:
    outcome = await invoke_tool(PlannerTool(model), {"messages": MESSAGES}, ToolContext("s", "t"))
    assert isinstance(outcome.output, PlannerResult), outcome.output
    return outcome.output


BAD_REPLIES: list[tuple[str, list[Reply], str, str]] = [
    ("http 500", [fail(500)], "http_5xx", "answered HTTP 500"),
    ("html page", [raw("<html>oops</html>", media_type="text/html")], "malformed", "not JSON"),
    ("a JSON string", [raw('"hello"')], "malformed", "a JSON str"),
    ("no choices list", [raw('{"id": "x"}')], "malformed", "no choices list"),
    ("empty choices", [raw('{"choices": []}')], "empty", "no choices"),
    ("no message", [raw('{"choices": [{"index": 0}]}')], "empty", "no message"),
    ("empty content", [structured("")], "empty", "no text"),
    (
        "never valid",
        [structured("{"), structured('{"bundle": [{}]}')],
        "invalid_output",
        "did not validate after 1 repair",
    ),
]


@pytest.mark.parametrize(
    ("replies", "reason", "words"),
    [case[1:] for case in BAD_REPLIES],
    ids=[case[0] for case in BAD_REPLIES],
)
async def test_an_unusable_planner_reply_counts_and_leaves_the_plan_to_the_rules(
    scripted_openai: ScriptedOpenAI,
    model: OpenAIChatModel,
    replies: list[Reply],
    reason: str,
    words: str,
) -> None:
    scripted_openai.script("plan", *replies)
    before = counted("planner", reason)
    result = await plan(model)
    assert result.source == "rules"
    assert result.plan == plan_from_text(MESSAGES)
    (note,) = [n for n in result.notes if n.startswith("planner: ")]
    assert words in note
    assert note.endswith(", rules used")
    assert counted("planner", reason) == before + 1
    assert BREAKERS.state("llm_planner").failures == 1
    assert BREAKERS.state("llm_agent").failures == 0


async def test_a_refused_connection_is_a_planner_failure() -> None:
    model = OpenAIChatModel(CLOSED_PORT)
    before = counted("planner", "connection")
    try:
        result = await plan(model)
    finally:
        await model.close()
    assert result.notes == ["planner: llm could not be reached, rules used"]
    assert counted("planner", "connection") == before + 1
    assert BREAKERS.state("llm_planner").failures == 1


async def test_three_failures_open_the_planner_breaker_only(
    scripted_openai: ScriptedOpenAI, model: OpenAIChatModel
) -> None:
    scripted_openai.script("plan", fail(500), fail(500), fail(500))
    scripted_openai.script("text", structured("Hello!"))
    for _ in range(3):
        await plan(model)
    assert BREAKERS.state("llm_planner").state == "open"
    before = counted("planner", "circuit_open")
    result = await plan(model)
    assert result.notes == ["planner: llm is off (circuit open), rules used"]
    assert counted("planner", "circuit_open") == before + 1
    assert len(scripted_openai.requests("plan")) == 3
    reply = await model.chat([{"role": "user", "content": "hi"}])
    assert reply.content == "Hello!"
    assert BREAKERS.state("llm_agent").state == "closed"


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (raw("not json at all"), "malformed"),
        (raw('{"choices": []}'), "empty"),
        (structured(""), "empty"),
        (fail(502), "http_5xx"),
    ],
)
async def test_an_unusable_agent_reply_counts_on_the_agent_breaker(
    scripted_openai: ScriptedOpenAI, model: OpenAIChatModel, reply: Reply, reason: str
) -> None:
    scripted_openai.script("text", reply)
    before = counted("agent", reason)
    with pytest.raises(DependencyDown) as raised:
        await model.chat([{"role": "user", "content": "hi"}])
    assert raised.value.name == "llm_agent"
    assert raised.value.kind == reason
    assert isinstance(raised.value, BadReply) == (reason != "http_5xx")
    assert counted("agent", reason) == before + 1
    assert BREAKERS.state("llm_agent").failures == 1
    assert BREAKERS.state("llm_planner").failures == 0


async def test_a_hang_cut_by_the_turn_deadline_opens_both_roles_at_once(
    scripted_openai: ScriptedOpenAI, model: OpenAIChatModel
) -> None:
    scripted_openai.script("plan", hang(60))
    cut, skipped = counted("planner", "deadline"), counted("agent", "deadline")
    with turn_deadline(1.0):
        result = await plan(model)
        with pytest.raises(DependencyDown) as raised:
            await model.chat([{"role": "user", "content": "hi"}])
    assert result.source == "rules"
    assert result.notes == [
        "planner: llm hit the turn deadline (LLM_TURN_DEADLINE_S=1s); circuit opened, rules used"
    ]
    assert raised.value.kind == "deadline"
    assert raised.value.reason.endswith("; circuit opened")
    assert counted("planner", "deadline") == cut + 1
    assert counted("agent", "deadline") == skipped + 1
    assert BREAKERS.state("llm_planner").state == "open"
    assert BREAKERS.state("llm_agent").state == "open", "the agent was waiting too"
    assert scripted_openai.requests("text") == []


async def test_without_opening_at_once_each_hung_turn_counts_once_per_waiting_role(
    scripted_openai: ScriptedOpenAI, model: OpenAIChatModel
) -> None:
    with REGISTRY.overridden(LLM_HANG_OPENS_BREAKERS=False):
        for n in range(1, 4):
            scripted_openai.script("plan", hang(60))
            with turn_deadline(0.4):
                await plan(model)
                for _ in range(2):  # the loop's call and the summary writer's, both unsent
                    with pytest.raises(DependencyDown):
                        await model.chat([{"role": "user", "content": "hi"}])
            states = BREAKERS.state("llm_planner"), BREAKERS.state("llm_agent")
            if n < 3:
                assert [b.failures for b in states] == [n, n]
    assert [b.state for b in states] == ["open", "open"], "fail_max (3) hung turns open both"
    assert scripted_openai.requests("text") == []


async def test_a_call_cut_after_a_short_wait_is_no_hang_and_charges_no_other_role(
    scripted_openai: ScriptedOpenAI, model: OpenAIChatModel
) -> None:
    scripted_openai.script("plan", hang(60))
    with turn_deadline(1.0):
        await asyncio.sleep(0.7)  # the turn's own work spent most of the deadline
        result = await plan(model)
        with pytest.raises(DependencyDown) as raised:
            await model.chat([{"role": "user", "content": "hi"}])
    assert result.notes == [
        "planner: llm hit the turn deadline (LLM_TURN_DEADLINE_S=1s), rules used"
    ]
    assert not raised.value.reason.endswith("circuit opened")
    assert BREAKERS.state("llm_planner").failures == 1
    assert BREAKERS.state("llm_planner").state == "closed"
    assert BREAKERS.state("llm_agent").failures == 0


async def test_without_a_deadline_a_hang_is_the_calls_own_timeout(
    scripted_openai: ScriptedOpenAI, model: OpenAIChatModel
) -> None:
    scripted_openai.script("plan", hang(60))
    before = counted("planner", "timeout")
    with REGISTRY.overridden(LLM_TIMEOUT_S=0.5):
        result = await plan(model)
    assert result.notes == ["planner: llm timed out, rules used"]
    assert counted("planner", "timeout") == before + 1
