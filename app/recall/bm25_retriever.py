"""The lexical recall source: a `Retriever` over a `LexicalStore` (bm25s or OpenSearch).

Store calls are synchronous (BM25 scoring in-process is CPU-bound, the OpenSearch client is
blocking), so they run in a worker thread to keep the event loop free while the other
sources are queried.
"""

from __future__ import annotations

from app.errors import InvalidRequest
from app.recall.filters import SearchFilters
from app.recall.lexical_store import LexicalHit, LexicalStore
from app.recall.offload import offload
from app.recall.pipeline import TailSource
from app.recall.retriever import Hit, Retriever

__all__ = ["LEXICAL_SOURCE", "SHEET_SOURCE", "Bm25Retriever", "sheet_tail"]

LEXICAL_SOURCE = "bm25"
SHEET_SOURCE = "bm25_sheet"


class Bm25Retriever:
    """BM25 hits as `Hit`s (empty payload: the index keeps only ids and filter columns).

    Equal scores are ordered by item id, also across the `top_k` cut, so the ranks fusion
    sees do not depend on the order in which the index happens to return tied documents.
    """

    def __init__(self, index: LexicalStore, *, source: str = LEXICAL_SOURCE) -> None:
        self._index = index
        self.source = source

    async def recall(self, query: str, filters: SearchFilters, *, top_k: int) -> list[Hit]:
        """Up to `top_k` hits passing `filters`, best BM25 score first, ties by item id."""
        if top_k < 1:
            raise InvalidRequest(f"top_k must be >= 1, got {top_k}")
        want = top_k
        while True:
            lexical = await offload(self._index.search, query, filters, top_k=want)
            if len(lexical) < want or min(h.score for h in lexical) < _kth_score(lexical, top_k):
                break
            want *= 2
        ordered = sorted(lexical, key=lambda h: (-h.score, h.item_id))[:top_k]
        return [Hit(item_id=h.item_id, score=h.score) for h in ordered]


def _kth_score(hits: list[LexicalHit], k: int) -> float:
    """The k-th best score: the index cuts ties at it arbitrarily, so the retriever widens
    its request until every hit tied with it is in hand (a smaller top_k stays a prefix)."""
    return sorted((h.score for h in hits), reverse=True)[k - 1]


def sheet_tail(sheet: Retriever | None) -> TailSource | None:
    """The sheet store's retriever as the recall's tail source in place of BM25 (None
    without one: a catalog with no spec sheets)."""
    return TailSource(sheet, LEXICAL_SOURCE) if sheet is not None else None
