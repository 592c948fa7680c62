"""Congruence: the edge store and qdrant-client's engine, fed the same points, give the same
exact rankings and counts for many random queries and filters."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import numpy as np
import pytest

from app.recall._edge_store import EdgeVectorStore
from app.recall._qdrant_server_store import QdrantServerStore
from app.recall.filters import SearchFilters
from app.recall.vector_store import VectorStore
from tests.contracts.vector_store_contract import (
    FILTER_CASES,
    assert_ranked_like,
    assert_same_ranking,
    catalog,
    random_filters,
    reference_ranking,
)

pytestmark = [
    pytest.mark.filterwarnings("ignore:Payload indexes have no effect:UserWarning"),
    pytest.mark.filterwarnings("ignore:Local mode performs exact:UserWarning"),
]

COLLECTION = "congruence"
SIZE, DIM = 1500, 48


@pytest.fixture
async def stores(tmp_path: Path) -> AsyncIterator[tuple[VectorStore, VectorStore]]:
    edge, client = EdgeVectorStore(tmp_path), QdrantServerStore.in_memory()
    for store in (edge, client):
        await store.ensure_collection(COLLECTION, DIM)
        await store.upsert(COLLECTION, catalog(SIZE, DIM, seed=3))
    yield edge, client
    await edge.close()
    await client.close()


def filter_mix() -> list[SearchFilters]:
    rng = random.Random(97)
    return list(FILTER_CASES.values()) + [random_filters(rng) for _ in range(28)]


async def test_exact_rankings_and_counts_agree(stores: tuple[VectorStore, VectorStore]) -> None:
    edge, client = stores
    points = catalog(SIZE, DIM, seed=3)
    queries = np.random.default_rng(41).standard_normal((6, DIM)).tolist()
    compared = 0
    for filters in filter_mix():
        assert await edge.count(COLLECTION, filters) == await client.count(COLLECTION, filters)
        for query in queries:
            left = await edge.search(COLLECTION, query, filters, limit=20, exact=True)
            right = await client.search(COLLECTION, query, filters, limit=20, exact=True)
            assert_same_ranking(left, right)
            assert_ranked_like(left, reference_ranking(points, query, filters))
            compared += len(left)
    assert compared > 2000


async def test_similar_items_and_retrieval_agree(stores: tuple[VectorStore, VectorStore]) -> None:
    edge, client = stores
    points = catalog(SIZE, DIM, seed=3)
    anchors = [p.item_id for p in points[::150]]
    for item_id in anchors:
        for filters in (SearchFilters(), FILTER_CASES["combined"]):
            left = await edge.similar(COLLECTION, item_id, filters, limit=10)
            right = await client.similar(COLLECTION, item_id, filters, limit=10)
            assert_same_ranking(left, right)
            dropped = [hit.item_id for hit in left[:3]]
            narrowed = [
                await store.similar(
                    COLLECTION, item_id, filters, limit=10, exclude=dropped, same=("category",)
                )
                for store in (edge, client)
            ]
            assert_same_ranking(*narrowed)
            assert not {h.item_id for h in narrowed[0]} & set(dropped)
    from_edge = await edge.retrieve(COLLECTION, anchors)
    from_client = await client.retrieve(COLLECTION, anchors)
    assert [p.item_id for p in from_edge] == [p.item_id for p in from_client] == anchors
    for a, b in zip(from_edge, from_client, strict=True):
        assert dict(a.payload) == dict(b.payload)
        assert np.allclose(a.vector, b.vector, atol=1e-6)
