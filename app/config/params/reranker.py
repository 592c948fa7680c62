"""Parameters of the reranker: call size limit, local batch size and the score cache."""

from app.config.registry import REGISTRY

__all__ = ["RERANKER_BATCH_SIZE", "RERANKER_CACHE_SIZE", "RERANKER_MAX_DOCUMENTS"]

RERANKER_MAX_DOCUMENTS = REGISTRY.declare(
    "RERANKER_MAX_DOCUMENTS",
    int,
    256,
    group="reranker",
    minimum=1,
    maximum=10_000,
    description="Most documents one rerank call may score; a larger call is an invalid request.",
)
RERANKER_BATCH_SIZE = REGISTRY.declare(
    "RERANKER_BATCH_SIZE",
    int,
    32,
    group="reranker",
    minimum=1,
    maximum=1024,
    description="Pairs per forward pass of the local cross-encoder.",
)
RERANKER_CACHE_SIZE = REGISTRY.declare(
    "RERANKER_CACHE_SIZE",
    int,
    50_000,
    group="reranker",
    minimum=0,
    maximum=10_000_000,
    description="(query, document) scores kept in process; the same pairs recur across "
    "turns. 0 turns the cache off.",
)
