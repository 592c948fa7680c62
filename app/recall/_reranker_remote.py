"""Remote reranker: a Cohere/Jina-style `POST {RERANKER_URL}/v1/rerank`, guarded by the
"reranker" circuit breaker; failures and malformed answers become `DependencyDown`."""

from __future__ import annotations

import asyncio
import contextvars
import math
import threading
from collections.abc import Coroutine, Sequence
from typing import Any, TypeVar

import httpx

from app.config.params.breakers import BREAKER_RERANKER_TIMEOUT_S
from app.config.settings import Settings
from app.errors import ConfigError
from app.recall.breakers import BreakerRegistry, guarded
from app.recall.reranker import ScoreCache, check_request, merged, missing

T = TypeVar("T")
RERANK_PATH = "/v1/rerank"


class MalformedResponse(ValueError):
    """The service answered, but not with one score in [0, 1] per document."""


class RemoteReranker:
    """Sends `{"model", "query", "documents", "top_n"}` and reads
    `{"results": [{"index", "relevance_score"}]}`, whatever order the results come in.

    A fresh HTTP client per request keeps the class usable from any event loop (and from
    `score`, which runs its own); the score cache spares repeated pairs the round trip.
    """

    remote = True

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        registry: BreakerRegistry | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self._url = base_url.rstrip("/") + RERANK_PATH
        self._model = model
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._registry = registry
        self._transport = transport
        self.model_id = f"remote:{model}"
        self.cache = ScoreCache()

    @classmethod
    def from_settings(cls, settings: Settings) -> RemoteReranker:
        """Build from `RERANKER_URL`, `RERANKER_MODEL` and `RERANKER_API_KEY`."""
        if not settings.reranker_url:
            raise ConfigError("RERANKER_BACKEND=remote needs RERANKER_URL")
        if not settings.reranker_model:
            raise ConfigError("RERANKER_BACKEND=remote needs RERANKER_MODEL (the remote model)")
        key = settings.reranker_api_key.get_secret_value() if settings.reranker_api_key else None
        return cls(settings.reranker_url, settings.reranker_model, api_key=key)

    async def ascore(self, query: str, documents: Sequence[str]) -> list[float]:
        """One request for the documents not cached yet, through the breaker."""
        check_request(query, documents)
        cached = self.cache.lookup(query, documents)
        todo = missing(cached, documents)
        fresh: dict[str, float] = {}
        if todo:
            values = await guarded(
                "reranker", lambda: self._post(query, todo), registry=self._registry
            )
            fresh = dict(zip(todo, values, strict=True))
            self.cache.store(query, todo, values)
        return merged(cached, documents, fresh)

    def score(self, query: str, documents: Sequence[str]) -> list[float]:
        """`ascore` on a private event loop (in a helper thread when one already runs here)."""
        return _run_blocking(self.ascore(query, documents))

    async def _post(self, query: str, documents: list[str]) -> list[float]:
        body = {
            "model": self._model,
            "query": query,
            "documents": documents,
            "top_n": len(documents),
        }
        async with httpx.AsyncClient(
            headers=self._headers,
            timeout=BREAKER_RERANKER_TIMEOUT_S.get(),
            transport=self._transport,
        ) as client:
            response = await client.post(self._url, json=body)
            response.raise_for_status()
            return parse_results(response.json(), len(documents))


def parse_results(payload: Any, count: int) -> list[float]:
    """Scores in document order from a rerank answer; `MalformedResponse` unless every
    document has exactly one score in [0, 1]."""
    results = payload.get("results") if isinstance(payload, dict) else None
    if not isinstance(results, list):
        raise MalformedResponse("rerank answer has no 'results' list")
    scores: list[float | None] = [None] * count
    for row in results:
        index = row.get("index") if isinstance(row, dict) else None
        value = row.get("relevance_score") if isinstance(row, dict) else None
        if not isinstance(index, int) or not 0 <= index < count or scores[index] is not None:
            raise MalformedResponse(f"rerank answer has a bad or repeated index: {row!r}")
        if not isinstance(value, int | float) or math.isnan(value) or not 0.0 <= value <= 1.0:
            raise MalformedResponse(f"rerank score outside [0, 1]: {row!r}")
        scores[index] = float(value)
    if any(s is None for s in scores):
        raise MalformedResponse(f"rerank answer scored {len(results)} of {count} documents")
    return [float(s) for s in scores if s is not None]


def _run_blocking(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to completion from synchronous code, even inside a running loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    outcome: dict[str, Any] = {}
    context = contextvars.copy_context()

    def target() -> None:
        try:
            outcome["value"] = context.run(asyncio.run, coroutine)
        except BaseException as exc:  # handed back to the caller's thread below
            outcome["error"] = exc

    worker = threading.Thread(target=target, name="reranker-blocking-call")
    worker.start()
    worker.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
