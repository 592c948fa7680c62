"""Labelled (query, item) examples a catalog may bring beyond its items, and the evaluation
set no training pair may touch. The demo datasets bring both (see `demo_labels`); an
imported catalog brings neither, and training then learns from its own categories alone."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.catalog.product_nouns import normalise_query

__all__ = ["EvaluationSet", "LabelledExample", "TrainingLabels"]


@dataclass(frozen=True)
class EvaluationSet:
    """Docids and queries of an evaluation set: no training pair may use either."""

    item_ids: frozenset[str] = frozenset()
    queries: frozenset[str] = frozenset()

    def allows_query(self, query: str) -> bool:
        return normalise_query(query) not in self.queries


@dataclass(frozen=True)
class LabelledExample:
    """One labelled (query, product): E exact, S substitute, C complement, I irrelevant."""

    query: str
    item_id: str
    title: str
    label: str
    source: str


@dataclass(frozen=True)
class TrainingLabels:
    """What a catalog brings for training beyond its items."""

    evaluation: EvaluationSet = field(default_factory=EvaluationSet)
    examples: tuple[LabelledExample, ...] = ()
