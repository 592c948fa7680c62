"""The embedder: the real bundled MiniLM through FlagModel, and the OpenAI-compatible backend
against a real HTTP server on loopback."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import numpy as np
import pytest

from app.config.settings import Settings
from app.errors import ConfigError, DependencyDown
from app.recall._flag_embedder import FlagEmbedder, resolve_model_path
from app.recall._openai_embedder import OpenAIEmbedder
from app.recall.embedder import Embedder, build_embedder, length_sorted_batches


@pytest.fixture(scope="module")
def minilm() -> FlagEmbedder:
    return FlagEmbedder("all-MiniLM-L6-v2", pooling="mean", max_length=128, batch_size=4)


def test_similar_titles_are_closer_than_unrelated_ones(minilm: FlagEmbedder) -> None:
    mouse, gaming_mouse, knife, toner = minilm.encode_documents(
        [
            "wireless gaming mouse",
            "Logitech G502 Hero gaming mouse, 25K sensor",
            "stainless steel kitchen knife",
            "HP 26A black LaserJet toner cartridge",
        ]
    )
    assert mouse @ gaming_mouse > 0.5
    assert mouse @ gaming_mouse > mouse @ knife + 0.3
    assert mouse @ gaming_mouse > mouse @ toner + 0.3


def test_vectors_are_unit_length_in_input_order_whatever_the_batching(minilm: FlagEmbedder) -> None:
    texts = ["a", "a much longer product title with many words in it", "usb cable", "lamp"] * 3
    batched = minilm.encode_documents(texts)
    one_by_one = np.vstack([minilm.encode_documents([t]) for t in texts])
    assert batched.shape == (12, minilm.dimension) == (12, 384)
    assert np.allclose(np.linalg.norm(batched, axis=1), 1.0, atol=1e-5)
    assert np.allclose(batched, one_by_one, atol=1e-4)
    assert np.allclose(minilm.encode_queries(["usb cable"])[0], batched[2], atol=1e-5)


def test_progress_reports_every_text(minilm: FlagEmbedder) -> None:
    seen: list[int] = []
    minilm.encode_documents([f"item {i}" for i in range(10)], progress=seen.append)
    assert sum(seen) == 10
    assert seen == [4, 4, 2]


def test_batches_group_texts_of_similar_length() -> None:
    texts = ["xx", "x" * 50, "x", "x" * 40, "xxx"]
    assert length_sorted_batches(texts, 2) == [[1, 3], [4, 0], [2]]


def test_model_identity_names_pooling_and_length(minilm: FlagEmbedder) -> None:
    assert minilm.model_id == "all-MiniLM-L6-v2|mean|128"
    assert isinstance(minilm, Embedder)
    assert not minilm.remote


def test_an_unknown_model_is_a_configuration_error() -> None:
    with pytest.raises(ConfigError, match="neither a folder nor in the local model cache"):
        resolve_model_path("BAAI/definitely-not-cached-here")


class _EmbeddingsHandler(BaseHTTPRequestHandler):
    """An OpenAI-compatible /embeddings endpoint returning deterministic vectors."""

    fail = False
    requests: ClassVar[list[dict[str, object]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append(
            {"path": self.path, "auth": self.headers.get("Authorization"), **body}
        )
        if type(self).fail:
            self.send_response(503)
            self.end_headers()
            return
        data = [
            {"index": i, "embedding": [float(len(text)), 1.0, 0.0]}
            for i, text in reversed(list(enumerate(body["input"])))
        ]
        payload = json.dumps({"data": data, "model": body["model"]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        return


@pytest.fixture
def embeddings_server() -> Iterator[str]:
    _EmbeddingsHandler.fail = False
    _EmbeddingsHandler.requests = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _EmbeddingsHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def test_remote_embedder_over_http(embeddings_server: str) -> None:
    settings = Settings(
        embedder_backend="openai",
        embedder_url=embeddings_server,
        embedder_model="remote-mini",
        embedder_api_key="sk-test",
        embedder_batch_size=2,
    )
    embedder = build_embedder(settings)
    assert isinstance(embedder, OpenAIEmbedder)
    assert embedder.remote
    assert embedder.dimension == 3
    assert embedder.model_id == "openai:remote-mini"
    vectors = embedder.encode_documents(["abcd", "ab", "abc"])
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    expected = np.array([[4, 1, 0], [2, 1, 0], [3, 1, 0]], dtype=np.float32)
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    assert np.allclose(vectors, expected)
    sent = _EmbeddingsHandler.requests
    assert all(r["path"] == "/v1/embeddings" and r["auth"] == "Bearer sk-test" for r in sent)
    assert [len(r["input"]) for r in sent[1:]] == [2, 1]  # type: ignore[arg-type]


def test_remote_embedder_failure_is_dependency_down(embeddings_server: str) -> None:
    embedder = OpenAIEmbedder(embeddings_server, "remote-mini", dimension=3)
    _EmbeddingsHandler.fail = True
    with pytest.raises(DependencyDown, match="embedder"):
        embedder.encode_queries(["usb cable"])


def test_remote_backend_needs_a_url() -> None:
    with pytest.raises(ConfigError, match="EMBEDDER_URL"):
        build_embedder(Settings(embedder_backend="openai", embedder_url=None))
