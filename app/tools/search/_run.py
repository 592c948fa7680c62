"""The state of one item_search call, filled in step by step, and the result built from it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from app.config.params.item_search import ITEM_SEARCH_FILTERED_OUT_CAP
from app.recall.pipeline import RecallResponse
from app.recall.trace import CacheLevel
from app.tools.search._args import SearchScope
from app.tools.search._postfilters import Removed
from app.tools.search._probe import PriceVerdict, ProbeFindings
from app.tools.search._relevance import ScoredHit
from app.tools.search._result import (
    AppliedScope,
    BlockedItem,
    ItemSearchResult,
    PriceOnly,
    SearchHit,
)


@dataclass(frozen=True)
class Pass:
    """One recall and its post-filtered hits."""

    response: RecallResponse
    kept: list[ScoredHit]
    removed: Removed
    degraded: str | None


@dataclass
class SearchRun:
    """The state of one item_search call, filled in step by step."""

    scope: SearchScope
    effective: SearchScope = field(init=False)
    cache: CacheLevel | None = None
    relaxed: bool = False
    variants: list[str] = field(default_factory=list)
    hits: list[ScoredHit] = field(default_factory=list)
    removed: Removed = field(default_factory=Removed)
    findings: ProbeFindings | None = None
    sheet_verdict: PriceVerdict | None = None
    absent: str | None = None
    """The asked product, when no item of the catalog names it."""
    notes: list[str] = field(default_factory=list)
    ranking: str | None = None
    """How the hits were ordered: by the relevance model blended in, or fused and why."""
    steps: dict[str, float] = field(default_factory=dict)
    complete: bool = True
    """False once a widening step was skipped or ran without a source or its scores."""

    def __post_init__(self) -> None:
        self.effective = self.scope

    def hit_ids(self) -> set[str]:
        return {h.item_id for h in self.hits}


def build_result(run: SearchRun, response: RecallResponse) -> ItemSearchResult:
    """The tool's result: the hits shown, the scope applied, what was blocked and why."""
    scope = run.effective
    blocked = run.findings.blocked if run.findings else []
    verdict = _verdict(run.findings.price_only if run.findings else None, run.sheet_verdict)
    timings = {f"source_{s}": round(ms, 3) for s, ms in response.timings_ms.items()}
    timings.update(run.steps)
    return ItemSearchResult(
        query=scope.query,
        slot=scope.slot,
        top_k=scope.top_k,
        requested_top_k=scope.requested_top_k,
        hits=[SearchHit.of(h) for h in run.hits],
        applied=AppliedScope(
            platforms=list(scope.platforms),
            price_usd_max=scope.price_max,
            budget_source=scope.budget_source,
            price_usd_min=scope.price_min,
            min_rating=scope.min_rating,
            brand=scope.brand,
            brand_exclude=list(scope.brand_exclude),
            exclude_terms=list(scope.exclude_terms),
            model_number=scope.model_number,
        ),
        removed=run.removed.as_dict(),
        filtered_out=[BlockedItem.of(b) for b in blocked[: ITEM_SEARCH_FILTERED_OUT_CAP.get()]],
        blocked_total=len(blocked),
        price_only=PriceOnly(**vars(verdict)) if verdict else None,
        absent=run.absent,
        relaxed=run.relaxed,
        relaxed_constraints=["min_rating"] if run.relaxed else [],
        expanded=bool(run.variants),
        expansion_variants=run.variants,
        per_source_counts=dict(response.per_source_counts),
        failed_sources=dict(response.failed_sources),
        cache=run.cache,
        notes=run.notes,
        ranking=run.ranking,
        timings_ms=timings,
    )


@contextmanager
def timed(steps: dict[str, float], step: str) -> Iterator[None]:
    """Add the block's milliseconds to `steps[step]`, for the result's timings."""
    start = time.perf_counter()
    try:
        yield
    finally:
        steps[step] = round(steps.get(step, 0.0) + ms_since(start), 3)


def ms_since(start: float) -> float:
    return round((time.perf_counter() - start) * 1000.0, 3)


def _verdict(probed: PriceVerdict | None, sheet: PriceVerdict | None) -> PriceVerdict | None:
    """The budget verdict to report: the probe's when it is about the asked product (no hit
    named it), else the sheet's about the product with its must-haves ("monitor with 4k"),
    which says more than the probe's about whatever the query recalled."""
    if probed is not None and probed.product is not None:
        return probed
    return sheet or probed
