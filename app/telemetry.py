"""Process-wide measurements recorded where the work happens (tool calls, recall sources,
LLM calls, HTTP requests) and exposed by `GET /metrics`; it imports nothing from `app`, so
every layer may record into it."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram

__all__ = [
    "DEPENDENCY_DOWN",
    "FAST_BUCKETS",
    "HTTP_REQUESTS",
    "HTTP_SECONDS",
    "LLM_ERRORS",
    "LLM_FAILURES",
    "LLM_SECONDS",
    "LLM_TOKENS",
    "METRICS",
    "RECALL_SOURCE_SECONDS",
    "SLOW_BUCKETS",
    "TOOL_SECONDS",
    "TURN_SECONDS",
    "observe_llm_call",
    "observe_llm_error",
    "observe_llm_failure",
    "observe_recall_source",
    "observe_tool",
]

METRICS = CollectorRegistry(auto_describe=True)
"""The registry of every observation below; /metrics adds the state read at scrape time."""

FAST_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
SLOW_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0)

HTTP_REQUESTS = Counter(
    "pickwise_http_requests",
    "HTTP requests answered, by method, route template and status.",
    ["method", "route", "status"],
    registry=METRICS,
)
HTTP_SECONDS = Histogram(
    "pickwise_http_request_duration_seconds",
    "Time from request to the last byte of the response, by method and route template.",
    ["method", "route"],
    buckets=SLOW_BUCKETS,
    registry=METRICS,
)
TURN_SECONDS = Histogram(
    "pickwise_turn_duration_seconds",
    "Chat turns from request to the end of the answer, by outcome (ok or error).",
    ["outcome"],
    buckets=SLOW_BUCKETS,
    registry=METRICS,
)
TOOL_SECONDS = Histogram(
    "pickwise_tool_duration_seconds",
    "Tool calls through invoke_tool, by tool and outcome (ok or the tool error code).",
    ["tool", "outcome"],
    buckets=FAST_BUCKETS,
    registry=METRICS,
)
DEPENDENCY_DOWN = Counter(
    "pickwise_dependency_down",
    "Tool calls that failed because a remote dependency was down or its breaker open.",
    ["tool", "dependency"],
    registry=METRICS,
)
RECALL_SOURCE_SECONDS = Histogram(
    "pickwise_recall_source_duration_seconds",
    "One recall of one source in the recall pipeline, by source and outcome (ok or error).",
    ["source", "outcome"],
    buckets=FAST_BUCKETS,
    registry=METRICS,
)
LLM_SECONDS = Histogram(
    "pickwise_llm_request_duration_seconds",
    "Completed LLM requests, by model.",
    ["model"],
    buckets=SLOW_BUCKETS,
    registry=METRICS,
)
LLM_TOKENS = Counter(
    "pickwise_llm_tokens",
    "Tokens the LLM endpoint reported, by model and kind (prompt or completion).",
    ["model", "kind"],
    registry=METRICS,
)
LLM_ERRORS = Counter(
    "pickwise_llm_errors",
    "Failed LLM requests, by model and the failure's type (timeout, HTTP error, open breaker).",
    ["model", "reason"],
    registry=METRICS,
)

LLM_FAILURES = Counter(
    "pickwise_llm_failures",
    "Model calls that gave no usable reply, by role (planner or agent) and reason (timeout, "
    "deadline, connection, http_5xx, malformed, empty, invalid_output, circuit_open, ...).",
    ["role", "reason"],
    registry=METRICS,
)


def observe_tool(
    tool: str, ms: float, error_code: str | None = None, dependency: str | None = None
) -> None:
    """One invoke_tool call; a `dependency` also counts as a DependencyDown."""
    TOOL_SECONDS.labels(tool, error_code or "ok").observe(ms / 1000)
    if dependency is not None:
        DEPENDENCY_DOWN.labels(tool, dependency).inc()


def observe_recall_source(source: str, ms: float, ok: bool) -> None:
    """One source's recall in the pipeline."""
    RECALL_SOURCE_SECONDS.labels(source, "ok" if ok else "error").observe(ms / 1000)


def observe_llm_call(model: str, seconds: float, usage: object | None) -> None:
    """One completed LLM request and the tokens its `usage` reports (if any)."""
    LLM_SECONDS.labels(model).observe(seconds)
    for kind in ("prompt", "completion"):
        tokens = getattr(usage, f"{kind}_tokens", None)
        if isinstance(tokens, int) and tokens > 0:
            LLM_TOKENS.labels(model, kind).inc(tokens)


def observe_llm_error(model: str, error: BaseException) -> None:
    """One failed LLM request, labelled by the type of what caused it."""
    cause = error.__cause__ or error
    LLM_ERRORS.labels(model, type(cause).__name__).inc()


def observe_llm_failure(role: str, reason: str) -> None:
    """One model call of `role` that gave the turn nothing usable, and why."""
    LLM_FAILURES.labels(role, reason).inc()
