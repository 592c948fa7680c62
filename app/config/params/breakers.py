"""Parameters of the circuit breakers: failure threshold, reset time and per-call timeout per
remote dependency and role (Redis as search cache, as session store, as parameter store; the LLM
as planner and as agent); Qdrant's timeout is `VECTOR_QUERY_TIMEOUT_S` (group "search")."""

from app.config.registry import REGISTRY, Param

__all__ = [
    "BREAKER_EMBEDDER_FAIL_MAX",
    "BREAKER_EMBEDDER_RESET_S",
    "BREAKER_EMBEDDER_TIMEOUT_S",
    "BREAKER_LLM_AGENT_FAIL_MAX",
    "BREAKER_LLM_AGENT_RESET_S",
    "BREAKER_LLM_AGENT_TIMEOUT_S",
    "BREAKER_LLM_PLANNER_FAIL_MAX",
    "BREAKER_LLM_PLANNER_RESET_S",
    "BREAKER_LLM_PLANNER_TIMEOUT_S",
    "BREAKER_NAMES",
    "BREAKER_OPENSEARCH_FAIL_MAX",
    "BREAKER_OPENSEARCH_RESET_S",
    "BREAKER_OPENSEARCH_TIMEOUT_S",
    "BREAKER_QDRANT_FAIL_MAX",
    "BREAKER_QDRANT_RESET_S",
    "BREAKER_REDIS_CACHE_FAIL_MAX",
    "BREAKER_REDIS_CACHE_RESET_S",
    "BREAKER_REDIS_CACHE_TIMEOUT_S",
    "BREAKER_REDIS_FAIL_MAX",
    "BREAKER_REDIS_RESET_S",
    "BREAKER_REDIS_SESSIONS_FAIL_MAX",
    "BREAKER_REDIS_SESSIONS_RESET_S",
    "BREAKER_REDIS_SESSIONS_TIMEOUT_S",
    "BREAKER_REDIS_TIMEOUT_S",
    "BREAKER_RERANKER_FAIL_MAX",
    "BREAKER_RERANKER_RESET_S",
    "BREAKER_RERANKER_TIMEOUT_S",
    "LOCAL_TIMEOUT_EXTENSIONS",
    "LOCAL_TIMEOUT_LAG_RATIO",
    "REDIS_POOL_SPARE",
    "REDIS_POOL_WAIT_S",
]

BREAKER_NAMES: tuple[str, ...] = (
    "qdrant",
    "redis",
    "redis_cache",
    "redis_sessions",
    "embedder",
    "opensearch",
    "llm_planner",
    "llm_agent",
    "reranker",
)


def _fail_max(name: str, default: int) -> Param[int]:
    return REGISTRY.declare(
        f"BREAKER_{name.upper()}_FAIL_MAX",
        int,
        default,
        group="breakers",
        minimum=1,
        maximum=1000,
        description=f"Consecutive failures of {name} that open its breaker.",
    )


def _reset_s(name: str, default: float) -> Param[float]:
    return REGISTRY.declare(
        f"BREAKER_{name.upper()}_RESET_S",
        float,
        default,
        group="breakers",
        minimum=0.01,
        maximum=3600.0,
        description=f"Seconds the {name} breaker stays open before one trial call.",
    )


def _timeout_s(name: str, default: float, what: str) -> Param[float]:
    return REGISTRY.declare(
        f"BREAKER_{name.upper()}_TIMEOUT_S",
        float,
        default,
        group="breakers",
        minimum=0.01,
        maximum=600.0,
        description=f"Timeout of one {what}; a timeout counts as a failure unless the event "
        "loop itself stalled (LOCAL_TIMEOUT_LAG_RATIO).",
    )


BREAKER_QDRANT_FAIL_MAX = _fail_max("qdrant", 3)
BREAKER_QDRANT_RESET_S = _reset_s("qdrant", 30.0)
BREAKER_REDIS_FAIL_MAX = _fail_max("redis", 3)
BREAKER_REDIS_RESET_S = _reset_s("redis", 30.0)
BREAKER_REDIS_TIMEOUT_S = _timeout_s("redis", 0.5, "Redis parameter-store command")
BREAKER_REDIS_CACHE_FAIL_MAX = _fail_max("redis_cache", 3)
BREAKER_REDIS_CACHE_RESET_S = _reset_s("redis_cache", 2.0)
BREAKER_REDIS_CACHE_TIMEOUT_S = _timeout_s("redis_cache", 0.5, "Redis search-cache command")
BREAKER_REDIS_SESSIONS_FAIL_MAX = _fail_max("redis_sessions", 3)
BREAKER_REDIS_SESSIONS_RESET_S = _reset_s("redis_sessions", 2.0)
BREAKER_REDIS_SESSIONS_TIMEOUT_S = _timeout_s("redis_sessions", 1.0, "Redis session command")
REDIS_POOL_WAIT_S = REGISTRY.declare(
    "REDIS_POOL_WAIT_S",
    float,
    0.25,
    group="breakers",
    minimum=0.0,
    maximum=60.0,
    description="How long a Redis command waits for a free pooled connection before it is "
    "refused as overload (429); never counted as a Redis failure.",
)
REDIS_POOL_SPARE = REGISTRY.declare(
    "REDIS_POOL_SPARE",
    int,
    8,
    group="breakers",
    minimum=1,
    maximum=1000,
    description="Connections each Redis pool holds beyond what API_MAX_TURNS_IN_FLIGHT "
    "turns need (health probes, session reads); read at start-up.",
)
LOCAL_TIMEOUT_LAG_RATIO = REGISTRY.declare(
    "LOCAL_TIMEOUT_LAG_RATIO",
    float,
    0.5,
    group="breakers",
    minimum=0.0,
    maximum=100.0,
    description="A timeout window in which the event loop stalled for at least this share of "
    "it is not the dependency's fault: the call gets another window.",
)
LOCAL_TIMEOUT_EXTENSIONS = REGISTRY.declare(
    "LOCAL_TIMEOUT_EXTENSIONS",
    int,
    2,
    group="breakers",
    minimum=0,
    maximum=20,
    description="Extra timeout windows a call gets while the event loop stalls; after them it "
    "is refused as overload (429), never counted as a failure of the dependency.",
)
BREAKER_EMBEDDER_FAIL_MAX = _fail_max("embedder", 3)
BREAKER_EMBEDDER_RESET_S = _reset_s("embedder", 30.0)
BREAKER_EMBEDDER_TIMEOUT_S = _timeout_s("embedder", 10.0, "remote query encoding")
BREAKER_OPENSEARCH_FAIL_MAX = _fail_max("opensearch", 3)
BREAKER_OPENSEARCH_RESET_S = _reset_s("opensearch", 30.0)
BREAKER_OPENSEARCH_TIMEOUT_S = _timeout_s("opensearch", 5.0, "OpenSearch request")
BREAKER_LLM_PLANNER_FAIL_MAX = _fail_max("llm_planner", 3)
BREAKER_LLM_PLANNER_RESET_S = _reset_s("llm_planner", 30.0)
BREAKER_LLM_PLANNER_TIMEOUT_S = _timeout_s("llm_planner", 60.0, "planner LLM completion")
BREAKER_LLM_AGENT_FAIL_MAX = _fail_max("llm_agent", 3)
BREAKER_LLM_AGENT_RESET_S = _reset_s("llm_agent", 30.0)
BREAKER_LLM_AGENT_TIMEOUT_S = _timeout_s("llm_agent", 60.0, "agent LLM completion")
BREAKER_RERANKER_FAIL_MAX = _fail_max("reranker", 3)
BREAKER_RERANKER_RESET_S = _reset_s("reranker", 30.0)
BREAKER_RERANKER_TIMEOUT_S = _timeout_s("reranker", 10.0, "remote rerank request")
