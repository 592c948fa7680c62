"""`GET /metrics` in the Prometheus text format: the observations of `app.telemetry`, HTTP and
turn timings taken by an ASGI middleware, and state read at scrape time (breakers, search
cache counts, the parameter version) by a custom collector."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from fastapi import APIRouter, FastAPI, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.config.registry import REGISTRY
from app.recall.breakers import BREAKERS
from app.telemetry import HTTP_REQUESTS, HTTP_SECONDS, METRICS, TURN_SECONDS

__all__ = ["CHAT_PATH", "MetricsMiddleware", "StateCollector", "install", "metrics", "router"]

CHAT_PATH = "/v1/chat"
_SSE_ERROR = b"\nevent: error\n"
_BREAKER_STATES = ("closed", "open", "half-open")

router = APIRouter(tags=["metrics"])


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    """Every metric family of this process, scraped now."""
    registry: CollectorRegistry = request.app.state.metrics_registry
    return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)


def install(app: FastAPI) -> None:
    """Serve /metrics for `app` and time its requests and chat turns."""
    registry = CollectorRegistry(auto_describe=True)
    registry.register(_Observations())
    registry.register(StateCollector(app))
    app.state.metrics_registry = registry
    app.include_router(router)
    app.add_middleware(MetricsMiddleware)


class _Observations(Collector):
    """The process-wide observations, shared by every app of the process."""

    def collect(self) -> Iterator[Metric]:
        yield from METRICS.collect()


class StateCollector(Collector):
    """Reads breakers, admission, the app's search cache and the parameter registry at
    scrape time."""

    def __init__(self, app: FastAPI) -> None:
        self._app = app

    def collect(self) -> Iterator[Metric]:
        yield from _breakers()
        yield from _admission(self._app)
        yield from _cache(self._app)
        yield from _params(self._app)


def _breakers() -> Iterator[Metric]:
    state = GaugeMetricFamily(
        "pickwise_breaker_state",
        "Circuit breaker state per dependency: 1 for the state it is in, 0 for the others.",
        labels=["dependency", "state"],
    )
    failures = GaugeMetricFamily(
        "pickwise_breaker_failures",
        "Consecutive failures counted by each dependency's breaker.",
        labels=["dependency"],
    )
    for breaker in BREAKERS.states():
        for name in _BREAKER_STATES:
            state.add_metric([breaker.name, name], 1.0 if breaker.state == name else 0.0)
        failures.add_metric([breaker.name], breaker.failures)
    yield state
    yield failures


def _admission(app: FastAPI) -> Iterator[Metric]:
    in_flight = GaugeMetricFamily(
        "pickwise_turns_in_flight", "Chat turns running in this worker (admission control)."
    )
    refused = CounterMetricFamily(
        "pickwise_turns_refused", "Chat turns refused with 429: the worker was at capacity."
    )
    gate = getattr(app.state, "turn_gate", None)
    if gate is not None:
        in_flight.add_metric([], gate.in_flight)
        refused.add_metric([], gate.refused)
    yield in_flight
    yield refused


def _cache(app: FastAPI) -> Iterator[Metric]:
    lookups = CounterMetricFamily(
        "pickwise_search_cache_lookups",
        "Search cache answers by level: l1 (in process), l2 (shared) or miss (fetched).",
        labels=["level"],
    )
    l2_errors = CounterMetricFamily(
        "pickwise_search_cache_l2_errors", "Search cache L2 calls that failed (served from L1)."
    )
    stats = _cache_stats(app)
    if stats is not None:
        for level in ("l1", "l2", "miss"):
            lookups.add_metric([level], getattr(stats, level))
        l2_errors.add_metric([], stats.l2_errors)
    yield lookups
    yield l2_errors


def _cache_stats(app: FastAPI) -> Any:
    runtime = getattr(getattr(app.state, "api", None), "runtime", None)
    try:
        return runtime.cache.stats if runtime is not None else None
    except Exception:
        return None


def _params(app: FastAPI) -> Iterator[Metric]:
    yield GaugeMetricFamily(
        "pickwise_params_version",
        "Version of the parameter override layer in force in this process.",
        value=REGISTRY.version,
    )
    yield GaugeMetricFamily(
        "pickwise_params_overrides",
        "Parameters overridden by an admin.",
        value=len(REGISTRY.overrides()),
    )
    sync = getattr(getattr(app.state, "params", None), "sync", None)
    failures = CounterMetricFamily(
        "pickwise_params_refresh_failures",
        "Checks of the override store that failed (the layer in force was kept).",
    )
    failures.add_metric([], getattr(sync, "failures", 0))
    yield failures


class MetricsMiddleware:
    """Times every HTTP request to the end of its body, by route template; a chat request is
    also a turn, an error when its status is 4xx/5xx or its stream ends with an error event."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        seen = {"status": 500, "error_event": False}
        chat = scope.get("path") == CHAT_PATH

        async def watch(message: Message) -> None:
            if message["type"] == "http.response.start":
                seen["status"] = message["status"]
            elif chat and message["type"] == "http.response.body":
                seen["error_event"] = seen["error_event"] or _SSE_ERROR in message.get("body", b"")
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            elapsed = time.perf_counter() - started
            route = getattr(scope.get("route"), "path", None) or "unmatched"
            method = scope.get("method", "GET")
            HTTP_REQUESTS.labels(method, route, str(seen["status"])).inc()
            HTTP_SECONDS.labels(method, route).observe(elapsed)
            if chat and method == "POST":
                failed = int(seen["status"]) >= 400 or bool(seen["error_event"])
                TURN_SECONDS.labels("error" if failed else "ok").observe(elapsed)
