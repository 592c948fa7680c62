"""The recall pipeline: query every source (concurrently or in turn), then fuse their hits.

Only operational failures of a source (`DependencyDown`, `OSError`, timeouts) can degrade a
search; a bug or a bad request inside a retriever always propagates. Under the loose policy
the other sources still answer and the failure is reported; under the strict one it raises.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal, cast

from app.config.params import recall as recall_params
from app.errors import DependencyDown, InvalidRequest
from app.recall.filters import SearchFilters
from app.recall.fusion import (
    DEFAULT_RRF_K,
    DEFAULT_WEIGHT,
    FusedHit,
    FusionMethod,
    fuse,
    near_best_cut,
)
from app.recall.retriever import Hit, Retriever
from app.telemetry import observe_recall_source

__all__ = [
    "OPERATIONAL_ERRORS",
    "RecallConfig",
    "RecallPipeline",
    "RecallPolicy",
    "RecallResponse",
    "TailSource",
]

RecallPolicy = Literal["loose", "strict"]
OPERATIONAL_ERRORS: tuple[type[BaseException], ...] = (DependencyDown, OSError)
"""What counts as a source being down rather than wrong (`TimeoutError` is an `OSError`)."""

_ERROR_TEXT_CHARS = 200
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RecallConfig:
    """How one recall runs: fusion method and its knobs, failure policy, concurrency, depth.

    `weights` maps a source name to its fusion weight; a source not named weighs 1.0.
    `depth` is how many hits each source is asked for (never fewer than the `top_k` asked).
    `near_best` > 0 cuts the fused list with `near_best_cut` (`cut_head` of it by fused score).
    `tail_share` of the cut goes to the pipeline's `TailSource`, when it has one.
    """

    fusion: FusionMethod = "rrf"
    rrf_k: int = DEFAULT_RRF_K
    weights: Mapping[str, float] = field(default_factory=dict)
    policy: RecallPolicy = "loose"
    parallel: bool = True
    depth: int = 100
    near_best: float = 0.0
    cut_head: float = 0.3
    tail_share: float = 0.0

    def __post_init__(self) -> None:
        if self.fusion not in recall_params.FUSION_METHODS:
            raise InvalidRequest(
                f"unknown fusion method {self.fusion!r}; known: {recall_params.FUSION_METHODS}"
            )
        if self.policy not in recall_params.RECALL_POLICIES:
            raise InvalidRequest(
                f"unknown recall policy {self.policy!r}; known: {recall_params.RECALL_POLICIES}"
            )
        if self.rrf_k < 0:
            raise InvalidRequest(f"rrf_k must be >= 0, got {self.rrf_k}")
        if self.depth < 1:
            raise InvalidRequest(f"depth must be >= 1, got {self.depth}")
        for name in ("near_best", "cut_head", "tail_share"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise InvalidRequest(f"{name} must be in [0, 1], got {getattr(self, name)}")
        for source, weight in self.weights.items():
            if not math.isfinite(weight) or weight < 0:
                raise InvalidRequest(f"weight of {source!r} must be finite and >= 0, got {weight}")
        object.__setattr__(self, "weights", MappingProxyType(dict(self.weights)))

    @classmethod
    def from_params(cls) -> RecallConfig:
        """The configuration in force now, read from the parameter registry."""
        return cls(
            fusion=cast(FusionMethod, recall_params.FUSION_METHOD.get()),
            rrf_k=recall_params.RRF_K.get(),
            weights=recall_params.fusion_weights(),
            policy=cast(RecallPolicy, recall_params.RECALL_POLICY.get()),
            parallel=recall_params.RECALL_PARALLEL.get(),
            depth=recall_params.RECALL_DEPTH.get(),
            near_best=recall_params.RECALL_NEAR_BEST.get(),
            cut_head=recall_params.RECALL_CUT_HEAD.get(),
            tail_share=recall_params.RECALL_SHEET_SHARE.get(),
        )

    def weight(self, source: str) -> float:
        """The fusion weight of `source` (1.0 when not configured)."""
        return self.weights.get(source, DEFAULT_WEIGHT)

    def depth_for(self, top_k: int) -> int:
        """How many hits to ask each source for when `top_k` fused hits are wanted."""
        return max(self.depth, top_k)


@dataclass(frozen=True)
class TailSource:
    """A source that fills the last `RecallConfig.tail_share` of the fused cut: the same
    fusion with it in place of the source it `replaces`, its best hits not already taken.
    The sheet store stands in for BM25 so: items its spec-sheet words find, without those
    words reordering the head (they let accessories for the product in)."""

    retriever: Retriever
    replaces: str


@dataclass(frozen=True)
class RecallResponse:
    """Fused hits plus what each source did: hit count, failure text, time taken."""

    hits: tuple[FusedHit, ...]
    per_source_counts: Mapping[str, int]
    failed_sources: Mapping[str, str]
    timings_ms: Mapping[str, float]
    config: RecallConfig

    @property
    def degraded(self) -> bool:
        """True when some source failed and the hits come from the others only."""
        return bool(self.failed_sources)


@dataclass(frozen=True)
class _Outcome:
    """What one source returned, or how it failed, and how long it took."""

    source: str
    hits: list[Hit]
    error: Exception | None
    ms: float


class RecallPipeline:
    """Runs a fixed set of recall sources and fuses their hits.

    The constructor raises `InvalidRequest` (a `ValueError`) for an empty retriever list or
    two retrievers with the same source name. Without a `config`, every run reads the
    parameter registry at call time.
    """

    def __init__(
        self,
        retrievers: Sequence[Retriever],
        config: RecallConfig | None = None,
        *,
        tail: TailSource | None = None,
    ) -> None:
        if not retrievers:
            raise InvalidRequest("a recall pipeline needs at least one retriever")
        names = [r.source for r in retrievers]
        if tail is not None:
            if tail.replaces not in names:
                raise InvalidRequest(f"the tail source replaces {tail.replaces!r}, not in {names}")
            names.append(tail.retriever.source)
        if any(not isinstance(n, str) or not n.strip() for n in names):
            raise InvalidRequest(f"every retriever needs a non-blank source name, got {names}")
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise InvalidRequest(f"duplicate recall source name(s) {duplicates}")
        self._retrievers = tuple(retrievers)
        self._tail = tail
        self._config = config

    @property
    def sources(self) -> tuple[str, ...]:
        """The source names, in the order their results are fused and reported."""
        return tuple(r.source for r in self._retrievers)

    async def run(
        self,
        query: str,
        filters: SearchFilters,
        *,
        top_k: int,
        config: RecallConfig | None = None,
    ) -> RecallResponse:
        """Up to `top_k` fused hits for `query` among items passing `filters`.

        Loose policy: failed sources are reported in `failed_sources`; if all fail, the first
        `DependencyDown` (in source order) is re-raised, else a `DependencyDown("recall")`.
        Strict policy: the first failure raises (`DependencyDown`). Bugs always propagate.
        """
        if not isinstance(query, str) or not query.strip():
            raise InvalidRequest("the search query is empty")
        if top_k < 1:
            raise InvalidRequest(f"top_k must be >= 1, got {top_k}")
        cfg = config if config is not None else self._config or RecallConfig.from_params()
        depth = cfg.depth_for(top_k)
        retrievers = list(self._retrievers)
        if self._tail is not None and cfg.tail_share > 0:
            retrievers.append(self._tail.retriever)
        if cfg.parallel:
            outcomes = list(
                await asyncio.gather(*(self._call(r, query, filters, depth) for r in retrievers))
            )
        else:
            outcomes = []
            for retriever in retrievers:
                outcomes.append(await self._call(retriever, query, filters, depth))
                if _is_fatal(outcomes[-1], cfg.policy):
                    break
        for outcome in outcomes:
            observe_recall_source(outcome.source, outcome.ms, outcome.error is None)
        _raise_if_fatal(outcomes, cfg.policy)
        return self._respond(outcomes, cfg, top_k)

    async def _call(
        self, retriever: Retriever, query: str, filters: SearchFilters, depth: int
    ) -> _Outcome:
        start = time.perf_counter()
        try:
            hits = await retriever.recall(query, filters, top_k=depth)
        except Exception as exc:
            return _Outcome(retriever.source, [], exc, _ms_since(start))
        return _Outcome(retriever.source, list(hits), None, _ms_since(start))

    def _respond(self, outcomes: list[_Outcome], cfg: RecallConfig, top_k: int) -> RecallResponse:
        failed = {o.source: _error_text(o.error) for o in outcomes if o.error is not None}
        for source, text in failed.items():
            log.warning("recall source %s failed: %s", source, text)
        runs = {o.source: o.hits for o in outcomes}
        tail = self._tail
        tail_hits = runs.pop(tail.retriever.source, None) if tail is not None else None
        weights = {s: cfg.weight(s) for s in runs}
        if tail is None or tail.retriever.source in failed or tail_hits is None:
            fused = _cut(cfg, runs, weights, top_k)
        else:
            fused = _with_tail(cfg, runs, weights, tail, tail_hits, top_k)
        return RecallResponse(
            hits=tuple(fused),
            per_source_counts=MappingProxyType({o.source: len(o.hits) for o in outcomes}),
            failed_sources=MappingProxyType(failed),
            timings_ms=MappingProxyType({o.source: o.ms for o in outcomes}),
            config=cfg,
        )


def _with_tail(
    cfg: RecallConfig,
    runs: Mapping[str, list[Hit]],
    weights: Mapping[str, float],
    tail: TailSource,
    tail_hits: list[Hit],
    top_k: int,
) -> list[FusedHit]:
    """The cut's head, then the best hits of the fusion with the tail source in place of
    the one it replaces; the plain cut's next hits where the tail has too few."""
    head = _cut(cfg, runs, weights, top_k - _tail_places(cfg, top_k))
    source = tail.retriever.source
    swapped = {(source if s == tail.replaces else s): h for s, h in runs.items()}
    swapped[source] = tail_hits
    weighed = {s: cfg.weight(tail.replaces if s == source else s) for s in swapped}
    fused = _then(head, _cut(cfg, swapped, weighed, top_k), top_k)
    if len(fused) < top_k:
        fused = _then(fused, _cut(cfg, runs, weights, top_k), top_k)
    return fused


def _cut(
    cfg: RecallConfig, runs: Mapping[str, list[Hit]], weights: Mapping[str, float], limit: int
) -> list[FusedHit]:
    """The first `limit` fused hits: the configured fusion, then the near-best cut."""
    fused = fuse(
        cfg.fusion,
        runs,
        k=cfg.rrf_k,
        weights=weights,
        limit=None if cfg.near_best > 0 else limit,
    )
    if cfg.near_best > 0:
        fused = near_best_cut(fused, runs, limit=limit, ratio=cfg.near_best, head=cfg.cut_head)
    return fused


def _tail_places(cfg: RecallConfig, top_k: int) -> int:
    """How many of `top_k` places the tail source fills (none of a single place)."""
    return min(top_k - 1, round(top_k * cfg.tail_share))


def _then(first: list[FusedHit], more: list[FusedHit], top_k: int) -> list[FusedHit]:
    """`first`, then the `more` hits it lacks up to `top_k`, scored no higher than the last
    of `first` so the list stays best first."""
    taken = {h.item_id for h in first}
    floor = first[-1].score if first else math.inf
    extra = [
        dataclasses.replace(h, score=min(h.score, floor)) for h in more if h.item_id not in taken
    ]
    return first + extra[: top_k - len(first)]


def _is_fatal(outcome: _Outcome, policy: RecallPolicy) -> bool:
    """A bug always is; an operational failure only under the strict policy."""
    if outcome.error is None:
        return False
    return policy == "strict" or not isinstance(outcome.error, OPERATIONAL_ERRORS)


def _raise_if_fatal(outcomes: list[_Outcome], policy: RecallPolicy) -> None:
    """Raise the first fatal failure in source order, or the all-sources-failed error."""
    for outcome in outcomes:
        if outcome.error is not None and _is_fatal(outcome, policy):
            _raise_operational_or_bug(outcome)
    errors = [o for o in outcomes if o.error is not None]
    if len(errors) < len(outcomes):
        return
    for outcome in errors:
        if isinstance(outcome.error, DependencyDown):
            raise outcome.error
    reason = "all sources failed: " + "; ".join(
        f"{o.source}: {_error_text(o.error)}" for o in errors
    )
    raise DependencyDown("recall", reason) from errors[0].error


def _raise_operational_or_bug(outcome: _Outcome) -> None:
    """Re-raise a bug or a `DependencyDown` as is; wrap other operational errors."""
    error = outcome.error
    if error is None:
        return
    if isinstance(error, DependencyDown) or not isinstance(error, OPERATIONAL_ERRORS):
        raise error
    raise DependencyDown(outcome.source, _error_text(error)) from error


def _error_text(error: BaseException | None) -> str:
    """A short, single-line description of a failure for responses and logs."""
    if error is None:
        return ""
    text = " ".join(f"{type(error).__name__}: {error}".split())
    if len(text) > _ERROR_TEXT_CHARS:
        text = text[: _ERROR_TEXT_CHARS - 1] + "…"
    return text


def _ms_since(start: float) -> float:
    return (time.perf_counter() - start) * 1000.0
