"""`RerankerTrainConfig`: every knob of reranker training, frozen so it can be hashed into the
model's folder name; `default()` fits the 8-minute CPU budget, `small()` the test suite."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from app.config.settings import DEFAULT_EMBEDDER_MODEL

__all__ = ["RerankerTrainConfig"]


@dataclass(frozen=True)
class RerankerTrainConfig:
    """Data recipe, model shape and optimiser settings of one training run."""

    seed: int = 13
    # data
    min_category_items: int = 2
    max_positives_per_category: int = 24
    hard_negatives: int = 2
    easy_negatives: int = 1
    query_variant_rate: float = 0.3
    modifier_terms_per_category: int = 2
    modifier_pairs: int = 3
    accessory_pairs: int = 800
    esci_negatives: int = 2
    synonym_threshold: float = 0.95
    same_head_threshold: float = 0.8
    heldout_fraction: float = 0.2
    max_train_pairs: int | None = 12_000
    max_heldout_pairs: int | None = 2_000
    # model
    base_model: str = DEFAULT_EMBEDDER_MODEL
    layers: int = 6  # kept encoder layers: the lowest half and the highest half
    max_length: int = 32
    # optimiser
    epochs: int = 1
    batch_size: int = 32
    learning_rate: float = 1e-4
    head_learning_rate: float = 1e-3
    warmup_fraction: float = 0.1
    weight_decay: float = 0.01

    @classmethod
    def default(cls) -> RerankerTrainConfig:
        """The production recipe: all six MiniLM layers on 32 tokens, one epoch over at most
        12k pairs, sized to finish within 8 minutes on two CPU cores (about 7 here)."""
        return cls()

    @classmethod
    def small(cls) -> RerankerTrainConfig:
        """A quick run for tests: the same recipe on fewer pairs and shorter inputs."""
        return cls(
            max_positives_per_category=8,
            accessory_pairs=200,
            max_train_pairs=2_000,
            max_heldout_pairs=800,
            max_length=32,
        )

    def replace(self, **changes: Any) -> RerankerTrainConfig:
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        """Every field, JSON-ready, in declaration order."""
        return dataclasses.asdict(self)
