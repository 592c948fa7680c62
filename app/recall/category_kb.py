"""The category knowledge base: a card per catalog category (built once per index version,
cached in `var/index/<version>/category_kb/`), searched by dense similarity fused with BM25
run in-process or on OpenSearch when `OPENSEARCH_URL` is set."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from app.config.params.category_kb import (
    KB_CONFIDENCE_AMBIGUITY_PENALTY,
    KB_CONFIDENCE_COSINE_CEIL,
    KB_CONFIDENCE_COSINE_FLOOR,
    KB_CONFIDENCE_MARGIN_FULL,
    KB_MIN_ITEMS,
    KB_WEIGHT_BM25,
    KB_WEIGHT_DENSE,
)
from app.config.settings import Settings
from app.recall._cache_vectors import QueryVectorMemo
from app.recall._kb_hybrid import CardIndex, hybrid_search
from app.recall._kb_model import CardSummary, CategoryCard, PriceStats, ScoredCard
from app.recall._kb_store import kb_folder, load_or_build_cards, load_or_embed_vectors
from app.recall.embedder import Embedder
from app.recall.search_index import SearchIndex

__all__ = [
    "CardIndex",
    "CardSummary",
    "CategoryCard",
    "Confidence",
    "InProcessKnowledgeBase",
    "KnowledgeBase",
    "PriceStats",
    "ScoredCard",
    "confidence",
    "load_card_index",
    "open_knowledge_base",
]


@runtime_checkable
class KnowledgeBase(Protocol):
    """Category cards searchable by free text; backends differ only in where BM25 runs."""

    name: str
    remote: bool

    @property
    def version(self) -> str:
        """The card set: index version and card-set key."""
        ...

    @property
    def cards(self) -> Sequence[CategoryCard]:
        """Every card, largest category first."""
        ...

    async def search(self, query: str, *, top_k: int) -> list[ScoredCard]:
        """Up to `top_k` cards, best first, fused scores in [0, 1]; `[]` for a blank query;
        `InvalidRequest` for top_k < 1; `DependencyDown` when a remote engine fails."""
        ...

    async def close(self) -> None:
        """Release connections."""
        ...


class InProcessKnowledgeBase:
    """The default KB: bm25s and the card vectors in this process; nothing remote."""

    name = "in-process"
    remote = False

    def __init__(self, index: CardIndex, embedder: Embedder) -> None:
        self._index = index
        self._memo = QueryVectorMemo(embedder)

    @property
    def version(self) -> str:
        return self._index.version

    @property
    def cards(self) -> tuple[CategoryCard, ...]:
        return self._index.cards

    async def search(self, query: str, *, top_k: int) -> list[ScoredCard]:
        return await hybrid_search(self._index, self._memo, query, top_k, self._index.lexical)

    async def close(self) -> None:
        return None


def load_card_index(settings: Settings, index: SearchIndex) -> CardIndex:
    """The cards and card vectors of the open index, from the cache or built now (blocking:
    seconds on first use of an index version, then a file read)."""
    folder = kb_folder(settings.index_dir / index.version)
    key, cards = load_or_build_cards(
        folder, index.version, index.items.values(), min_items=KB_MIN_ITEMS.get()
    )
    vectors = load_or_embed_vectors(folder, key, cards, index.embedder)
    return CardIndex(f"{index.version}-{key}", cards, vectors)


async def open_knowledge_base(settings: Settings, index: SearchIndex) -> KnowledgeBase:
    """The KB the settings ask for: OpenSearch BM25 when `opensearch_url` is set, else
    in-process. Connects lazily; the server is filled on first search."""
    cards = await asyncio.to_thread(load_card_index, settings, index)
    if settings.opensearch_url:
        from app.recall._kb_opensearch import OpenSearchKnowledgeBase

        return OpenSearchKnowledgeBase.connect(settings.opensearch_url, cards, index.embedder)
    return InProcessKnowledgeBase(cards, index.embedder)


@dataclass(frozen=True)
class Confidence:
    """How sure the KB is that a query names its best card's category, and why."""

    value: float
    evidence: float
    margin: float


# confidence = evidence × (1 − penalty × (1 − min(1, margin / margin_full)))
#   evidence = (w_dense·a + w_bm25·l) / (w_dense + w_bm25) for the best card, where
#     a = its cosine rescaled from [KB_CONFIDENCE_COSINE_FLOOR, _CEIL] to [0, 1], clipped,
#     l = its BM25 share (min-max over the pool, 0 when BM25 missed it);
#   margin = its fused score minus the second card's (1 when it is alone).
# Fused scores are relative (min-max gives a nonsense query's best card 0.7 too), so the
# evidence is absolute; the margin only trims near-ties.
def confidence(results: Sequence[ScoredCard]) -> Confidence:
    """How sure the KB is that the query names its best card's category, in [0, 1]: the
    best card's absolute evidence (cosine, BM25 share) trimmed when the second is close."""
    if not results:
        return Confidence(0.0, 0.0, 0.0)
    best = results[0]
    floor, ceil = KB_CONFIDENCE_COSINE_FLOOR.get(), KB_CONFIDENCE_COSINE_CEIL.get()
    dense = _clip((best.dense - floor) / max(ceil - floor, 1e-6))
    w_dense, w_bm25 = KB_WEIGHT_DENSE.get(), KB_WEIGHT_BM25.get()
    evidence = (w_dense * dense + w_bm25 * best.lexical_share) / ((w_dense + w_bm25) or 1.0)
    margin = _clip(best.score - results[1].score) if len(results) > 1 else 1.0
    ambiguity = 1.0 - KB_CONFIDENCE_AMBIGUITY_PENALTY.get() * (
        1.0 - min(1.0, margin / KB_CONFIDENCE_MARGIN_FULL.get())
    )
    return Confidence(round(_clip(evidence * ambiguity), 4), round(evidence, 4), round(margin, 4))


def _clip(value: float) -> float:
    return min(1.0, max(0.0, value))
