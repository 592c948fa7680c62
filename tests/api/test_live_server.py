"""The API over real HTTP (uvicorn on loopback) with a scripted agent: the SSE stream read
as it arrives, and a client that disconnects mid-turn cancelling the agent's turn."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from app.api.app import create_app
from app.config.settings import Settings
from app.recall.search_index import SearchIndex
from app.runtime import Runtime
from tests.api import scripted_agent as script
from tests.api.live_server import live_server
from tests.api.sse import iter_sse

pytestmark = pytest.mark.slow


@pytest.fixture
def agent() -> script.ScriptedAgent:
    return script.ScriptedAgent()


@pytest.fixture
def base_url(
    api_settings: Settings, shared_index: SearchIndex, agent: script.ScriptedAgent
) -> Iterator[str]:
    runtime = Runtime(api_settings, index=shared_index)
    with live_server(create_app(api_settings, agent=agent, runtime=runtime)) as url:
        yield url


async def test_sse_over_real_http(base_url: str) -> None:
    async with (
        httpx.AsyncClient(base_url=base_url, timeout=60) as client,
        client.stream("POST", "/v1/chat", json={"message": "usb hub"}) as response,
    ):
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        assert response.headers["cache-control"] == "no-cache"
        events = [m async for m in iter_sse(response.aiter_lines())]
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
    assert len({e.data["turn_id"] for e in events}) == 1
    assert events[-1].data["data"]["answer"] == "Here is usb hub."
    assert response.headers["x-turn-id"] == events[0].data["turn_id"]


async def test_client_disconnect_cancels_the_turn(
    base_url: str, agent: script.ScriptedAgent
) -> None:
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:
        async with client.stream("POST", "/v1/chat", json={"message": script.HANG}) as response:
            seen = []
            async for message in iter_sse(response.aiter_lines()):
                seen.append(message.event)
                if message.event == "tool_start":
                    break
        assert seen == ["session", "plan", "tool_start"]
        assert agent.started.is_set()
        assert agent.cancelled.wait(timeout=30), "the agent's turn was not cancelled"
        after = await client.post("/v1/chat?stream=false", json={"message": "usb hub"})
    assert after.status_code == 200
    assert after.json()["answer"] == "Here is usb hub."
