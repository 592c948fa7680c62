"""Benchmark the index: full-catalog build time and filtered search latency on the edge store.

    .venv/bin/python scripts/bench_index.py [--rebuild] [--queries 300]

`--rebuild` builds the whole index from scratch into a temporary var folder (the real
one is left alone) and times it; without it the figures of the last build are reported.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench_common import append_result, machine_load, summary_ms

from app.config.settings import Settings
from app.eval.bench_index import bench_build, last_build
from app.recall.filters import SearchFilters
from app.recall.search_index import SearchIndex

PLATFORM_SETS = [
    ("icecat",),
    ("walmart", "amazon"),
    ("amazon", "google"),
    ("abt", "buy", "walmart"),
]


async def bench_search(settings: Settings, n_queries: int) -> dict[str, object]:
    """Filtered dense search (platform MatchAny + price range) over the full catalog."""
    index = SearchIndex.open(settings)
    goals = json.loads((settings.data_dir / "webshop" / "goal_query_map.json").read_text())
    rng = random.Random(7)
    queries = rng.sample([q for qs in goals.values() for q in qs], 64)
    vectors = index.embedder.encode_queries(queries)
    timings: list[float] = []
    hits = 0
    try:
        for i in range(n_queries):
            platforms = PLATFORM_SETS[i % len(PLATFORM_SETS)]
            low = rng.choice([0, 10, 25])
            filters = SearchFilters.build(
                platforms=platforms, price_min=low, price_max=low + rng.choice([50, 150, 500])
            )
            vector = vectors[i % len(vectors)].tolist()
            started = time.perf_counter()
            result = await index.store.search(index.collection, vector, filters, limit=20)
            timings.append(time.perf_counter() - started)
            hits += len(result)
    finally:
        await index.close()
    return {
        "filtered_search": summary_ms(timings),
        "mean_hits": round(hits / n_queries, 1),
        "items": index.manifest.items,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rebuild", action="store_true", help="time a full build from scratch")
    parser.add_argument("--queries", type=int, default=300)
    args = parser.parse_args()
    settings = Settings()
    load_before = machine_load()
    build = bench_build(settings) if args.rebuild else last_build(settings)
    search = asyncio.run(bench_search(settings, args.queries))
    result = {"index": build, "search": search, "load_avg_1m": load_before, "rebuilt": args.rebuild}
    append_result("index", result)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
