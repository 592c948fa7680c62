"""The recall sources against one contract, on a real sample of the catalog: BM25 (bm25s), the
dense source (the bundled MiniLM and a Qdrant Edge shard), and the memo in front of BM25."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator, Mapping
from pathlib import Path

import pytest

from app.catalog.item import Item
from app.catalog.loader import load_catalog
from app.config.settings import Settings
from app.recall._edge_store import EdgeVectorStore
from app.recall.bm25 import Bm25Index
from app.recall.bm25_retriever import Bm25Retriever
from app.recall.breakers import BREAKERS
from app.recall.dense_retriever import DenseRetriever
from app.recall.index_manifest import dense_text
from app.recall.local_models import FlagEmbedder
from app.recall.memo_retriever import MemoRetriever
from app.recall.retriever import Retriever
from app.recall.search_cache import SearchCache
from app.recall.vector_store import VectorPoint, item_payload
from tests.contracts.retriever_contract import RetrieverContract

PER_PLATFORM = 60
COLLECTION = "catalog"
DESCRIPTION_CHARS = 200


@pytest.fixture(scope="module")
def sample() -> dict[str, Item]:
    """The first items of each platform of the real catalog, by id."""
    taken: dict[str, list[Item]] = {}
    for item in load_catalog(Settings().data_dir).items:
        bucket = taken.setdefault(item.platform, [])
        if len(bucket) < PER_PLATFORM:
            bucket.append(item)
    return {i.item_id: i for bucket in taken.values() for i in bucket}


@pytest.fixture(scope="module")
def bm25_index(sample: dict[str, Item]) -> Bm25Index:
    return Bm25Index.build(list(sample.values()))


@pytest.fixture(scope="module")
def minilm() -> FlagEmbedder:
    return FlagEmbedder("all-MiniLM-L6-v2", pooling="mean", max_length=128, batch_size=32)


@pytest.fixture(scope="module")
def shard(
    tmp_path_factory: pytest.TempPathFactory, sample: dict[str, Item], minilm: FlagEmbedder
) -> Path:
    root = tmp_path_factory.mktemp("retrievers") / "vectors"
    items = list(sample.values())
    vectors = minilm.encode_documents([dense_text(i, DESCRIPTION_CHARS) for i in items])
    points = [
        VectorPoint(i.item_id, v.tolist(), item_payload(i))
        for i, v in zip(items, vectors, strict=True)
    ]

    async def build() -> None:
        store = EdgeVectorStore(root)
        await store.ensure_collection(COLLECTION, minilm.dimension)
        await store.upsert(COLLECTION, points)
        await store.close()

    asyncio.run(build())
    return root


@pytest.fixture(autouse=True)
def _closed_breakers() -> Iterator[None]:
    BREAKERS.reset()
    yield
    BREAKERS.reset()


class TestBm25Retriever(RetrieverContract):
    @pytest.fixture
    def retriever(self, bm25_index: Bm25Index) -> Retriever:
        return Bm25Retriever(bm25_index)

    @pytest.fixture
    def items(self, sample: dict[str, Item]) -> Mapping[str, Item]:
        return sample


class TestMemoRetriever(RetrieverContract):
    @pytest.fixture
    def retriever(self, bm25_index: Bm25Index) -> Retriever:
        return MemoRetriever(Bm25Retriever(bm25_index), index_version="v-test")

    @pytest.fixture
    def items(self, sample: dict[str, Item]) -> Mapping[str, Item]:
        return sample


class TestDenseRetriever(RetrieverContract):
    @pytest.fixture
    async def retriever(self, shard: Path, minilm: FlagEmbedder) -> AsyncIterator[Retriever]:
        store = EdgeVectorStore(shard)
        yield DenseRetriever(minilm, store, COLLECTION, "v-test", SearchCache())
        await store.close()

    @pytest.fixture
    def items(self, sample: dict[str, Item]) -> Mapping[str, Item]:
        return sample
