"""Parameters of the two-level search cache (in-process L1, Redis or embedded L2)."""

from app.config.registry import REGISTRY

__all__ = [
    "QUERY_VECTOR_MEMO_SIZE",
    "SEARCH_CACHE_EMBEDDED_L2_MAX_ENTRIES",
    "SEARCH_CACHE_EMPTY_TTL_S",
    "SEARCH_CACHE_ENABLED",
    "SEARCH_CACHE_L1_MAX_ENTRIES",
    "SEARCH_CACHE_LOCK_POLL_MS",
    "SEARCH_CACHE_LOCK_TTL_MS",
    "SEARCH_CACHE_LOCK_WAIT_MS",
    "SEARCH_CACHE_TTL_S",
]

SEARCH_CACHE_ENABLED = REGISTRY.declare(
    "SEARCH_CACHE_ENABLED",
    bool,
    True,
    group="cache",
    description="Cache dense recalls (query vector + vector query) in L1 and L2.",
)
SEARCH_CACHE_TTL_S = REGISTRY.declare(
    "SEARCH_CACHE_TTL_S",
    float,
    900.0,
    group="cache",
    minimum=0.01,
    maximum=86_400.0,
    description="Lifetime of a cached recall with at least one hit, in L1 and L2.",
)
SEARCH_CACHE_EMPTY_TTL_S = REGISTRY.declare(
    "SEARCH_CACHE_EMPTY_TTL_S",
    float,
    60.0,
    group="cache",
    minimum=0.01,
    maximum=86_400.0,
    description="Lifetime of a cached recall that found nothing (kept short on purpose).",
)
SEARCH_CACHE_L1_MAX_ENTRIES = REGISTRY.declare(
    "SEARCH_CACHE_L1_MAX_ENTRIES",
    int,
    2048,
    group="cache",
    minimum=1,
    maximum=1_000_000,
    description="Recalls kept in the in-process L1; the least recently used go first.",
)
SEARCH_CACHE_LOCK_TTL_MS = REGISTRY.declare(
    "SEARCH_CACHE_LOCK_TTL_MS",
    int,
    5000,
    group="cache",
    minimum=10,
    maximum=120_000,
    description="Expiry of the cross-process fetch lock (SET NX PX) taken on an L2 miss.",
)
SEARCH_CACHE_LOCK_POLL_MS = REGISTRY.declare(
    "SEARCH_CACHE_LOCK_POLL_MS",
    int,
    20,
    group="cache",
    minimum=1,
    maximum=5_000,
    description="How often a process waiting on another's fetch lock polls L2.",
)
SEARCH_CACHE_LOCK_WAIT_MS = REGISTRY.declare(
    "SEARCH_CACHE_LOCK_WAIT_MS",
    int,
    1000,
    group="cache",
    minimum=0,
    maximum=120_000,
    description="How long a waiting process polls L2 before it fetches by itself.",
)
QUERY_VECTOR_MEMO_SIZE = REGISTRY.declare(
    "QUERY_VECTOR_MEMO_SIZE",
    int,
    256,
    group="cache",
    minimum=1,
    maximum=100_000,
    description="Query vectors memoised per dense retriever, so one search encodes once.",
)
SEARCH_CACHE_EMBEDDED_L2_MAX_ENTRIES = REGISTRY.declare(
    "SEARCH_CACHE_EMBEDDED_L2_MAX_ENTRIES",
    int,
    20_000,
    group="cache",
    minimum=1,
    maximum=10_000_000,
    description="Recalls kept by the in-process L2 used when no REDIS_URL is set.",
)
