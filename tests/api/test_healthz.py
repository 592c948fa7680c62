"""`/healthz` on the real index and Redis: every component's report, degraded (200) when the
search cache loses Redis, down (503) when the vector store or a critical breaker is."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from app.api.app import create_app
from app.config.params.api import API_MAX_TURNS_IN_FLIGHT
from app.config.settings import Settings
from app.recall.breakers import BREAKERS
from app.recall.search_index import SearchIndex
from app.recall.vector_store import open_vector_store
from app.runtime import Runtime
from tests.api.conftest import serving
from tests.api.live_server import free_port
from tests.api.scripted_agent import ScriptedAgent

pytestmark = pytest.mark.slow

COMPONENTS = {
    "index",
    "vector_store",
    "lexical_store",
    "search_cache",
    "session_store",
    "reranker",
    "llm",
    "breakers",
    "admission",
}


async def healthz(settings: Settings, index: SearchIndex) -> httpx.Response:
    app = create_app(settings, agent=ScriptedAgent(), runtime=Runtime(settings, index=index))
    async with serving(app) as client:
        return await client.get("/healthz")


@pytest.fixture
async def closed_breakers() -> AsyncIterator[None]:
    BREAKERS.reset()
    yield
    BREAKERS.reset()


async def test_every_component_reports(api_settings: Settings, shared_index: SearchIndex) -> None:
    response = await healthz(api_settings, shared_index)
    assert response.status_code == 200, response.text
    report = response.json()
    parts: dict[str, Any] = report["components"]
    reranker = parts["reranker"]
    assert report["status"] == ("ok" if reranker["available"] else "degraded")
    assert ("model" if reranker["available"] else "error") in reranker
    assert set(parts) == COMPONENTS
    current = (api_settings.index_dir / "CURRENT").read_text().strip()
    manifest = json.loads((api_settings.index_dir / current / "manifest.json").read_text())
    assert parts["index"]["version"] == current
    assert parts["index"]["items"] == manifest["items"]
    assert parts["vector_store"] == {
        "status": "ok",
        "critical": True,
        "backend": "qdrant-edge",
        "remote": False,
        "reachable": True,
    }
    assert parts["lexical_store"] == {
        "status": "ok",
        "critical": False,
        "backend": "bm25s",
        "remote": False,
        "reachable": True,
    }
    assert parts["search_cache"]["l1"] == {"available": True}
    assert parts["search_cache"]["l2"] == {
        "backend": "redis",
        "remote": True,
        "in_use": True,
        "reachable": True,
        "errors": 0,
    }
    assert parts["session_store"]["backend"] == "memory"
    assert parts["session_store"]["reachable"] is True
    assert parts["llm"]["mode"] == "offline_policy"
    states = parts["breakers"]["states"]
    assert [b["name"] for b in states] == list(BREAKERS.names)
    assert all(set(b) == {"name", "state", "failures", "fail_max"} for b in states)
    assert all(p["status"] in ("ok", "degraded", "down") for p in parts.values())
    admission = parts["admission"]
    assert (admission["status"], admission["in_flight"], admission["refused"]) == ("ok", 0, 0)
    assert admission["limit"] == API_MAX_TURNS_IN_FLIGHT.get()


async def test_redis_unreachable_degrades_the_cache_but_serves(
    built_index: Settings, shared_index: SearchIndex
) -> None:
    settings = built_index.model_copy(update={"redis_url": f"redis://127.0.0.1:{free_port()}/13"})
    response = await healthz(settings, shared_index)
    assert response.status_code == 200
    report = response.json()
    assert report["status"] == "degraded"
    cache = report["components"]["search_cache"]
    assert cache["status"] == "degraded"
    assert cache["l2"]["reachable"] is False
    assert "Error" in cache["l2"]["error"]


async def test_vector_store_down_is_503(api_settings: Settings, shared_index: SearchIndex) -> None:
    dead = open_vector_store(
        qdrant_url=f"http://127.0.0.1:{free_port()}", edge_root=api_settings.index_dir
    )
    try:
        response = await healthz(api_settings, dataclasses.replace(shared_index, store=dead))
    finally:
        await dead.close()
    assert response.status_code == 503
    report = response.json()
    assert report["status"] == "down"
    store = report["components"]["vector_store"]
    assert (store["status"], store["backend"], store["reachable"]) == (
        "down",
        "qdrant-server",
        False,
    )
    assert "qdrant" in store["error"]


@pytest.mark.usefixtures("closed_breakers")
async def test_an_open_qdrant_breaker_is_503(
    api_settings: Settings, shared_index: SearchIndex
) -> None:
    BREAKERS.breaker("qdrant").open()
    response = await healthz(api_settings, shared_index)
    assert response.status_code == 503
    breakers = response.json()["components"]["breakers"]
    assert breakers["status"] == "down"
    assert {"name": "qdrant", "state": "open"}.items() <= next(
        b for b in breakers["states"] if b["name"] == "qdrant"
    ).items()
