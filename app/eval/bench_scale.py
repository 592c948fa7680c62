"""The store-only scale curve (`pickwise bench --scale`, `scripts/bench_scale.py`): filtered
vector search (exact scan beside HNSW and/or quantized codes), lexical search and resident
memory at growing catalog sizes. Items are synthetic: titles recombined from the demo
catalog's real titles; vectors random unit vectors, or "real-ish" (sums of two of the demo
index's real MiniLM vectors), so the figures measure the stores, not relevance.

Each size is built in one child process and searched in another, so the memory figure is
what a serving process holds (stores opened, queries run), not the build's leftovers."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from app.catalog.item import Item
from app.config.params.index import INDEX_QUANTIZATION, VECTOR_OVERSAMPLING
from app.config.registry import REGISTRY
from app.config.settings import Settings
from app.eval.bench_stats import load_averages, summary_ms
from app.recall.bm25 import Bm25Index
from app.recall.filters import SearchFilters
from app.recall.vector_store import VectorPoint, item_payload, open_vector_store

__all__ = ["HNSW_M", "SIZES", "VECTOR_KINDS", "bench_scale", "growth", "synthetic_items"]

SIZES = (30_000, 100_000, 300_000, 1_000_000)
DIM = 384
HNSW_M = 16
COLLECTION = "scale"
SHOPS = ("north", "south", "east", "west", "central", "harbour")
VECTOR_KINDS = ("random", "real")
_TITLES_FILE = "titles.json"
_BASE_FILE = "base_vectors.npy"
_WRITE_CHUNK = 8_192


def bench_scale(
    settings: Settings,
    sizes: Sequence[int] = SIZES,
    *,
    queries: int = 200,
    hnsw_m: int = HNSW_M,
    payload_m: int = 0,
    titles: Sequence[str] | None = None,
    quantization: str | None = None,
    oversampling: float | None = None,
    vectors: str = "random",
    lexical: bool = True,
) -> dict[str, Any]:
    """The curve over `sizes`: one build child and one search child per size (scratch folders
    under the system temp dir, removed afterwards); `titles` default to the demo catalog's,
    quantization and oversampling to INDEX_QUANTIZATION and VECTOR_OVERSAMPLING; `lexical`
    False leaves BM25 out (a 1M build's slowest, most memory-hungry part)."""
    titles = list(titles) if titles is not None else _real_titles(settings)
    quantization = quantization or INDEX_QUANTIZATION.get()
    oversampling = oversampling or VECTOR_OVERSAMPLING.get()
    options = {
        "hnsw_m": hnsw_m,
        "payload_m": payload_m,
        "quantization": quantization,
        "oversampling": oversampling,
        "lexical": lexical,
    }
    rows = []
    with tempfile.TemporaryDirectory(prefix="pickwise-scale-") as tmp:
        source = Path(tmp) / _TITLES_FILE
        source.write_text(json.dumps(titles))
        base = Path(tmp) / _BASE_FILE if vectors == "real" else None
        if base is not None:
            np.save(base, _real_vectors(settings))
        options["base"] = str(base or "")
        for size in sizes:
            folder = Path(tmp) / str(size)
            built = _child("build", folder, size, source, queries, options)
            searched = _child("search", folder, size, source, queries, options)
            rows.append({"items": size, **built, **searched})
            shutil.rmtree(folder, ignore_errors=True)
    kind = "RANDOM unit vectors" if vectors == "random" else "REAL-ISH vectors (see vectors)"
    return {
        "sizes": rows,
        "growth": growth(rows),
        "dimension": DIM,
        **{k: v for k, v in options.items() if k != "base"},
        "vectors": vectors
        if vectors == "random"
        else "real-ish: each the normalised sum of two random demo-index MiniLM vectors "
        "(queries drawn the same way)",
        "source_titles": len(titles),
        "load_avg": load_averages(),
        "measures": (
            f"store-only: synthetic items (demo titles recombined), {kind} (no "
            "embedding); filtered = 2 of 6 shops + a price range; vector p50/p95 over "
            f"{queries} queries (HNSW m={hnsw_m}, payload_m={payload_m}, ef_construct=100, "
            "0 = none; quantization "
            f"{quantization}, rescored at oversampling {oversampling}; exact scan beside it, "
            "recall@10 of the search against it), "
            "lexical = bm25s over title x2 + brand; rss = the search process after opening "
            "both stores and querying"
        ),
    }


def synthetic_items(titles: Sequence[str], size: int, seed: int = 11) -> Iterator[Item]:
    """`size` items whose titles join the first half of one real title to the second half of
    another; shops, prices (log-normal) and ratings drawn at random."""
    rng = random.Random(seed)
    words = [t.split() for t in titles if len(t.split()) >= 2]
    for n in range(size):
        head, tail = rng.choice(words), rng.choice(words)
        title = " ".join(head[: max(1, len(head) // 2)] + tail[len(tail) // 2 :])
        yield Item.model_construct(
            item_id=f"s{n}",
            platform=SHOPS[n % len(SHOPS)],
            title=title,
            brand=head[0].lower(),
            price_usd=round(rng.lognormvariate(3.5, 1.0), 2),
            rating=round(rng.uniform(1, 5), 1) if n % 3 else None,
            source="synthetic",
        )


def _real_titles(settings: Settings) -> list[str]:
    """The demo catalog's titles (from the index in use, else loaded from the datasets)."""
    from app.catalog.imported import load_index_catalog
    from app.catalog.item_table import read_items
    from app.errors import IndexMissing
    from app.recall.index_manifest import current_paths

    items: Iterable[Item]
    try:
        items = read_items(current_paths(settings.index_dir).items).values()
    except IndexMissing:  # no index yet: the catalog the build would use
        items = load_index_catalog(settings).items
    return sorted({i.title for i in items if i.title})


def _filters(rng: random.Random) -> SearchFilters:
    shops = rng.sample(SHOPS, 2)
    low = rng.choice([0, 10, 25])
    return SearchFilters.build(
        platforms=shops, price_min=low, price_max=low + rng.choice([50, 150, 500])
    )


def _real_vectors(settings: Settings) -> np.ndarray:
    """The demo index's dense vectors (unit length), read from its Qdrant Edge shard."""
    from qdrant_edge import EdgeShard, ScrollRequest

    from app.recall.index_manifest import collection_name, current_paths
    from app.recall.vector_store import DENSE_VECTOR

    paths = current_paths(settings.index_dir)
    shard = EdgeShard.load(str(paths.vectors / collection_name(paths.version)))
    rows: list[Any] = []
    offset = None
    try:
        while True:
            request = ScrollRequest(offset=offset, limit=4096, with_vector=[DENSE_VECTOR])
            records, offset = shard.scroll(request)
            rows += [r.vector[DENSE_VECTOR] for r in records if isinstance(r.vector, dict)]
            if offset is None:
                return np.asarray(rows, dtype=np.float32)
    finally:
        shard.close()


def _child(
    stage: str, folder: Path, size: int, titles: Path, queries: int, options: dict[str, Any]
) -> dict[str, Any]:
    command = [sys.executable, "-m", "app.eval.bench_scale", stage, str(folder), str(size)]
    command += [str(titles), str(queries), json.dumps(options)]
    root = str(Path(__file__).resolve().parents[2])
    path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
    env = {**os.environ, "PYTHONPATH": path}
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=root, env=env)
    if done.returncode != 0:
        return {f"{stage}_error": done.stderr.strip().splitlines()[-1:] or ["failed"]}
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def _build(folder: Path, size: int, titles: list[str], options: dict[str, Any]) -> dict[str, Any]:
    """Write the vector shard (an HNSW graph of `hnsw_m` links, 0 = none; quantized codes or
    none) and the BM25 index of `size` items."""
    started = time.perf_counter()
    items = list(synthetic_items(titles, size))
    made_s = time.perf_counter() - started
    rng = np.random.default_rng(5)
    base = np.load(options["base"]) if options["base"] else None
    store = open_vector_store(qdrant_url=None, edge_root=folder / "vectors")

    async def write() -> None:
        await store.ensure_collection(COLLECTION, DIM)
        for start in range(0, size, _WRITE_CHUNK):
            chunk = items[start : start + _WRITE_CHUNK]
            vectors = _unit_rows(rng, len(chunk), base)
            points = [
                VectorPoint(item.item_id, vectors[i], item_payload(item))
                for i, item in enumerate(chunk)
            ]
            await store.upsert(COLLECTION, points)
        await store.close()

    started = time.perf_counter()
    quantization = options["quantization"]
    with REGISTRY.overridden(
        INDEX_HNSW_M=options["hnsw_m"],
        INDEX_HNSW_PAYLOAD_M=options["payload_m"],
        INDEX_QUANTIZATION=quantization,
    ):
        asyncio.run(write())
    vectors_s = time.perf_counter() - started
    started = time.perf_counter()
    if options["lexical"]:
        Bm25Index.build(items).save(folder / "bm25")
    lexical_s = time.perf_counter() - started
    return {
        "make_items_s": round(made_s, 1),
        "vector_build_s": round(vectors_s, 1),
        **({"lexical_build_s": round(lexical_s, 1)} if options["lexical"] else {}),
        "build_peak_rss_mb": _peak_rss_mb(),
    }


def _search(
    folder: Path, size: int, titles: list[str], queries: int, options: dict[str, Any]
) -> dict[str, Any]:
    """Open both stores as a serving process would and time filtered searches."""
    rng = random.Random(23)
    base = np.load(options["base"]) if options["base"] else None
    vectors = _unit_rows(np.random.default_rng(29), queries, base)
    filters = [_filters(rng) for _ in range(queries)]
    store = open_vector_store(qdrant_url=None, edge_root=folder / "vectors")
    lexical = Bm25Index.load(folder / "bm25") if options["lexical"] else None
    picked = (
        rng.sample(titles, queries) if len(titles) >= queries else rng.choices(titles, k=queries)
    )
    texts = [_two_words(rng, title) for title in picked]

    async def measure() -> dict[str, Any]:
        await store.search(COLLECTION, vectors[0], filters[0], limit=20)  # open the shard
        hnsw, exact, recall = [], [], []
        for i in range(queries):
            started = time.perf_counter()
            found = await store.search(COLLECTION, vectors[i], filters[i], limit=20)
            hnsw.append(time.perf_counter() - started)
            if i < _exact_queries(size):
                started = time.perf_counter()
                truth = await store.search(COLLECTION, vectors[i], filters[i], limit=20, exact=True)
                exact.append(time.perf_counter() - started)
                want = {h.item_id for h in truth[:10]}
                recall.append(len(want & {h.item_id for h in found[:10]}) / max(1, len(want)))
        await store.close()
        return {
            "vector_filtered": summary_ms(hnsw),
            "vector_exact_filtered": summary_ms(exact),
            "recall_at_10_vs_exact": round(float(np.mean(recall)), 3),
        }

    with REGISTRY.overridden(VECTOR_OVERSAMPLING=options["oversampling"]):
        vector = asyncio.run(measure())
    plain: list[float] = []
    filtered: list[float] = []
    for i, text in enumerate(texts):
        if lexical is None:
            break
        started = time.perf_counter()
        lexical.search(text, SearchFilters(), top_k=20)
        plain.append(time.perf_counter() - started)
        started = time.perf_counter()
        lexical.search(text, filters[i], top_k=20)
        filtered.append(time.perf_counter() - started)
    words = (
        {"lexical": summary_ms(plain), "lexical_filtered": summary_ms(filtered)} if plain else {}
    )
    return {
        **vector,
        **words,
        "rss_mb": _rss_mb(),
        "search_peak_rss_mb": _peak_rss_mb(),
    }


def _two_words(rng: random.Random, title: str) -> str:
    """A lexical query: two words of a real title, in random order."""
    words = title.split()
    return " ".join(rng.sample(words, min(2, len(words))))


def _exact_queries(size: int) -> int:
    """Exact scans per size: enough for recall, few where each takes long."""
    return 50 if size <= 300_000 else 20


def growth(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """How cost grows: the p50 ratio per 10x items (log-log slope) between the ends."""
    usable = [r for r in rows if "vector_filtered" in r]
    if len(usable) < 2:
        return {}
    first, last = usable[0], usable[-1]
    span = np.log10(last["items"] / first["items"])
    out = {}
    for key in ("vector_filtered", "vector_exact_filtered", "lexical", "lexical_filtered"):
        if key not in first or key not in last:
            continue
        a, b = first[key]["p50_ms"], last[key]["p50_ms"]
        out[f"{key}_p50_x_per_10x_items"] = round(float((b / a) ** (1 / span)), 2) if a else None
    out["rss_mb_per_100k_items"] = round(
        (last["rss_mb"] - first["rss_mb"]) / ((last["items"] - first["items"]) / 100_000), 1
    )
    return out


def _unit_rows(rng: np.random.Generator, n: int, base: np.ndarray | None = None) -> np.ndarray:
    """Random unit vectors, or (with `base`) normalised sums of two random `base` rows."""
    if base is None:
        rows = rng.standard_normal((n, DIM)).astype(np.float32)
    else:
        rows = base[rng.integers(0, len(base), n)] + base[rng.integers(0, len(base), n)]
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def _rss_mb() -> float:
    """Resident memory now (Linux /proc), in MiB."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return round(pages * os.sysconf("SC_PAGE_SIZE") / 2**20, 1)


def _peak_rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def main(argv: Sequence[str] | None = None) -> None:
    """Child entry point: `build|search FOLDER SIZE TITLES_JSON QUERIES OPTIONS_JSON`; one
    JSON line out."""
    parser = argparse.ArgumentParser()
    parser.add_argument("stage", choices=("build", "search"))
    parser.add_argument("folder", type=Path)
    parser.add_argument("size", type=int)
    parser.add_argument("titles", type=Path)
    parser.add_argument("queries", type=int)
    parser.add_argument("options", type=json.loads)
    args = parser.parse_args(argv)
    titles = json.loads(args.titles.read_text())
    if args.stage == "build":
        result = _build(args.folder, args.size, titles, args.options)
    else:
        result = _search(args.folder, args.size, titles, args.queries, args.options)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
