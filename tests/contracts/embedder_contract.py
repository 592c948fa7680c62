"""The behaviour every `Embedder` backend must show: float32 unit-length rows of the declared
dimension, one per text in input order whatever the batching, queries in the same space,
progress for every text, and the same vector for the same text.

Backend test classes inherit `EmbedderContract` and provide an `embedder` fixture.
"""

from __future__ import annotations

import numpy as np
import pytest

from app.recall.embedder import Embedder

TEXTS = (
    "wireless gaming mouse",
    "Logitech wireless gaming mouse with 25K sensor",
    "stainless steel kitchen knife",
    "HP 26A black LaserJet toner cartridge",
    "usb-c charging cable 2m",
    "a",
    "",
)


def _unit_rows(vectors: np.ndarray) -> bool:
    return bool(np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4))


class EmbedderContract:
    """Inherit and provide an `embedder` fixture returning the backend under test."""

    @pytest.fixture
    def embedder(self) -> Embedder:
        raise NotImplementedError

    def test_is_an_embedder(self, embedder: Embedder) -> None:
        assert isinstance(embedder, Embedder)
        assert isinstance(embedder.model_id, str)
        assert embedder.model_id
        assert isinstance(embedder.dimension, int)
        assert embedder.dimension > 0
        assert isinstance(embedder.remote, bool)

    def test_one_unit_row_per_text_of_the_declared_dimension(self, embedder: Embedder) -> None:
        vectors = embedder.encode_documents(TEXTS)
        assert isinstance(vectors, np.ndarray)
        assert vectors.dtype == np.float32
        assert vectors.shape == (len(TEXTS), embedder.dimension)
        assert _unit_rows(vectors[:-1]), "every non-empty text gets a unit-length vector"

    def test_rows_follow_the_input_order_whatever_the_batching(self, embedder: Embedder) -> None:
        together = embedder.encode_documents(TEXTS)
        alone = np.vstack([embedder.encode_documents([t]) for t in TEXTS])
        backwards = embedder.encode_documents(TEXTS[::-1])[::-1]
        assert np.allclose(together, alone, atol=1e-4)
        assert np.allclose(together, backwards, atol=1e-4)
        assert len({tuple(np.round(row, 4)) for row in together[:5]}) == 5

    def test_the_same_text_gets_the_same_vector(self, embedder: Embedder) -> None:
        first = embedder.encode_documents(["usb-c charging cable 2m"] * 3)
        assert np.allclose(first[0], first[1:], atol=1e-5)
        alone = embedder.encode_documents(["usb-c charging cable 2m"])[0]
        assert np.allclose(first[0], alone, atol=1e-5)

    def test_queries_live_in_the_documents_space(self, embedder: Embedder) -> None:
        documents = embedder.encode_documents(TEXTS[:5])
        queries = embedder.encode_queries(list(TEXTS[:5]))
        assert queries.shape == (5, embedder.dimension)
        assert queries.dtype == np.float32
        assert _unit_rows(queries)
        assert list(np.argmax(queries @ documents.T, axis=1)) == [0, 1, 2, 3, 4]

    def test_related_texts_are_closer_than_unrelated_ones(self, embedder: Embedder) -> None:
        mouse, gaming_mouse, knife, toner, _ = embedder.encode_documents(TEXTS[:5])
        assert mouse @ gaming_mouse > mouse @ knife
        assert mouse @ gaming_mouse > mouse @ toner

    def test_progress_counts_every_text_once(self, embedder: Embedder) -> None:
        seen: list[int] = []
        embedder.encode_documents([f"item number {i}" for i in range(11)], progress=seen.append)
        assert sum(seen) == 11
        assert all(n > 0 for n in seen)

    def test_no_texts_no_rows(self, embedder: Embedder) -> None:
        assert embedder.encode_documents([]).shape == (0, embedder.dimension)
        assert embedder.encode_queries([]).shape == (0, embedder.dimension)
