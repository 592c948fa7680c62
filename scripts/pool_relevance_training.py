"""Pool (query, product) pairs for blind relevance judging: training queries held apart from
the dev queries (`app.eval.relevance_training`), the top results of every configuration a
ranker would reorder, and human-rated dev pairs mixed in for calibration. Writes, under
`var/relevance/`, one file per judge (pair id, query and product text only: no system, no
source) and the key that maps pair ids back.

    .venv/bin/python scripts/pool_relevance_training.py [--webshop 100] [--catalog 60]
        [--depth 6] [--calibration 120] [--judges 3]
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import os
import random
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.config.settings import get_settings
from app.eval.relevance_training import (
    pool_candidates,
    read_webshop_queries,
    training_queries,
)
from app.recall.search_index import SearchIndex

PLATFORM = "icecat"
DESCRIPTION_CHARS = 400


def _dev_rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


async def run(args: argparse.Namespace) -> dict[str, object]:
    settings = get_settings()
    data = settings.data_dir
    dev_rows = _dev_rows(data / "icecat" / "judgments_dev.csv")
    dev_queries = sorted({r["query"] for r in dev_rows})
    index = await asyncio.to_thread(SearchIndex.open, settings)
    try:
        items = index.items
        queries = training_queries(
            items.values(),
            read_webshop_queries(data),
            dev_queries,
            webshop=args.webshop,
            catalog=args.catalog,
        )
        pool = await pool_candidates(
            settings, index, [q for q, _ in queries], platform=PLATFORM, depth=args.depth
        )
    finally:
        await index.close()
    source = dict(queries)
    rng = random.Random(args.seed)
    rated = [r for r in dev_rows if r["rating"].strip() and f"{PLATFORM}:{r['docid']}" in items]
    by_rating: dict[str, list[dict[str, str]]] = {}
    for row in rated:
        by_rating.setdefault(row["rating"].strip(), []).append(row)
    calibration = []
    for rating in sorted(by_rating):
        rows = by_rating[rating]
        calibration += rng.sample(rows, min(len(rows), args.calibration // len(by_rating)))
    pairs = [
        {"query": q, "item_id": i, "kind": "train", "source": source[q], "found_by": " ".join(n)}
        for (q, i), n in sorted(pool.items())
    ]
    pairs += [
        {
            "query": r["query"],
            "item_id": f"{PLATFORM}:{r['docid']}",
            "kind": "calibration",
            "source": "human",
            "human_rating": r["rating"].strip(),
        }
        for r in calibration
    ]
    rng.shuffle(pairs)
    out = settings.var_dir / "relevance"
    out.mkdir(parents=True, exist_ok=True)
    for n, pair in enumerate(pairs, start=1):
        pair["pair_id"] = f"p{n:05d}"
    with (out / "key.jsonl").open("w", encoding="utf-8") as handle:
        handle.writelines(json.dumps(p) + "\n" for p in pairs)
    for judge in range(args.judges):
        with (out / f"judge_{judge + 1}.tsv").open("w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle, delimiter="\t")
            writer.writerow(["pair_id", "query", "title", "brand", "category", "description"])
            for pair in pairs[judge :: args.judges]:
                item = items[str(pair["item_id"])]
                text = " ".join(item.description.split())[:DESCRIPTION_CHARS]
                writer.writerow(
                    [
                        pair["pair_id"],
                        pair["query"],
                        item.title,
                        item.brand or "",
                        item.category or "",
                        text,
                    ]
                )
    return {
        "queries": {
            "webshop": sum(1 for _, s in queries if s == "webshop"),
            "catalog": sum(1 for _, s in queries if s == "catalog"),
        },
        "pairs": len(pairs),
        "calibration": len(calibration),
        "judges": args.judges,
        "out": str(out),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--webshop", type=int, default=100)
    parser.add_argument("--catalog", type=int, default=60)
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--calibration", type=int, default=120)
    parser.add_argument("--judges", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    print(json.dumps(asyncio.run(run(parser.parse_args())), indent=2))


if __name__ == "__main__":
    main()
