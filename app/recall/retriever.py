"""The `Retriever` protocol: one recall source with a stable name, and the hit it returns.

A retriever returns hits sorted by its own score, `[]` when nothing matches, and raises
when it fails; the pipeline decides what a failure means. New sources plug in by
implementing this protocol, without touching the pipeline.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from app.recall.filters import SearchFilters

__all__ = ["Hit", "Retriever"]


@dataclass(frozen=True)
class Hit:
    """One candidate from one source; `payload` is whatever the source knows of the item."""

    item_id: str
    score: float
    payload: Mapping[str, Any] = field(default_factory=dict)


@runtime_checkable
class Retriever(Protocol):
    """A recall source."""

    source: str

    async def recall(self, query: str, filters: SearchFilters, *, top_k: int) -> list[Hit]:
        """Up to `top_k` hits passing `filters`, best first by this source's score."""
        ...
