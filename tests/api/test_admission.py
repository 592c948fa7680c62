"""Admission control over HTTP (in-process, a gated agent): turns beyond the per-worker bound
are refused at once with 429 and `Retry-After`, never queued; room frees when a turn ends;
an overload met before the first event is a 429, after it an `error` event that says so."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import httpx
import pytest
import pytest_asyncio

from app.agent._session_stores import MemorySessionStore
from app.agent.events import EventType, TurnEvent
from app.api.app import create_app
from app.config.registry import REGISTRY
from app.config.settings import Settings
from app.errors import Overloaded
from app.recall.search_index import SearchIndex
from app.runtime import Runtime
from tests.api.conftest import serving
from tests.api.sse import parse_sse

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module")]

HOLD, BUSY_BEFORE, BUSY_MIDWAY = "hold", "busy before", "busy midway"


class GatedAgent:
    """Answers at once, except `hold` turns, which wait until `release` is set."""

    def __init__(self) -> None:
        self.sessions = MemorySessionStore()
        self.release = asyncio.Event()
        self.holding = 0

    async def run_turn(self, session_id: str | None, message: str) -> AsyncIterator[TurnEvent]:
        if message == BUSY_BEFORE:
            raise Overloaded("no free connection", retry_after_s=2)
        sid, turn = session_id or uuid.uuid4().hex, uuid.uuid4().hex[:16]

        def event(type_: EventType, **data: object) -> TurnEvent:
            return TurnEvent(type=type_, turn_id=turn, session_id=sid, data=data)

        yield event("session", new=True)
        if message == BUSY_MIDWAY:
            raise Overloaded("no free connection", retry_after_s=2)
        if message == HOLD:
            self.holding += 1
            try:
                await self.release.wait()
            finally:
                self.holding -= 1
        yield event("message_delta", text="ok")
        yield event("done", answer="ok", picks=[], plan={}, trace=[])


@pytest.fixture(scope="module")
def agent() -> GatedAgent:
    return GatedAgent()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(
    api_settings: Settings, shared_index: SearchIndex, agent: GatedAgent
) -> AsyncIterator[httpx.AsyncClient]:
    settings = api_settings.model_copy(update={"redis_url": None})
    app = create_app(settings, agent=agent, runtime=Runtime(settings, index=shared_index))
    async with serving(app) as c:
        yield c


async def until(condition: object, what: str) -> None:
    for _ in range(500):
        if callable(condition) and condition():
            return
        await asyncio.sleep(0.01)
    pytest.fail(f"never happened: {what}")


async def test_turns_beyond_the_bound_are_refused_with_retry_after(
    client: httpx.AsyncClient, agent: GatedAgent
) -> None:
    agent.release.clear()
    with REGISTRY.overridden(API_MAX_TURNS_IN_FLIGHT=2, API_RETRY_AFTER_S=3):
        held = [asyncio.create_task(client.post("/v1/chat", json={"message": HOLD}))]
        held.append(
            asyncio.create_task(client.post("/v1/chat?stream=false", json={"message": HOLD}))
        )
        await until(lambda: agent.holding == 2, "two turns in flight")
        for stream in ("true", "false"):
            refused = await client.post(f"/v1/chat?stream={stream}", json={"message": "x"})
            assert refused.status_code == 429
            assert refused.headers["retry-after"] == "3"
            error = refused.json()["error"]
            assert (error["code"], error["retry_after_s"]) == ("overloaded", 3)
        health = await client.get("/healthz")
        admission = health.json()["components"]["admission"]
        assert (admission["in_flight"], admission["limit"]) == (2, 2)
        assert admission["refused"] >= 2
        assert (await client.get("/v1/sessions/unknown")).status_code == 404, "only turns count"
        scraped = (await client.get("/metrics")).text.splitlines()
        assert "pickwise_turns_in_flight 2.0" in scraped
        refused_total = [
            line for line in scraped if line.startswith("pickwise_turns_refused_total")
        ]
        assert float(refused_total[0].split()[-1]) >= 2
        agent.release.set()
        answered = await asyncio.gather(*held)
        assert [r.status_code for r in answered] == [200, 200]
        again = await client.post("/v1/chat?stream=false", json={"message": "x"})
        assert again.status_code == 200, again.text
    health = (await client.get("/healthz")).json()["components"]["admission"]
    assert health["in_flight"] == 0


async def test_a_refused_turn_leaves_no_slot_taken(client: httpx.AsyncClient) -> None:
    with REGISTRY.overridden(API_MAX_TURNS_IN_FLIGHT=1):
        for _ in range(3):
            response = await client.post("/v1/chat?stream=false", json={"message": "x"})
            assert response.status_code == 200
        bad = await client.post("/v1/chat", json={"message": ""})
        assert bad.status_code == 422
        assert (await client.post("/v1/chat", json={"message": "x"})).status_code == 200


async def test_an_overload_before_the_first_event_is_a_429(client: httpx.AsyncClient) -> None:
    for stream in ("true", "false"):
        response = await client.post(f"/v1/chat?stream={stream}", json={"message": BUSY_BEFORE})
        assert response.status_code == 429
        assert response.headers["retry-after"] == "2"
        assert response.json()["error"]["code"] == "overloaded"


async def test_an_overload_after_streaming_began_is_an_error_event(
    client: httpx.AsyncClient,
) -> None:
    response = await client.post("/v1/chat", json={"message": BUSY_MIDWAY})
    assert response.status_code == 200
    events = parse_sse(response.text)
    assert [e.event for e in events] == ["session", "error"]
    error = events[-1].data["data"]
    assert (error["code"], error["retry_after_s"]) == ("overloaded", 2)
    whole = await client.post("/v1/chat?stream=false", json={"message": BUSY_MIDWAY})
    assert whole.status_code == 429
    assert whole.headers["retry-after"] == "2"
