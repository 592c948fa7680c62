"""`GET /metrics` on a real app after real turns: every listed family is exposed, and the
observations move by what the turn did (tools, recall sources, cache, LLM tokens and
errors, a DependencyDown through invoke_tool, the parameter version)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, ClassVar

import httpx
import pytest
import pytest_asyncio
import redis
from fastapi import FastAPI
from fastapi.responses import StreamingResponse
from prometheus_client.parser import text_string_to_metric_families
from pydantic import BaseModel

from app.agent.events import TurnEvent
from app.api import metrics
from app.api._sse import encode_event
from app.api.app import create_app
from app.api.metrics import CHAT_PATH
from app.config.registry import REGISTRY
from app.config.settings import Settings
from app.errors import DependencyDown
from app.recall.breakers import BREAKERS
from app.recall.search_index import SearchIndex
from app.runtime import Runtime
from app.tools.base import ToolContext, ToolResult, invoke_tool
from tests.admin.conftest import REDIS_URL
from tests.api.conftest import serving
from tests.fakes.scripted_openai import Call, ScriptedOpenAI, calls, fail, say

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module")]

FAMILIES = {
    "pickwise_http_requests": "counter",
    "pickwise_http_request_duration_seconds": "histogram",
    "pickwise_turn_duration_seconds": "histogram",
    "pickwise_tool_duration_seconds": "histogram",
    "pickwise_dependency_down": "counter",
    "pickwise_recall_source_duration_seconds": "histogram",
    "pickwise_search_cache_lookups": "counter",
    "pickwise_search_cache_l2_errors": "counter",
    "pickwise_breaker_state": "gauge",
    "pickwise_breaker_failures": "gauge",
    "pickwise_turns_in_flight": "gauge",
    "pickwise_turns_refused": "counter",
    "pickwise_llm_request_duration_seconds": "histogram",
    "pickwise_llm_tokens": "counter",
    "pickwise_llm_errors": "counter",
    "pickwise_llm_failures": "counter",
    "pickwise_params_version": "gauge",
    "pickwise_params_overrides": "gauge",
    "pickwise_params_refresh_failures": "counter",
}

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(
    built_index: Settings,
    admin_index: SearchIndex,
    redis_db: redis.Redis,
    restored_registry: None,
    scripted_openai_server: ScriptedOpenAI,
) -> AsyncIterator[httpx.AsyncClient]:
    settings = built_index.model_copy(
        update={"redis_url": REDIS_URL, "openai_base_url": scripted_openai_server.base_url}
    )
    app = create_app(settings, runtime=Runtime(settings, index=admin_index))
    async with serving(app) as c:
        yield c


async def scrape(client: httpx.AsyncClient) -> tuple[dict[str, str], Samples]:
    response = await client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    kinds: dict[str, str] = {}
    samples: Samples = {}
    for family in text_string_to_metric_families(response.text):
        kinds[family.name] = family.type
        for s in family.samples:
            samples[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return kinds, samples


def total(samples: Samples, name: str, **labels: str) -> float:
    """Sum of the samples of `name` whose labels include `labels`."""
    want = set(labels.items())
    return sum(v for (n, ls), v in samples.items() if n == name and want <= set(ls))


def moved(before: Samples, after: Samples, name: str, **labels: str) -> float:
    return total(after, name, **labels) - total(before, name, **labels)


class _Args(BaseModel):
    pass


class _DownTool:
    name: ClassVar[str] = "down_tool"
    description: ClassVar[str] = "always finds its dependency down"
    args_model: ClassVar[type[BaseModel]] = _Args
    concurrency_safe: ClassVar[bool] = True
    terminal: ClassVar[bool] = False

    async def run(self, args: Any, ctx: ToolContext) -> ToolResult:
        raise DependencyDown("qdrant", "connection refused")


async def test_every_family_is_exposed_and_moves_with_a_turn(
    client: httpx.AsyncClient, scripted_openai: ScriptedOpenAI
) -> None:
    _, before = await scrape(client)
    scripted_openai.script("plan", fail(500))
    scripted_openai.script(
        "tools", calls(Call("item_search", {"query": "wireless mouse"})), say("Done.")
    )
    turn = await client.post("/v1/chat?stream=false", json={"message": "a wireless mouse"})
    assert turn.status_code == 200, turn.text
    streamed = await client.post("/v1/chat", json={"message": "   "})
    assert streamed.status_code == 422
    await invoke_tool(_DownTool(), {}, ToolContext("s-metrics", "t-metrics"))

    kinds, after = await scrape(client)
    for name, kind in FAMILIES.items():
        assert kinds.get(name) == kind, name

    count = "pickwise_tool_duration_seconds_count"
    assert moved(before, after, count, tool="item_search", outcome="ok") == 1
    assert moved(before, after, count, tool="item_picker", outcome="ok") == 1
    assert moved(before, after, count, tool="down_tool", outcome="dependency_down") == 1
    assert (
        moved(
            before, after, "pickwise_dependency_down_total", tool="down_tool", dependency="qdrant"
        )
        == 1
    )
    for source in ("dense", "bm25"):
        assert (
            moved(before, after, "pickwise_recall_source_duration_seconds_count", source=source)
            >= 1
        )
    assert moved(before, after, "pickwise_search_cache_lookups_total") >= 1
    assert moved(before, after, "pickwise_llm_tokens_total", kind="prompt") == 2
    assert moved(before, after, "pickwise_llm_tokens_total", kind="completion") == 2
    assert moved(before, after, "pickwise_llm_request_duration_seconds_count") == 2
    assert moved(before, after, "pickwise_llm_errors_total", reason="InternalServerError") == 1
    failed = "pickwise_llm_failures_total"
    assert moved(before, after, failed, role="planner", reason="http_5xx") == 1
    assert moved(before, after, failed, role="agent") == 0
    assert moved(before, after, "pickwise_turn_duration_seconds_count", outcome="ok") == 1
    assert moved(before, after, "pickwise_http_requests_total", route="/v1/chat", status="422") == 1

    for breaker in BREAKERS.names:
        states = {
            dict(labels)["state"]: value
            for (name, labels), value in after.items()
            if name == "pickwise_breaker_state" and dict(labels)["dependency"] == breaker
        }
        assert sorted(states) == ["closed", "half-open", "open"]
        assert sum(states.values()) == 1
    assert total(after, "pickwise_params_version") == REGISTRY.version


async def test_a_stream_ending_with_an_error_event_is_a_failed_turn() -> None:
    app = FastAPI()
    metrics.install(app)

    async def body() -> AsyncIterator[bytes]:
        for n, kind in enumerate(("session", "error")):
            yield encode_event(TurnEvent(type=kind, turn_id="t1", session_id="s1", data={}), n)

    @app.post(CHAT_PATH)
    async def chat() -> StreamingResponse:
        return StreamingResponse(body(), media_type="text/event-stream")

    async with serving(app) as plain:
        _, before = await scrape(plain)
        response = await plain.post(CHAT_PATH, json={})
        assert "event: error" in response.text
        _, after = await scrape(plain)
    assert moved(before, after, "pickwise_turn_duration_seconds_count", outcome="error") == 1
    assert moved(before, after, "pickwise_turn_duration_seconds_count", outcome="ok") == 0
