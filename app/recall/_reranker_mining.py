"""Vector helpers of reranker data building: item vectors from the dense index, exact nearest
neighbours among candidates, near-synonym groups of categories and the held-out split."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Sequence

import numpy as np

from app.catalog.product_nouns import category_key, head


class VectorTable:
    """Unit vectors of catalog items as one matrix, addressed by item id."""

    def __init__(self, ids: Sequence[str], matrix: np.ndarray) -> None:
        self.ids = list(ids)
        self.matrix = np.ascontiguousarray(matrix, dtype=np.float32)
        self._row = {item_id: i for i, item_id in enumerate(self.ids)}

    def __contains__(self, item_id: object) -> bool:
        return item_id in self._row

    def rows(self, item_ids: Iterable[str]) -> np.ndarray:
        """Row numbers of the given ids (all must be present)."""
        return np.fromiter((self._row[i] for i in item_ids), dtype=np.int64)

    def ranked(
        self, anchor_ids: Sequence[str], candidate_ids: Sequence[str], *, limit: int
    ) -> np.ndarray:
        """For each anchor, the indices of its `limit` most similar candidates, best first."""
        if not anchor_ids or not candidate_ids:
            return np.zeros((len(anchor_ids), 0), dtype=np.int64)
        sims = self.matrix[self.rows(anchor_ids)] @ self.matrix[self.rows(candidate_ids)].T
        limit = min(limit, sims.shape[1])
        top = np.argpartition(-sims, limit - 1, axis=1)[:, :limit]
        order = np.argsort(-np.take_along_axis(sims, top, axis=1), axis=1, kind="stable")
        return np.take_along_axis(top, order, axis=1)

    def centroid_ranked(
        self, anchor_ids: Sequence[str], candidate_ids: Sequence[str]
    ) -> np.ndarray:
        """Candidate indices from most to least similar to the anchors' mean vector."""
        if not anchor_ids or not candidate_ids:
            return np.zeros(0, dtype=np.int64)
        centre = self.matrix[self.rows(anchor_ids)].mean(axis=0)
        sims = self.matrix[self.rows(candidate_ids)] @ centre
        return np.argsort(-sims, kind="stable")


class _UnionFind:
    def __init__(self, names: Iterable[str]) -> None:
        self._parent = {name: name for name in names}

    def find(self, name: str) -> str:
        root = name
        while self._parent[root] != root:
            root = self._parent[root]
        while self._parent[name] != root:
            self._parent[name], name = root, self._parent[name]
        return root

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            low, high = sorted((ra, rb))
            self._parent[high] = low


def similar_text_groups(
    texts: Sequence[str],
    vectors: np.ndarray,
    threshold: float,
    *,
    by_words: bool,
    same_head_threshold: float = 1.0,
) -> dict[str, str]:
    """Group texts whose embeddings are at least `threshold` alike. With `by_words`, texts are
    category names and also group when they share a head and are `same_head_threshold` alike
    or one is a narrower form of the other ("printers" / "laser printers"), or when synonyms
    make them one ("laptops" / "notebook"). Each text maps to its group's smallest member."""
    uf = _UnionFind(texts)
    sims = vectors @ vectors.T
    for a, b in np.argwhere(np.triu(sims >= threshold, k=1)):
        uf.union(texts[a], texts[b])
    if by_words:
        keys = [category_key(text) for text in texts]
        by_head: dict[str | None, list[int]] = defaultdict(list)
        for i, text in enumerate(texts):
            by_head[head(text)].append(i)
        for members in by_head.values():
            for n, a in enumerate(members):
                for b in members[n + 1 :]:
                    narrower = keys[a] <= keys[b] or keys[b] <= keys[a]
                    if narrower or sims[a, b] >= same_head_threshold:
                        uf.union(texts[a], texts[b])
        by_key: dict[frozenset[str], str] = {}
        for text, key in zip(texts, keys, strict=True):
            uf.union(by_key.setdefault(key, text), text)
    return {text: uf.find(text) for text in texts}


def heldout_groups(groups: Iterable[str], fraction: float, seed: int) -> frozenset[str]:
    """The groups whose seeded hash falls under `fraction`: a stable, order-free choice."""
    chosen = set()
    for group in set(groups):
        digest = hashlib.sha256(f"{seed}|{group}".encode()).digest()
        if int.from_bytes(digest[:8], "big") / 2**64 < fraction:
            chosen.add(group)
    return frozenset(chosen)


def binary_auc(labels: Sequence[float], scores: Sequence[float] | np.ndarray) -> float:
    """ROC AUC of scores against 0/1 labels (ties count half); NaN with one class only."""
    y = np.asarray(labels, dtype=np.float64) >= 0.5
    s = np.asarray(scores, dtype=np.float64)
    positives, negatives = int(y.sum()), int((~y).sum())
    if positives == 0 or negatives == 0:
        return float("nan")
    order = np.argsort(s, kind="mergesort")
    ranks = np.empty(len(s), dtype=np.float64)
    sorted_scores = s[order]
    i = 0
    while i < len(s):
        j = i
        while j + 1 < len(s) and sorted_scores[j + 1] == sorted_scores[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return float((ranks[y].sum() - positives * (positives + 1) / 2) / (positives * negatives))
