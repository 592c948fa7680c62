"""A warm repeat of item_search costs a lookup: the finished result and the candidates it
registered, kept in process under the typed search (scope, must-haves, asked product), the
parameters in force and the index version; and how a search's hits become candidates."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from app.config.params.cache import (
    SEARCH_CACHE_ENABLED,
    SEARCH_CACHE_TTL_S,
    SEARCH_RESULT_MEMO_ENTRIES,
)
from app.config.registry import REGISTRY
from app.recall.ttl_cache import TtlLru
from app.tools.base import ToolContext
from app.tools.candidates import Candidate
from app.tools.search._args import SearchScope
from app.tools.search._relevance import ScoredHit
from app.tools.search._result import ItemSearchResult
from app.tools.search._run import ms_since


@dataclass(frozen=True)
class Finished:
    """One complete search: what it returned, the scope it ran under and the hits it
    registered as the slot's candidates."""

    result: ItemSearchResult
    effective: SearchScope
    candidates: tuple[ScoredHit, ...]


class SearchMemo:
    """Finished searches of one opened index version; only complete ones are kept (no
    source failed, no widening step skipped), so a repeat never freezes a degraded answer."""

    def __init__(self, index_version: str | Callable[[], str]) -> None:
        self._version = index_version
        self._lru: TtlLru[Finished] = TtlLru()

    def key(
        self, scope: SearchScope, musts: Sequence[str], planned_category: str | None
    ) -> str | None:
        """The memo key of a search, or None when the memo is off: every typed input of the
        search, the parameter layers in force and the index version."""
        if not SEARCH_CACHE_ENABLED.get() or SEARCH_RESULT_MEMO_ENTRIES.get() <= 0:
            return None
        overrides = sorted(REGISTRY.overrides().items())
        return (
            f"{self.index_version}|{REGISTRY.version}|{overrides!r}|{scope!r}|"
            f"{tuple(musts)!r}|{planned_category!r}"
        )

    @property
    def index_version(self) -> str:
        """The index version and catalog generation the memo keys on now."""
        return self._version() if callable(self._version) else self._version

    def get(self, key: str | None) -> Finished | None:
        """The finished search under `key`, if kept and not expired."""
        return None if key is None else self._lru.get(key)

    def put(self, key: str | None, finished: Finished) -> None:
        """Keep a finished search for SEARCH_CACHE_TTL_S."""
        if key is not None:
            self._lru.put(
                key,
                finished,
                ttl_s=SEARCH_CACHE_TTL_S.get(),
                max_entries=SEARCH_RESULT_MEMO_ENTRIES.get(),
            )

    def clear(self) -> None:
        """Forget every finished search."""
        self._lru.clear()

    def __len__(self) -> int:
        return len(self._lru)


def replay(ctx: ToolContext, finished: Finished, started: float) -> ItemSearchResult:
    """A finished search answered again: its candidates registered anew for the slot, its
    result with the in-process cache level and this call's time."""
    register(ctx, finished.effective, list(finished.candidates))
    took = ms_since(started)
    return finished.result.model_copy(
        deep=True, update={"cache": "l1", "timings_ms": {"result_memo": took, "total": took}}
    )


def register(ctx: ToolContext, scope: SearchScope, hits: list[ScoredHit]) -> None:
    """The kept hits (up to the recall pool) become the slot's candidates, replacing its
    earlier ones: deeper than the hits shown, so item_picker finds the product itself under
    accessories that name it."""
    ctx.candidates.replace(
        scope.slot,
        (
            Candidate(
                item_id=h.item_id,
                slot=scope.slot,
                query=scope.query,
                product=scope.product,
                recall_score=h.hit.score,
                rank=rank,
                source_scores=dict(h.hit.source_scores),
            )
            for rank, h in enumerate(hits, start=1)
        ),
    )
