"""The Qdrant Edge store: the vector-store contract, persistence, sharing a built shard
between processes, and damaged shards surfacing as configuration errors."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import numpy as np
import pytest
from qdrant_edge import Distance, EdgeConfig, EdgeShard, EdgeVectorParams

from app.errors import ConfigError, IndexMissing
from app.recall._edge_store import EdgeVectorStore
from app.recall.filters import SearchFilters
from app.recall.vector_store import DENSE_VECTOR, PAYLOAD_INDEXES, VectorPoint, VectorStore
from tests.contracts.vector_store_contract import (
    COLLECTION,
    DIM,
    FILTER_CASES,
    POINTS,
    VectorStoreContract,
    catalog,
)


class TestEdgeVectorStore(VectorStoreContract):
    @pytest.fixture
    async def store(self, tmp_path: Path) -> AsyncIterator[VectorStore]:
        store = EdgeVectorStore(tmp_path / "vectors")
        yield store
        await store.close()


async def build(root: Path, points: Sequence[VectorPoint] = (), *, dimension: int = DIM) -> None:
    """Write points (the synthetic catalog by default) as a finished, closed shard."""
    store = EdgeVectorStore(root)
    await store.ensure_collection(COLLECTION, dimension)
    await store.upsert(COLLECTION, points or catalog())
    await store.close()


async def top_ids(store: VectorStore, query_index: int) -> list[str]:
    filters = FILTER_CASES["combined"]
    query = catalog()[query_index].vector
    hits = await store.search(COLLECTION, query, filters, limit=10, exact=True)
    return [h.item_id for h in hits]


REPO = Path(__file__).resolve().parents[2]
_READER = """
import asyncio, json, sys
from pathlib import Path
from app.recall._edge_store import EdgeVectorStore
from tests.contracts.vector_store_contract import COLLECTION, FILTER_CASES, catalog

async def top(store, i):
    filters = FILTER_CASES["combined"]
    hits = await store.search(COLLECTION, catalog()[i].vector, filters, limit=10, exact=True)
    return [h.item_id for h in hits]

async def main():
    store = EdgeVectorStore(Path(sys.argv[1]))
    rounds = [[await top(store, i) for i in range(20)] for _ in range(25)]
    answer = {"ids": rounds[-1], "stable": all(r == rounds[0] for r in rounds)}
    answer["count"] = await store.count(COLLECTION)
    await store.close()
    print(json.dumps(answer))

asyncio.run(main())
"""


async def test_a_built_shard_is_read_back_by_a_new_store(tmp_path: Path) -> None:
    await build(tmp_path)
    store = EdgeVectorStore(tmp_path)
    try:
        assert await store.collection_exists(COLLECTION)
        assert await store.count(COLLECTION) == POINTS
        (point,) = await store.retrieve(COLLECTION, [catalog()[9].item_id])
        assert dict(point.payload) == dict(catalog()[9].payload)
    finally:
        await store.close()


async def test_ensure_collection_on_a_built_shard_keeps_its_points(tmp_path: Path) -> None:
    await build(tmp_path)
    store = EdgeVectorStore(tmp_path)
    try:
        await store.ensure_collection(COLLECTION, DIM)
        assert await store.count(COLLECTION) == POINTS
    finally:
        await store.close()


async def test_shard_has_every_payload_index_and_no_wal(tmp_path: Path) -> None:
    await build(tmp_path)
    shard = EdgeShard.load(str(tmp_path / COLLECTION))
    try:
        assert set(PAYLOAD_INDEXES) <= set(shard.info().payload_schema)
        assert shard.info().points_count == POINTS
    finally:
        shard.close()
    assert not (tmp_path / COLLECTION / "wal").exists()


async def test_searches_on_a_built_shard_are_exact(tmp_path: Path) -> None:
    points = catalog(8_000, 384, seed=2)  # past the optimiser's indexing threshold
    await build(tmp_path, points, dimension=384)
    store = EdgeVectorStore(tmp_path)
    try:
        for query in np.random.default_rng(8).standard_normal((10, 384)).tolist():
            default = await store.search(COLLECTION, query, SearchFilters(), limit=50)
            exact = await store.search(COLLECTION, query, SearchFilters(), limit=50, exact=True)
            assert [h.item_id for h in default] == [h.item_id for h in exact]
    finally:
        await store.close()


async def test_a_shard_written_with_a_wal_is_refused(tmp_path: Path) -> None:
    config = EdgeConfig(
        vectors={DENSE_VECTOR: EdgeVectorParams(size=DIM, distance=Distance.Cosine)}
    )
    EdgeShard.create(str(tmp_path / COLLECTION), config).close()
    store = EdgeVectorStore(tmp_path)
    with pytest.raises(ConfigError, match="without WAL"):
        await store.ensure_collection(COLLECTION, DIM)
    await store.close()


async def test_two_processes_query_one_shard_while_this_one_holds_it(tmp_path: Path) -> None:
    await build(tmp_path)
    here = EdgeVectorStore(tmp_path)
    try:
        expected = [await top_ids(here, i) for i in range(20)]
        readers = [
            await asyncio.create_subprocess_exec(
                sys.executable,
                "-c",
                _READER,
                str(tmp_path),
                cwd=REPO,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )
            for _ in range(2)
        ]
        while any(r.returncode is None for r in readers):
            assert [await top_ids(here, i) for i in range(20)] == expected
            await asyncio.sleep(0.01)
        for reader in readers:
            out, err = await reader.communicate()
            assert reader.returncode == 0, err.decode()
            answer = json.loads(out)
            assert answer == {"ids": expected, "stable": True, "count": POINTS}
    finally:
        await here.close()


async def test_a_missing_shard_is_index_missing(tmp_path: Path) -> None:
    store = EdgeVectorStore(tmp_path / "nowhere")
    with pytest.raises(IndexMissing, match="index build"):
        await store.count(COLLECTION)
    assert not await store.collection_exists(COLLECTION)
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize("damage", ["config", "segment", "segments_without_config"])
async def test_a_damaged_shard_is_a_config_error(tmp_path: Path, damage: str) -> None:
    await build(tmp_path)
    shard = damage_shard(tmp_path / COLLECTION, damage)
    store = EdgeVectorStore(tmp_path)
    error = IndexMissing if damage == "segments_without_config" else ConfigError
    with pytest.raises(error, match=str(shard) if error is ConfigError else COLLECTION):
        await store.search(COLLECTION, [0.1] * DIM, SearchFilters(), limit=3)
    with pytest.raises(ConfigError):
        await store.ensure_collection(COLLECTION, DIM)
    await store.close()


def damage_shard(shard: Path, damage: str) -> Path:
    """Break a built shard the way a crash, a bad copy or a stray edit might."""
    if damage == "config":
        (shard / "edge_config.json").write_text("{not json")
    elif damage == "segment":
        for state in shard.glob("segments/*/segment.json"):
            state.write_text("garbage")
    else:
        (shard / "edge_config.json").unlink()
    return shard


async def test_collection_names_cannot_leave_the_root(tmp_path: Path) -> None:
    store = EdgeVectorStore(tmp_path / "root")
    for name in ("../escape", "a/b", "", "."):
        with pytest.raises(ConfigError, match="collection name"):
            await store.ensure_collection(name, DIM)
    assert not os.listdir(tmp_path)


async def test_threads_and_coroutines_share_one_store(tmp_path: Path) -> None:
    store = EdgeVectorStore(tmp_path)
    await store.ensure_collection(COLLECTION, DIM)
    await store.upsert(COLLECTION, catalog())
    expected = [await top_ids(store, i) for i in range(10)]
    failures: list[BaseException] = []

    def reader() -> None:
        try:
            for _ in range(20):
                got = asyncio.run(_all_top_ids(store))
                assert got == expected
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=reader) for _ in range(4)]
    for thread in threads:
        thread.start()
    for _ in range(5):
        await store.upsert(COLLECTION, catalog()[100:200])
        assert await _all_top_ids(store) == expected
    for thread in threads:
        thread.join()
    assert failures == []
    assert await store.count(COLLECTION) == POINTS
    await store.close()


async def _all_top_ids(store: VectorStore) -> list[list[str]]:
    return list(await asyncio.gather(*(top_ids(store, i) for i in range(10))))
