"""Lexical scores of documents added to a built BM25 index after its build (live updates):
scored with the index's own term statistics (document count, document frequencies, k1, b),
so their scores sit on the same scale as the built documents'. Length normalisation is
neutral (the build's average length is not saved); the next build scores them exactly."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import bm25s
import numpy as np


@dataclass(frozen=True)
class SideDoc:
    """A document outside the built index: its term counts and its filter payload."""

    item_id: str
    terms: Mapping[str, int]
    payload: Mapping[str, Any]


class SideScorer:
    """BM25 (Lucene variant) of side documents against the built index's statistics."""

    def __init__(self, retriever: bm25s.BM25) -> None:
        self._vocab: dict[str, int] = dict(retriever.vocab_dict)
        indptr = np.asarray(retriever.scores["indptr"])
        nnz = len(retriever.scores["indices"])
        if len(indptr) == len(self._vocab):
            indptr = np.append(indptr, nnz)
        self._df = np.diff(indptr)
        self._n = int(retriever.scores["num_docs"])
        self._k1 = float(retriever.k1)
        self._b = float(retriever.b)

    def document(self, item_id: str, tokens: Sequence[str], payload: Mapping[str, Any]) -> SideDoc:
        """A side document from its (already tokenised) text."""
        return SideDoc(item_id, Counter(tokens), dict(payload))

    def score(self, query: Sequence[str], doc: SideDoc) -> float:
        """Sum over query tokens (repeats count, as in the built index) of idf x tf part."""
        total = 0.0
        for token in query:
            tf = doc.terms.get(token, 0)
            if not tf:
                continue
            pos = self._vocab.get(token)
            df = int(self._df[pos]) if pos is not None and pos < len(self._df) else 0
            idf = math.log(1 + (self._n - df + 0.5) / (df + 0.5))
            total += idf * tf / (self._k1 + tf)
        return total
