"""Hybrid retrieval over category cards, shared by both KB backends: cosine over the cached
card vectors, a BM25 side (in-process bm25s, or whatever the backend supplies), and the
weighted fusion of both sides' min-max normalised scores."""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence

import bm25s
import numpy as np
import Stemmer

from app.config.params.category_kb import KB_DEPTH, KB_WEIGHT_BM25, KB_WEIGHT_DENSE
from app.errors import InvalidRequest
from app.recall._cache_vectors import QueryVectorMemo
from app.recall._kb_model import CategoryCard, ScoredCard
from app.recall.fusion import minmax_normalise
from app.recall.retriever import Hit

LexicalSide = Callable[[str, int], Awaitable[list[Hit]]]
"""(query text, depth) → up to `depth` cards with a positive BM25 score, best first."""


class CardIndex:
    """The cards of one KB version with their unit vectors (rows in card order) and an
    in-process bm25s index over their lexical text."""

    def __init__(self, version: str, cards: Sequence[CategoryCard], vectors: np.ndarray) -> None:
        if len(cards) != len(vectors):
            raise ValueError(f"{len(cards)} cards but {len(vectors)} vectors")
        self.version = version
        self.cards = tuple(cards)
        self.vectors = np.asarray(vectors, dtype=np.float32)
        self.by_id: Mapping[str, CategoryCard] = {c.card_id: c for c in self.cards}
        self._row = {c.card_id: i for i, c in enumerate(self.cards)}
        self._stemmer = Stemmer.Stemmer("english")
        self._bm25 = bm25s.BM25(k1=1.5, b=0.75, method="lucene")
        if self.cards:
            self._bm25.index(
                bm25s.tokenize(
                    [c.lexical_text() for c in self.cards],
                    stopwords="en",
                    stemmer=self._stemmer,
                    show_progress=False,
                ),
                show_progress=False,
            )
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.cards)

    def cosines(self, vector: Sequence[float]) -> np.ndarray:
        """Cosine of a unit query vector with every card, in card order."""
        return self.vectors @ np.asarray(vector, dtype=np.float32)

    def dense(self, cosines: np.ndarray, *, depth: int) -> list[Hit]:
        """The `depth` cards with the highest cosine, best first (ties by card order)."""
        order = np.argsort(-cosines, kind="stable")[: min(depth, len(self.cards))]
        return [Hit(self.cards[i].card_id, float(cosines[i])) for i in order]

    async def lexical(self, query: str, depth: int) -> list[Hit]:
        """The in-process BM25 side: up to `depth` cards with a positive score."""
        with self._lock:
            tokens = bm25s.tokenize(
                [query],
                stopwords="en",
                stemmer=self._stemmer,
                return_ids=False,
                show_progress=False,
            )
            if not tokens or not tokens[0] or not self.cards:
                return []
            k = min(depth, len(self.cards))
            docs, scores = self._bm25.retrieve(tokens, k=k, show_progress=False, n_threads=1)
        return [
            Hit(self.cards[int(d)].card_id, float(s))
            for d, s in zip(docs[0], scores[0], strict=True)
            if s > 0
        ]

    def row(self, card_id: str) -> int:
        return self._row[card_id]


async def hybrid_search(
    index: CardIndex, memo: QueryVectorMemo, query: str, top_k: int, lexical: LexicalSide
) -> list[ScoredCard]:
    """Encode the query, ask both sides for KB_DEPTH cards (at least `top_k`), fuse."""
    if top_k < 1:
        raise InvalidRequest(f"top_k must be at least 1, got {top_k}")
    text = " ".join(query.split())
    if not text or not index.cards:
        return []
    depth = max(KB_DEPTH.get(), top_k)
    cosines = index.cosines(await memo.vector(text))
    lexical_hits = await lexical(text, depth)
    return fuse_cards(index, cosines, index.dense(cosines, depth=depth), lexical_hits, top_k=top_k)


def fuse_cards(
    index: CardIndex,
    cosines: np.ndarray,
    dense: Sequence[Hit],
    lexical: Sequence[Hit],
    *,
    top_k: int,
) -> list[ScoredCard]:
    """score = (w_dense·dense_norm + w_bm25·bm25_norm) / (w_dense + w_bm25), best first, each
    side min-max normalised over the whole pool (dense cards + BM25 hits; a BM25 miss scores
    0), so a weak BM25 match keeps its share instead of ranking as a miss in a short list."""
    w_dense, w_bm25 = KB_WEIGHT_DENSE.get(), KB_WEIGHT_BM25.get()
    total = (w_dense + w_bm25) or 1.0
    raw_lexical: dict[str, float] = {}
    for hit in lexical:
        raw_lexical.setdefault(hit.item_id, hit.score)
    candidates = dict.fromkeys([*(h.item_id for h in dense), *raw_lexical])
    pool = [c for c in candidates if c in index.by_id]
    pool_cosines = [float(cosines[index.row(c)]) for c in pool]
    pool_lexical = [raw_lexical.get(c, 0.0) for c in pool]
    dense_norm = minmax_normalise(pool_cosines)
    lexical_norm = minmax_normalise(pool_lexical) if any(pool_lexical) else [0.0] * len(pool)
    out = [
        ScoredCard(
            card=index.by_id[card_id],
            score=(w_dense * d + w_bm25 * b) / total,
            dense=cos,
            lexical=raw_lexical.get(card_id),
            lexical_share=b,
        )
        for card_id, cos, d, b in zip(pool, pool_cosines, dense_norm, lexical_norm, strict=True)
    ]
    out.sort(key=lambda s: (-s.score, -s.dense, s.card.card_id))
    return out[:top_k]
