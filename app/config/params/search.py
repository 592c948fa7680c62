"""Parameters of search: result sizes and filters shared by the CLI and item_search."""

from app.config.registry import REGISTRY

__all__ = ["DEFAULT_TOP_K", "MAX_TOP_K", "VECTOR_QUERY_TIMEOUT_S"]

MAX_TOP_K = REGISTRY.declare(
    "MAX_TOP_K",
    int,
    50,
    group="search",
    minimum=1,
    maximum=500,
    description="Hard cap on how many hits one search may ask for.",
)
DEFAULT_TOP_K = REGISTRY.declare(
    "DEFAULT_TOP_K",
    int,
    10,
    group="search",
    minimum=1,
    maximum=500,
    description="Hits returned when the caller does not say how many.",
)
VECTOR_QUERY_TIMEOUT_S = REGISTRY.declare(
    "VECTOR_QUERY_TIMEOUT_S",
    float,
    5.0,
    group="search",
    minimum=0.1,
    maximum=120.0,
    description="Timeout of one query to a remote vector server.",
)
