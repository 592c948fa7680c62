"""Rank fusion of per-source hit lists: RRF, weighted min-max and CombMNZ, as pure functions.

Each function takes the hit lists of every source (best first, keyed by source name, in a
fixed source order) and returns one fused list. Scores are never compared across sources
except through the chosen fusion, and ties break deterministically.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from app.errors import InvalidRequest
from app.recall.retriever import Hit

__all__ = [
    "DEFAULT_RRF_K",
    "DEFAULT_WEIGHT",
    "FusedHit",
    "FusionMethod",
    "combmnz",
    "fuse",
    "minmax_normalise",
    "near_best_cut",
    "rrf",
    "weighted_minmax",
]

FusionMethod = Literal["rrf", "weighted", "combmnz"]
DEFAULT_RRF_K = 60
DEFAULT_WEIGHT = 1.0


@dataclass(frozen=True)
class FusedHit:
    """One fused candidate: its fused score, each source's raw score (None where that source
    missed it), its best rank in any source (1-based) and the payloads of all sources merged."""

    item_id: str
    score: float
    source_scores: Mapping[str, float | None]
    best_rank: int
    payload: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class _Pooled:
    """An item while pooling: where each source ranked it and what it scored there."""

    ranks: dict[str, int] = field(default_factory=dict)
    scores: dict[str, float] = field(default_factory=dict)
    payloads: list[Mapping[str, Any]] = field(default_factory=list)

    def payload(self) -> Mapping[str, Any]:
        """The payloads merged, the first source's value winning for a key both carry."""
        if len(self.payloads) == 1:
            return MappingProxyType(dict(self.payloads[0]))
        merged: dict[str, Any] = {}
        for payload in reversed(self.payloads):
            merged.update(payload)
        return MappingProxyType(merged)


# (rank from 1, score min-max normalised over its source, source weight) -> contribution
_Contribution = Callable[[int, float, float], float]


def minmax_normalise(scores: Sequence[float]) -> list[float]:
    """Scale scores to [0, 1] over this list; one score or all-equal scores become 1.0."""
    if not scores:
        return []
    low, high = min(scores), max(scores)
    if high == low:
        return [1.0] * len(scores)
    span = high - low
    return [(s - low) / span for s in scores]


def rrf(
    runs: Mapping[str, Sequence[Hit]],
    *,
    k: float = DEFAULT_RRF_K,
    weights: Mapping[str, float] | None = None,
    limit: int | None = None,
) -> list[FusedHit]:
    """Reciprocal rank fusion: score = Σ_sources weight_s / (k + rank_s), rank from 1."""
    if not math.isfinite(k) or k < 0:
        raise InvalidRequest(f"RRF k must be a finite number >= 0, got {k}")
    return _fuse(runs, weights, lambda rank, _norm, w: w / (k + rank), limit)


def weighted_minmax(
    runs: Mapping[str, Sequence[Hit]],
    *,
    weights: Mapping[str, float] | None = None,
    limit: int | None = None,
) -> list[FusedHit]:
    """Σ_sources weight_s × (score min-max normalised over that source's own hits)."""
    return _fuse(runs, weights, lambda _rank, norm, w: w * norm, limit)


def combmnz(
    runs: Mapping[str, Sequence[Hit]],
    *,
    weights: Mapping[str, float] | None = None,
    limit: int | None = None,
) -> list[FusedHit]:
    """CombMNZ: the weighted min-max sum times how many (non-zero-weight) sources found it."""
    w = _checked_weights(runs, weights)
    fused = weighted_minmax(runs, weights=weights)
    out = []
    for hit in fused:
        found_by = sum(1 for s, raw in hit.source_scores.items() if raw is not None and w[s] > 0)
        out.append(
            FusedHit(
                hit.item_id, hit.score * found_by, hit.source_scores, hit.best_rank, hit.payload
            )
        )
    return _sorted(out)[:limit]


def fuse(
    method: FusionMethod,
    runs: Mapping[str, Sequence[Hit]],
    *,
    k: float = DEFAULT_RRF_K,
    weights: Mapping[str, float] | None = None,
    limit: int | None = None,
) -> list[FusedHit]:
    """Fuse with the named method, best first, the first `limit` only when given; `k` only
    matters for RRF."""
    if method == "rrf":
        return rrf(runs, k=k, weights=weights, limit=limit)
    if method == "weighted":
        return weighted_minmax(runs, weights=weights, limit=limit)
    if method == "combmnz":
        return combmnz(runs, weights=weights, limit=limit)
    raise InvalidRequest(f"unknown fusion method {method!r}; known: rrf, weighted, combmnz")


def near_best_cut(
    fused: Sequence[FusedHit],
    runs: Mapping[str, Sequence[Hit]],
    *,
    limit: int,
    ratio: float,
    head: float,
) -> list[FusedHit]:
    """`limit` of the `fused` hits, in fused order: the first `head` share of them by fused
    score, then the hits some source scored within `ratio` of its best score, then the rest
    by fused score. A source's near-best hits match as well as its best (every BM25 hit of a
    brand query holds the brand), however far min-max spreads them; 0 < ratio <= 1."""
    if len(fused) <= limit:
        return list(fused)
    near: set[str] = set()
    for hits in runs.values():
        best = max((h.score for h in hits), default=0.0)
        if best > 0:
            near.update(h.item_id for h in hits if h.score >= ratio * best)
    taken = {h.item_id for h in fused[: int(limit * head)]}
    for wanted in (near, None):
        for hit in fused:
            if len(taken) >= limit:
                break
            if wanted is None or hit.item_id in wanted:
                taken.add(hit.item_id)
    return [h for h in fused if h.item_id in taken]


def _fuse(
    runs: Mapping[str, Sequence[Hit]],
    weights: Mapping[str, float] | None,
    contribution: _Contribution,
    limit: int | None = None,
) -> list[FusedHit]:
    """Pool the runs, sum each source's contribution in source order, sort, and build the
    hits of the first `limit` (all when None)."""
    w = _checked_weights(runs, weights)
    pooled: dict[str, _Pooled] = {}
    totals: dict[str, float] = {}
    for source, hits in runs.items():
        unique = _first_occurrences(hits)
        norms = minmax_normalise([h.score for h in unique])
        for rank, (hit, norm) in enumerate(zip(unique, norms, strict=True), start=1):
            entry = pooled.setdefault(hit.item_id, _Pooled())
            entry.ranks[source] = rank
            entry.scores[source] = hit.score
            entry.payloads.append(hit.payload)
            totals[hit.item_id] = totals.get(hit.item_id, 0.0) + contribution(rank, norm, w[source])
    best = {item_id: min(entry.ranks.values()) for item_id, entry in pooled.items()}
    order = sorted(pooled, key=lambda i: (-totals[i], best[i], i))[:limit]
    return [
        FusedHit(
            item_id=item_id,
            score=totals[item_id],
            source_scores=MappingProxyType({s: pooled[item_id].scores.get(s) for s in runs}),
            best_rank=best[item_id],
            payload=pooled[item_id].payload(),
        )
        for item_id in order
    ]


def _first_occurrences(hits: Sequence[Hit]) -> list[Hit]:
    """A source's hits with repeated item ids dropped (its best occurrence is kept)."""
    seen: set[str] = set()
    unique = []
    for hit in hits:
        if hit.item_id not in seen:
            seen.add(hit.item_id)
            unique.append(hit)
    return unique


def _checked_weights(
    runs: Mapping[str, Sequence[Hit]], weights: Mapping[str, float] | None
) -> dict[str, float]:
    """The weight of every source in `runs` (default 1.0); negative or non-finite is refused."""
    given = weights or {}
    out = {}
    for source in runs:
        value = float(given.get(source, DEFAULT_WEIGHT))
        if not math.isfinite(value) or value < 0:
            raise InvalidRequest(
                f"fusion weight of {source!r} must be finite and >= 0, got {value}"
            )
        out[source] = value
    return out


def _sorted(hits: list[FusedHit]) -> list[FusedHit]:
    """Fused score descending, then best individual rank, then item id."""
    return sorted(hits, key=lambda h: (-h.score, h.best_rank, h.item_id))
