"""Whether a recalled hit is about the query, on one scale for every source: the cosine of
the query and item vectors, with a lower bar for hits the lexical source also matched
(thresholds tuned on the dev judgments; see `RELEVANCE_FLOOR`)."""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from app.catalog.item import Item
from app.config.params.item_search import (
    ITEM_VECTOR_MEMO_SIZE,
    RELEVANCE_FLOOR,
    RELEVANCE_FLOOR_FOUND,
    RELEVANCE_FLOOR_LEXICAL,
)
from app.errors import DependencyDown
from app.recall.bm25_retriever import LEXICAL_SOURCE
from app.recall.dense_retriever import DenseRetriever
from app.recall.embedder import Embedder
from app.recall.fusion import FusedHit
from app.recall.guarded_store import guard_store
from app.recall.offload import offload
from app.recall.search_cache import normalise_query
from app.recall.vector_store import VectorStore

DENSE_SOURCE = DenseRetriever.source

log = logging.getLogger(__name__)


class QueryVectors(Protocol):
    """Where the query vector comes from (the dense source, whose memo makes it free)."""

    async def query_vector(self, query: str) -> Sequence[float]:
        """The unit vector of `query`."""
        ...


class EmbedderQueryVectors:
    """Query vectors straight from an embedder, for a tool built without a dense source."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder

    async def query_vector(self, query: str) -> Sequence[float]:
        rows = await offload(self._embedder.encode_queries, [normalise_query(query)])
        return [float(x) for x in rows[0]]


@dataclass(frozen=True)
class ScoredHit:
    """A fused hit with its catalog item, its cosine to the query (None when it could not be
    measured) and whether the lexical source matched it."""

    hit: FusedHit
    item: Item
    relevance: float | None
    lexical: bool

    @property
    def item_id(self) -> str:
        return self.hit.item_id


@dataclass(frozen=True)
class RelevanceFloor:
    """The relevance floor in force: cosine >= `semantic`, or >= `lexical` for a hit the
    lexical source matched; a lexical match whose cosine is unknown passes on its words."""

    semantic: float
    lexical: float

    @classmethod
    def current(cls) -> RelevanceFloor:
        """The floor set by RELEVANCE_FLOOR and RELEVANCE_FLOOR_LEXICAL now."""
        semantic = RELEVANCE_FLOOR.get()
        return cls(semantic, min(semantic, RELEVANCE_FLOOR_LEXICAL.get()))

    def passes(self, relevance: float | None, lexical: bool) -> bool:
        if relevance is None:
            return lexical
        return relevance >= (self.lexical if lexical else self.semantic)

    def for_hits(self, hits: Sequence[tuple[float | None, bool]]) -> RelevanceFloor:
        """The floor for one recall's (relevance, lexical) hits: once one of them passes this
        floor the search found something real, and every hit needs only
        RELEVANCE_FLOOR_FOUND (gibberish, where none passes, keeps the floor whole)."""
        if not any(self.passes(relevance, lexical) for relevance, lexical in hits):
            return self
        found = RELEVANCE_FLOOR_FOUND.get()
        return RelevanceFloor(min(self.semantic, found), min(self.lexical, found))


def on_topic(hits: Iterable[ScoredHit]) -> list[ScoredHit]:
    """The hits that pass the whole relevance floor, in order: what the decisions to widen,
    refocus or probe a search read, since the floor lowered once a hit passes it
    (`RelevanceFloor.for_hits`) also keeps hits too far from the query to count as found."""
    floor = RelevanceFloor.current()
    return [h for h in hits if floor.passes(h.relevance, h.lexical)]


@dataclass(frozen=True)
class Scoring:
    """Scored hits in fused order, and why some cosines are missing (None when none are)."""

    hits: list[ScoredHit]
    degraded: str | None = None


class RelevanceScorer:
    """Scores fused hits: a dense hit's score is already its cosine; a lexical-only hit is
    scored from its stored vector (memoised per item) and the memoised query vector."""

    def __init__(self, store: VectorStore, collection: str, query_vectors: QueryVectors) -> None:
        self._store = guard_store(store)
        self._collection = collection
        self._query_vectors = query_vectors
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self.retrieved = 0

    async def score(
        self, query: str, hits: Sequence[FusedHit], items: Mapping[str, Item]
    ) -> Scoring:
        """Every hit whose item is in the catalog, scored; missing cosines degrade, not fail."""
        known = [h for h in hits if h.item_id in items]
        if len(known) < len(hits):
            log.warning("item_search: %d hits are not in the item table", len(hits) - len(known))
        need = [h.item_id for h in known if h.source_scores.get(DENSE_SOURCE) is None]
        cosines: dict[str, float] = {}
        degraded = None
        if need:
            try:
                cosines = await self._cosines(query, need)
            except DependencyDown as exc:
                degraded = f"relevance of lexical-only hits not measured: {exc}"
        scored = []
        for hit in known:
            dense = hit.source_scores.get(DENSE_SOURCE)
            relevance = dense if dense is not None else cosines.get(hit.item_id)
            lexical = hit.source_scores.get(LEXICAL_SOURCE) is not None
            scored.append(ScoredHit(hit, items[hit.item_id], relevance, lexical))
        return Scoring(scored, degraded)

    async def _cosines(self, query: str, item_ids: list[str]) -> dict[str, float]:
        query_vector = np.asarray(await self._query_vectors.query_vector(query), dtype=np.float32)
        vectors = await self._item_vectors(item_ids)
        return {i: float(query_vector @ v) for i, v in vectors.items()}

    async def _item_vectors(self, item_ids: list[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        missing = []
        for item_id in item_ids:
            vector = self._vectors.get(item_id)
            if vector is None:
                missing.append(item_id)
            else:
                self._vectors.move_to_end(item_id)
                found[item_id] = vector
        if missing:
            points = await self._store.retrieve(self._collection, missing)
            self.retrieved += len(points)
            cap = ITEM_VECTOR_MEMO_SIZE.get()
            for point in points:
                if not point.vector:
                    continue
                vector = np.asarray(point.vector, dtype=np.float32)
                found[point.item_id] = vector
                self._vectors[point.item_id] = vector
            while len(self._vectors) > cap:
                self._vectors.popitem(last=False)
        return found
