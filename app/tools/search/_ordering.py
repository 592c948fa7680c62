"""Order by relevance: the relevance cross-encoder's score blended with the fused recall score
over the first hits, so that how well an item answers the query, not only how near its text
reads, sets the order; without the model (or when it fails) the fused order stays, said why."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence

from app.recall.offload import offload
from app.recall.relevance_model import relevance_text
from app.recall.reranker import Reranker
from app.tools.search._relevance import ScoredHit

__all__ = ["RelevanceOrder", "blended_order"]

log = logging.getLogger(__name__)


Opener = Callable[[], tuple[Reranker | None, str | None]]
"""Opens the model: it, or None and why."""


class RelevanceOrder:
    """The relevance model item_search orders by, or why there is none; with `opener`, the
    model is opened at the first search that gives it a weight (none is loaded at 0)."""

    def __init__(
        self,
        model: Reranker | None,
        unavailable: str | None = None,
        *,
        opener: Opener | None = None,
    ) -> None:
        self.model, self.unavailable = model, unavailable
        self._opener = opener
        self._lock = threading.Lock()

    def _open_once(self) -> Reranker | None:
        with self._lock:
            if self._opener is not None:
                self.model, self.unavailable = self._opener()
                self._opener = None
            return self.model

    async def _opened(self) -> Reranker | None:
        if self._opener is None:
            return self.model
        return await offload(self._open_once)

    async def apply(
        self, query: str, hits: Sequence[ScoredHit], *, weight: float, window: int
    ) -> tuple[list[ScoredHit], str]:
        """The hits in blended order, and how they were ordered (for the result's trace)."""
        if weight <= 0.0:
            return list(hits), "fused order: ITEM_SEARCH_RELEVANCE_WEIGHT is 0"
        model = await self._opened()
        if model is None:
            return list(hits), f"fused order: {self.unavailable or 'no relevance model'}"
        head = list(hits[:window])
        if len(head) < 2:
            return list(hits), f"fused order ({len(head)} hit)"
        try:
            scores = await model.ascore(query, [relevance_text(h.item) for h in head])
        except Exception as exc:  # a model that fails leaves the fused order, never the search
            log.warning("item_search: relevance model failed: %s", exc)
            return list(hits), f"fused order: the relevance model failed ({exc})"
        ordered = blended_order(head, scores, weight)
        said = f"{model.model_id} x {weight:g} over the first {len(head)}"
        return ordered + list(hits[window:]), said


def blended_order(
    hits: Sequence[ScoredHit], scores: Sequence[float], weight: float
) -> list[ScoredHit]:
    """`hits` by (1 - weight) x fused score scaled 0..1 over them + weight x model score;
    ties keep the fused order."""
    fused = [h.hit.score for h in hits]
    low, high = min(fused), max(fused)
    span = high - low
    scaled = [(f - low) / span if span > 0 else 1.0 for f in fused]
    blend = [(1.0 - weight) * f + weight * s for f, s in zip(scaled, scores, strict=True)]
    order = sorted(range(len(hits)), key=lambda i: (-blend[i], i))
    return [hits[i] for i in order]
