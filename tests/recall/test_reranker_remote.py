"""The remote reranker against a real rerank service on loopback (FastAPI + uvicorn serving
the small trained model): the contract, agreement with the model it serves, the request it
sends, and failures turning into DependencyDown("reranker") through the circuit breaker."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from app.config.settings import Settings
from app.errors import ConfigError, DependencyDown
from app.recall._reranker_local import LocalReranker
from app.recall._reranker_remote import RemoteReranker
from app.recall.breakers import SPECS, BreakerRegistry
from app.recall.reranker import Reranker, build_reranker
from tests.contracts.reranker_contract import DOCUMENTS, QUERY, RerankerContract, small_model

pytestmark = pytest.mark.slow


@dataclass
class Service:
    """What the loopback service is told to do, and what it was sent."""

    url: str
    mode: str = "ok"
    requests: list[dict[str, Any]] = field(default_factory=list)


def _rerank_app(model: LocalReranker, service: Service) -> FastAPI:
    api = FastAPI()

    @api.post("/v1/rerank")
    async def rerank(request: Request) -> JSONResponse:
        body = await request.json()
        service.requests.append({"body": body, "auth": request.headers.get("authorization")})
        if service.mode == "fail":
            return JSONResponse({"error": "overloaded"}, status_code=503)
        scores = await model.ascore(body["query"], body["documents"])
        if service.mode == "malformed":
            scores = scores[:-1]
        ranked = sorted(enumerate(scores), key=lambda pair: -pair[1])[: body["top_n"]]
        results = [{"index": i, "relevance_score": s, "document": {}} for i, s in ranked]
        return JSONResponse({"model": body["model"], "results": results})

    return api


@pytest.fixture(scope="module")
def local(built_index: Settings) -> LocalReranker:
    _, report = small_model(built_index)
    return LocalReranker(report.model_dir)


@pytest.fixture(scope="module")
def service(local: LocalReranker) -> Iterator[Service]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    state = Service(url=f"http://127.0.0.1:{sock.getsockname()[1]}")
    server = uvicorn.Server(uvicorn.Config(_rerank_app(local, state), log_level="warning"))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])), daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started, "the loopback rerank service did not start"
    yield state
    server.should_exit = True
    thread.join(timeout=10)
    sock.close()


@pytest.fixture
def fresh(service: Service) -> Iterator[Service]:
    service.mode = "ok"
    service.requests.clear()
    yield service
    service.mode = "ok"


def _remote(service: Service, **kwargs: Any) -> RemoteReranker:
    return RemoteReranker(service.url, "pickwise-small", registry=BreakerRegistry(SPECS), **kwargs)


class TestRemoteReranker(RerankerContract):
    @pytest.fixture
    def reranker(self, fresh: Service) -> Reranker:
        return _remote(fresh)

    def test_is_remote(self, reranker: Reranker) -> None:
        assert reranker.remote is True
        assert reranker.model_id == "remote:pickwise-small"


def test_scores_equal_those_of_the_model_served(fresh: Service, local: LocalReranker) -> None:
    assert _remote(fresh).score(QUERY, DOCUMENTS) == pytest.approx(
        local.score(QUERY, DOCUMENTS), abs=1e-6
    )


async def test_sends_model_query_documents_top_n_and_key(fresh: Service) -> None:
    reranker = _remote(fresh, api_key="s3cret")
    await reranker.ascore("usb hub", DOCUMENTS[:3])
    (sent,) = fresh.requests
    assert sent["body"] == {
        "model": "pickwise-small",
        "query": "usb hub",
        "documents": list(DOCUMENTS[:3]),
        "top_n": 3,
    }
    assert sent["auth"] == "Bearer s3cret"


async def test_cached_pairs_skip_the_round_trip(fresh: Service) -> None:
    reranker = _remote(fresh)
    first = await reranker.ascore("gaming mouse", DOCUMENTS[:2])
    again = await reranker.ascore("gaming mouse", DOCUMENTS[:3])
    assert again[:2] == first
    assert [r["body"]["documents"] for r in fresh.requests] == [list(DOCUMENTS[:2]), [DOCUMENTS[2]]]


async def test_failures_open_the_breaker_into_dependency_down(fresh: Service) -> None:
    reranker = _remote(fresh)
    fresh.mode = "fail"
    for _ in range(2):
        with pytest.raises(DependencyDown) as info:
            await reranker.ascore(QUERY, DOCUMENTS)
        assert info.value.name == "reranker"
        assert "503" in info.value.reason
    with pytest.raises(DependencyDown, match="circuit opened"):
        await reranker.ascore(QUERY, DOCUMENTS)
    sent = len(fresh.requests)
    fresh.mode = "ok"
    with pytest.raises(DependencyDown, match="circuit open") as info:
        await reranker.ascore(QUERY, DOCUMENTS)
    assert info.value.name == "reranker"
    assert len(fresh.requests) == sent, "an open breaker must not call the service"


def test_sync_score_goes_through_the_breaker_too(fresh: Service) -> None:
    reranker = _remote(fresh)
    fresh.mode = "fail"
    with pytest.raises(DependencyDown, match="reranker"):
        reranker.score(QUERY, DOCUMENTS)


async def test_sync_score_works_inside_a_running_loop(fresh: Service) -> None:
    reranker = _remote(fresh)
    assert reranker.score(QUERY, DOCUMENTS) == pytest.approx(
        await reranker.ascore(QUERY, DOCUMENTS)
    )


async def test_a_malformed_answer_is_dependency_down(fresh: Service) -> None:
    fresh.mode = "malformed"
    with pytest.raises(DependencyDown, match="scored 4 of 5"):
        await _remote(fresh).ascore(QUERY, DOCUMENTS)


async def test_an_unreachable_service_is_dependency_down() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed = sock.getsockname()[1]
    reranker = RemoteReranker(f"http://127.0.0.1:{closed}", "m", registry=BreakerRegistry(SPECS))
    with pytest.raises(DependencyDown, match="reranker"):
        await reranker.ascore(QUERY, DOCUMENTS)


def test_factory_builds_the_remote_backend_from_settings(fresh: Service) -> None:
    settings = Settings(reranker_backend="remote", reranker_url=fresh.url, reranker_model="m")
    reranker = build_reranker(settings)
    assert isinstance(reranker, RemoteReranker)
    assert reranker.model_id == "remote:m"


def test_remote_backend_needs_a_url_and_a_model() -> None:
    with pytest.raises(ConfigError, match="RERANKER_URL"):
        build_reranker(Settings(reranker_backend="remote", reranker_model="m"))
    with pytest.raises(ConfigError, match="RERANKER_MODEL"):
        build_reranker(
            Settings(
                reranker_backend="remote", reranker_url="http://127.0.0.1:9", reranker_model=None
            )
        )
