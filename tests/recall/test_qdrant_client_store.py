"""The qdrant-client store: the vector-store contract on the in-memory engine, and how a
real server's failures are classified (loopback stand-ins for an unreachable, slow or
refusing server)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from app.config.registry import REGISTRY
from app.errors import ConfigError, DependencyDown, IndexMissing
from app.recall._edge_store import EdgeVectorStore
from app.recall._qdrant_server_store import QdrantServerStore
from app.recall.filters import SearchFilters
from app.recall.vector_store import VectorStore, open_vector_store
from tests.contracts.vector_store_contract import COLLECTION, DIM, VectorStoreContract

pytestmark = [
    pytest.mark.filterwarnings("ignore:Payload indexes have no effect:UserWarning"),
    pytest.mark.filterwarnings("ignore:Local mode performs exact:UserWarning"),
]


class TestQdrantClientStore(VectorStoreContract):
    @pytest.fixture
    async def store(self) -> AsyncIterator[VectorStore]:
        store = QdrantServerStore.in_memory()
        yield store
        await store.close()


Responder = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


async def loopback(respond: Responder) -> tuple[asyncio.Server, str]:
    server = await asyncio.start_server(respond, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    return server, f"http://127.0.0.1:{port}"


def answering(status: int) -> Responder:
    """A stand-in server answering every request with `status` and a Qdrant-style body."""

    async def respond(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        length = next(
            (
                int(line.split(b":")[1])
                for line in head.split(b"\r\n")
                if b"content-length" in line.lower()
            ),
            0,
        )
        await reader.readexactly(length)
        body = json.dumps({"status": {"error": f"stand-in {status}"}, "time": 0}).encode()
        writer.write(
            f"HTTP/1.1 {status} X\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n".encode()
            + body
        )
        await writer.drain()
        writer.close()

    return respond


async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """A stand-in server that accepts the request and never answers."""
    await asyncio.sleep(30)
    writer.close()


async def test_an_unreachable_server_is_dependency_down() -> None:
    server, url = await loopback(silent)
    server.close()
    await server.wait_closed()
    store = QdrantServerStore.connect(url)
    assert store.remote
    with pytest.raises(DependencyDown) as caught:
        await store.search(COLLECTION, [0.1] * DIM, SearchFilters(), limit=3)
    assert caught.value.name == "qdrant"
    await store.close()


async def test_a_query_slower_than_the_timeout_is_dependency_down() -> None:
    server, url = await loopback(silent)
    store = QdrantServerStore.connect(url)
    try:
        with (
            REGISTRY.overridden(VECTOR_QUERY_TIMEOUT_S=0.2),
            pytest.raises(DependencyDown, match=r"timed out after 0\.2s"),
        ):
            await store.search(COLLECTION, [0.1] * DIM, SearchFilters(), limit=3)
    finally:
        await store.close()
        server.close()


@pytest.mark.parametrize(
    ("status", "error"),
    [(404, IndexMissing), (400, ConfigError), (403, ConfigError), (500, DependencyDown)],
)
async def test_server_answers_are_classified(status: int, error: type[Exception]) -> None:
    server, url = await loopback(answering(status))
    store = QdrantServerStore.connect(url)
    try:
        with pytest.raises(error) as caught:
            await store.count(COLLECTION, SearchFilters.build(platforms="amazon"))
        if status != 500:
            assert not isinstance(caught.value, DependencyDown)
    finally:
        await store.close()
        server.close()


def test_the_facade_picks_the_server_only_when_a_url_is_given(tmp_path: Path) -> None:
    remote = open_vector_store(qdrant_url="http://127.0.0.1:6333", edge_root=tmp_path)
    assert isinstance(remote, QdrantServerStore)
    assert remote.remote
    local = open_vector_store(qdrant_url=None, edge_root=tmp_path)
    assert isinstance(local, EdgeVectorStore)
    assert not local.remote
