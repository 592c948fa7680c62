"""The session's candidate registry: every item a search surfaced, for later stages to read.

item_search writes every candidate it kept (not only the few it shows the model);
price_compare and item_picker read them back by slot. Entries are small and serialisable
so the session store can persist them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["DEFAULT_SLOT", "Candidate", "CandidateRegistry"]

DEFAULT_SLOT = "main"


class Candidate(BaseModel):
    """One recalled item with the scores and the query that found it."""

    model_config = ConfigDict(frozen=True)

    item_id: str
    slot: str = DEFAULT_SLOT
    query: str
    product: str | None = None
    """The product the search asked for, typed (None: the search named none)."""
    recall_score: float
    rank: int = Field(ge=1)
    source_scores: Mapping[str, float | None] = Field(default_factory=dict)


class CandidateRegistry(BaseModel):
    """Candidates per slot in recall order; a new search of a slot replaces that slot."""

    by_slot: dict[str, list[Candidate]] = Field(default_factory=dict)

    def replace(self, slot: str, candidates: Iterable[Candidate]) -> None:
        """Store the candidates of a fresh search of `slot`."""
        self.by_slot[slot] = list(candidates)

    def slot(self, slot: str = DEFAULT_SLOT) -> list[Candidate]:
        """Candidates of one slot, best first (empty when never searched)."""
        return list(self.by_slot.get(slot, []))

    def slots(self) -> list[str]:
        """Slots that have candidates."""
        return [s for s, c in self.by_slot.items() if c]

    def item_ids(self) -> set[str]:
        """Every candidate id in every slot."""
        return {c.item_id for cands in self.by_slot.values() for c in cands}

    def clear(self) -> None:
        """Forget every candidate (a new shopping need)."""
        self.by_slot.clear()
