"""Parameters of the circuit breakers: failure threshold, reset time and per-call timeout per
remote dependency; Qdrant's timeout is `VECTOR_QUERY_TIMEOUT_S` (group "search")."""

from app.config.registry import REGISTRY, Param

__all__ = [
    "BREAKER_EMBEDDER_FAIL_MAX",
    "BREAKER_EMBEDDER_RESET_S",
    "BREAKER_EMBEDDER_TIMEOUT_S",
    "BREAKER_LLM_FAIL_MAX",
    "BREAKER_LLM_RESET_S",
    "BREAKER_LLM_TIMEOUT_S",
    "BREAKER_NAMES",
    "BREAKER_OPENSEARCH_FAIL_MAX",
    "BREAKER_OPENSEARCH_RESET_S",
    "BREAKER_OPENSEARCH_TIMEOUT_S",
    "BREAKER_QDRANT_FAIL_MAX",
    "BREAKER_QDRANT_RESET_S",
    "BREAKER_REDIS_FAIL_MAX",
    "BREAKER_REDIS_RESET_S",
    "BREAKER_REDIS_TIMEOUT_S",
    "BREAKER_RERANKER_FAIL_MAX",
    "BREAKER_RERANKER_RESET_S",
    "BREAKER_RERANKER_TIMEOUT_S",
]

BREAKER_NAMES: tuple[str, ...] = ("qdrant", "redis", "embedder", "opensearch", "llm", "reranker")


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
        description=f"Timeout of one {what}; a timeout counts as a failure.",
    )


BREAKER_QDRANT_FAIL_MAX = _fail_max("qdrant", 3)
BREAKER_QDRANT_RESET_S = _reset_s("qdrant", 30.0)
BREAKER_REDIS_FAIL_MAX = _fail_max("redis", 3)
BREAKER_REDIS_RESET_S = _reset_s("redis", 30.0)
BREAKER_REDIS_TIMEOUT_S = _timeout_s("redis", 0.5, "Redis cache command")
BREAKER_EMBEDDER_FAIL_MAX = _fail_max("embedder", 3)
BREAKER_EMBEDDER_RESET_S = _reset_s("embedder", 30.0)
BREAKER_EMBEDDER_TIMEOUT_S = _timeout_s("embedder", 10.0, "remote query encoding")
BREAKER_OPENSEARCH_FAIL_MAX = _fail_max("opensearch", 3)
BREAKER_OPENSEARCH_RESET_S = _reset_s("opensearch", 30.0)
BREAKER_OPENSEARCH_TIMEOUT_S = _timeout_s("opensearch", 5.0, "OpenSearch request")
BREAKER_LLM_FAIL_MAX = _fail_max("llm", 3)
BREAKER_LLM_RESET_S = _reset_s("llm", 30.0)
BREAKER_LLM_TIMEOUT_S = _timeout_s("llm", 60.0, "LLM completion")
BREAKER_RERANKER_FAIL_MAX = _fail_max("reranker", 3)
BREAKER_RERANKER_RESET_S = _reset_s("reranker", 30.0)
BREAKER_RERANKER_TIMEOUT_S = _timeout_s("reranker", 10.0, "remote rerank request")
