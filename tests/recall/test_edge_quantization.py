"""Quantized Qdrant Edge collections (INDEX_QUANTIZATION): a search scans compact codes and
rescores with the original vectors, so it returns nearly the exact top hits, with exact
scores, and every filter still holds; an exact search ignores the codes."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from app.config.registry import REGISTRY
from app.recall._edge_store import EdgeVectorStore
from app.recall.filters import SearchFilters
from app.recall.vector_store import VectorPoint
from tests.contracts.vector_store_contract import (
    COLLECTION,
    FILTER_CASES,
    assert_same_ranking,
    catalog,
    reference_ranking,
)

POINTS = 3_000
DIM = 96
CLUSTERS = 40
QUERIES = 36
LIMIT = 10
# Least mean recall@10 against the exact scan on clustered vectors at the default
# VECTOR_OVERSAMPLING (measured: scalar 1.0, binary 0.98).
MIN_RECALL = {"scalar": 0.97, "binary": 0.93}


def clustered(seed: int = 3) -> tuple[list[VectorPoint], np.ndarray]:
    """Points around `CLUSTERS` centres (embeddings cluster; uniform noise is binary
    quantization's worst case) with the contract catalog's payloads, and queries near them."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((CLUSTERS, DIM))
    rows = centres[rng.integers(0, CLUSTERS, POINTS)] + 0.6 * rng.standard_normal((POINTS, DIM))
    queries = centres[rng.integers(0, CLUSTERS, QUERIES)] + 0.6 * rng.standard_normal(
        (QUERIES, DIM)
    )
    payloads = catalog(POINTS, 4)
    points = [
        VectorPoint(p.item_id, rows[i].astype(np.float32).tolist(), p.payload)
        for i, p in enumerate(payloads)
    ]
    return points, queries


async def built(root: Path, points: Sequence[VectorPoint], kind: str) -> EdgeVectorStore:
    """Build and close a collection quantized as `kind`, then open it as a server would."""
    with REGISTRY.overridden(INDEX_QUANTIZATION=kind):
        writer = EdgeVectorStore(root)
        await writer.ensure_collection(COLLECTION, len(points[0].vector))
        await writer.upsert(COLLECTION, points)
        await writer.close()
    return EdgeVectorStore(root)


def cases() -> list[SearchFilters]:
    return [FILTER_CASES[name] for name in sorted(FILTER_CASES) if name != "nothing passes"]


def recall(found: Sequence[str], truth: Sequence[str]) -> float:
    return len(set(found) & set(truth)) / len(truth) if truth else 1.0


@pytest.mark.parametrize("kind", ["scalar", "binary"])
async def test_quantized_search_keeps_the_exact_top_hits_and_the_filters(
    tmp_path: Path, kind: str
) -> None:
    points, queries = clustered()
    store = await built(tmp_path / kind, points, kind)
    plain = await built(tmp_path / "none", points, "none")
    filters = cases()
    scores = []
    try:
        for i, query in enumerate(queries.tolist()):
            where = filters[i % len(filters)]
            reference = reference_ranking(points, query, where)
            truth = [item for item, _ in reference[:LIMIT]]
            hits = await store.search(COLLECTION, query, where, limit=LIMIT)
            assert all(where.matches(h.payload) for h in hits), f"query {i} broke its filter"
            assert len(hits) == len(truth)
            exact_score = dict(reference)
            for hit in hits:  # rescored: the original vectors' cosine, not the codes'
                assert hit.score == pytest.approx(exact_score[hit.item_id], abs=1e-4)
            scores.append(recall([h.item_id for h in hits], truth))
            exact = await store.search(COLLECTION, query, where, limit=LIMIT, exact=True)
            unquantized = await plain.search(COLLECTION, query, where, limit=LIMIT, exact=True)
            assert_same_ranking(exact, unquantized)
    finally:
        await store.close()
        await plain.close()
    assert float(np.mean(scores)) >= MIN_RECALL[kind], f"{kind} recall@10 {np.mean(scores)}"


async def test_the_codes_are_searched_not_only_the_originals(tmp_path: Path) -> None:
    """Binary codes of uniform random vectors, rescored without oversampling, miss some
    exact neighbours: proof that the search reads the codes at all."""
    points = list(catalog(POINTS, 64))
    store = await built(tmp_path, points, "binary")
    queries = np.random.default_rng(9).standard_normal((QUERIES, 64)).tolist()
    found = []
    try:
        with REGISTRY.overridden(VECTOR_OVERSAMPLING=1.0):
            for query in queries:
                truth = [i for i, _ in reference_ranking(points, query, SearchFilters())[:LIMIT]]
                hits = await store.search(COLLECTION, query, SearchFilters(), limit=LIMIT)
                found.append(recall([h.item_id for h in hits], truth))
    finally:
        await store.close()
    assert float(np.mean(found)) < 0.9


async def test_an_existing_collection_keeps_its_quantization(tmp_path: Path) -> None:
    points, _ = clustered()
    store = await built(tmp_path, points[:1_000], "binary")
    await store.ensure_collection(COLLECTION, DIM)  # INDEX_QUANTIZATION is back to none
    await store.upsert(COLLECTION, points[1_000:])
    await store.close()
    config = json.loads((tmp_path / COLLECTION / "edge_config.json").read_text())
    assert "binary" in config["quantization_config"]
    reader = EdgeVectorStore(tmp_path)
    assert await reader.count(COLLECTION) == POINTS
    await reader.close()
