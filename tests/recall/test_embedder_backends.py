"""The embedder backends against one contract: the bundled MiniLM in process, and the
OpenAI-compatible client over real HTTP to the scripted server, which serves either its
hashed vectors or the real model's (then both backends must give the same vectors)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from app.errors import DependencyDown
from app.recall._openai_embedder import OpenAIEmbedder
from app.recall.embedder import Embedder
from app.recall.local_models import FlagEmbedder
from tests.contracts.embedder_contract import TEXTS, EmbedderContract
from tests.fakes.scripted_embeddings import HASHED_DIMENSION
from tests.fakes.scripted_openai import ScriptedOpenAI, scripted_openai, scripted_openai_server

__all__ = ["scripted_openai", "scripted_openai_server"]


@pytest.fixture(scope="module")
def minilm() -> FlagEmbedder:
    return FlagEmbedder("all-MiniLM-L6-v2", pooling="mean", max_length=128, batch_size=4)


def remote(server: ScriptedOpenAI, model: str = "scripted-hash") -> OpenAIEmbedder:
    return OpenAIEmbedder(server.base_url, model, batch_size=3)


class TestFlagEmbedder(EmbedderContract):
    @pytest.fixture
    def embedder(self, minilm: FlagEmbedder) -> Embedder:
        return minilm


class TestOpenAIEmbedder(EmbedderContract):
    @pytest.fixture
    def embedder(self, scripted_openai: ScriptedOpenAI) -> Iterator[Embedder]:
        client = remote(scripted_openai)
        yield client
        client.close()

    def test_the_dimension_is_probed_and_batches_are_sent_whole(
        self, scripted_openai: ScriptedOpenAI
    ) -> None:
        client = remote(scripted_openai)
        client.encode_documents([f"text {i}" for i in range(7)])
        client.close()
        assert client.dimension == HASHED_DIMENSION
        assert [len(batch) for batch in scripted_openai.embeddings.inputs] == [1, 3, 3, 1]

    def test_a_failing_server_is_dependency_down(self, scripted_openai: ScriptedOpenAI) -> None:
        client = remote(scripted_openai)
        scripted_openai.embeddings.status = 503
        with pytest.raises(DependencyDown, match="embedder"):
            client.encode_queries(["usb cable"])
        client.close()


def test_remote_and_local_backends_agree_on_the_same_model(
    scripted_openai: ScriptedOpenAI, minilm: FlagEmbedder
) -> None:
    scripted_openai.embeddings.embed = lambda texts: minilm.encode_documents(texts).tolist()
    client = remote(scripted_openai, "all-MiniLM-L6-v2")
    try:
        assert client.dimension == minilm.dimension
        local = minilm.encode_documents(TEXTS)
        served = client.encode_documents(TEXTS)
    finally:
        client.close()
    assert np.allclose(served, local, atol=1e-5)
