"""The planner's structured output against the scripted OpenAI server as local servers behave:
json_schema, json_object with a schema (llama-cpp-python's server), JSON instructions in the
prompt; a refusal is no breaker failure and the accepted form is remembered per model."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from app.config.registry import REGISTRY
from app.recall.breakers import BREAKERS
from app.telemetry import METRICS
from app.tools.base import ToolContext, invoke_tool
from app.tools.llm._openai_chat import PROMPT_SCHEMA_INTRO, OpenAIChatModel
from app.tools.plan.shopping_plan import ShoppingPlan
from app.tools.planner.planner import PlannerResult, PlannerTool
from tests.fakes.scripted_openai import PROMPT_SCHEMA_MARK, Recorded, ScriptedOpenAI, structured

MESSAGES = ["quiet headphones under $80"]
PLAN = {"category": "headphones", "keywords": ["quiet"]}


@pytest.fixture
async def model(scripted_openai: ScriptedOpenAI) -> AsyncIterator[OpenAIChatModel]:
    chat = OpenAIChatModel(scripted_openai.base_url)
    yield chat
    await chat.close()


async def plan(model: OpenAIChatModel) -> PlannerResult:
    outcome = await invoke_tool(PlannerTool(model), {"messages": MESSAGES}, ToolContext("s", "t"))
    assert isinstance(outcome.output, PlannerResult), outcome.output
    return outcome.output


def failures() -> float:
    """Every counted LLM failure so far, any role and reason."""
    return sum(
        sample.value
        for family in METRICS.collect()
        if family.name == "pickwise_llm_failures"
        for sample in family.samples
        if sample.name.endswith("_total")
    )


def formats(requests: list[Recorded]) -> list[str | None]:
    return [(r.body.get("response_format") or {}).get("type") for r in requests]


async def test_json_schema_when_the_server_takes_it(
    scripted_openai: ScriptedOpenAI, model: OpenAIChatModel
) -> None:
    scripted_openai.script("plan", structured(PLAN))
    result = await plan(model)
    assert (result.source, result.plan.category) == ("llm", "headphones")
    (request,) = scripted_openai.requests("plan")
    assert request.body["response_format"]["type"] == "json_schema"
    assert model.structured_forms == {(scripted_openai.base_url, "gpt-4o-mini"): "json_schema"}


@pytest.mark.parametrize("status", [400, 422])
async def test_a_refused_json_schema_falls_to_json_object_and_is_remembered(
    scripted_openai: ScriptedOpenAI, model: OpenAIChatModel, status: int
) -> None:
    scripted_openai.accept_formats = frozenset({"json_object"})
    scripted_openai.refuse_status = status
    scripted_openai.script("plan", structured(PLAN), structured(PLAN))
    before = failures()
    first = await plan(model)
    second = await plan(model)
    assert (first.source, second.source) == ("llm", "llm")
    assert formats(scripted_openai.refused) == ["json_schema"]
    sent = scripted_openai.requests("plan")
    assert formats(sent) == ["json_object", "json_object"]
    assert sent[0].body["response_format"]["schema"] == ShoppingPlan.model_json_schema()
    assert BREAKERS.state("llm_planner").failures == 0
    assert failures() == before


async def test_a_server_refusing_both_formats_gets_json_instructions_in_the_prompt(
    scripted_openai: ScriptedOpenAI, model: OpenAIChatModel
) -> None:
    scripted_openai.accept_formats = frozenset()
    fenced = "```json\n" + json.dumps(PLAN) + "\n```"
    scripted_openai.script("plan", structured(fenced), structured(PLAN))
    first = await plan(model)
    assert (first.source, first.plan.keywords) == ("llm", ("quiet",))
    assert formats(scripted_openai.refused) == ["json_schema", "json_object"]
    (request,) = scripted_openai.requests("plan")
    assert "response_format" not in request.body
    system = request.messages[0]["content"]
    assert PROMPT_SCHEMA_MARK in PROMPT_SCHEMA_INTRO
    assert system.endswith(json.dumps(ShoppingPlan.model_json_schema(), separators=(",", ":")))
    await plan(model)
    assert len(scripted_openai.refused) == 2
    assert BREAKERS.state("llm_planner").failures == 0


async def test_the_prompt_form_is_repaired_once_with_the_validation_error(
    scripted_openai: ScriptedOpenAI, model: OpenAIChatModel
) -> None:
    scripted_openai.accept_formats = frozenset()
    scripted_openai.script("plan", structured("here you go: {"), structured(PLAN))
    result = await plan(model)
    assert result.source == "llm_repaired"
    assert any("attempt 1 invalid" in n for n in result.notes)
    repair = scripted_openai.requests("plan")[1].messages[-1]["content"]
    assert repair.startswith("That JSON does not validate")


async def test_the_form_is_remembered_per_model(
    scripted_openai: ScriptedOpenAI, model: OpenAIChatModel
) -> None:
    scripted_openai.accept_formats = frozenset({"json_object"})
    scripted_openai.script("plan", structured(PLAN), structured(PLAN))
    await plan(model)
    with REGISTRY.overridden(LLM_PLANNER_MODEL="other-model"):
        await plan(model)
    assert formats(scripted_openai.refused) == ["json_schema", "json_schema"]
    url = scripted_openai.base_url
    assert model.structured_forms == {
        (url, "gpt-4o-mini"): "json_object",
        (url, "other-model"): "json_object",
    }
