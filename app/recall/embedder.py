"""The `Embedder` protocol and the factory that picks the local or the remote model.

Local (default): FlagEmbedding's `FlagModel` over the bundled all-MiniLM-L6-v2 with mean
pooling and normalised vectors, fully offline. Remote: any OpenAI-compatible
`/embeddings` endpoint. Both return float32 rows of unit length.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from app.config.settings import Settings

__all__ = ["Embedder", "Progress", "build_embedder", "length_sorted_batches", "normalise_rows"]

Progress = Callable[[int], None]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit-length vectors; documents and queries may differ."""

    model_id: str
    dimension: int
    remote: bool

    def encode_documents(
        self, texts: Sequence[str], *, progress: Progress | None = None
    ) -> np.ndarray:
        """One row per text, in input order; `progress(n)` is called as batches finish."""
        ...

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """One row per query text, in input order."""
        ...


def length_sorted_batches(texts: Sequence[str], batch_size: int) -> list[list[int]]:
    """Indices of `texts` grouped into batches of similar length, longest first."""
    order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
    return [order[i : i + batch_size] for i in range(0, len(order), batch_size)]


def normalise_rows(vectors: np.ndarray) -> np.ndarray:
    """Scale every row to unit length (zero rows stay zero)."""
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.where(norms == 0, 1, norms)).astype(np.float32)


def build_embedder(settings: Settings) -> Embedder:
    """The embedder the settings ask for."""
    if settings.embedder_backend == "openai":
        from app.recall._openai_embedder import OpenAIEmbedder

        return OpenAIEmbedder.from_settings(settings)
    from app.recall._flag_embedder import FlagEmbedder

    return FlagEmbedder.from_settings(settings)
