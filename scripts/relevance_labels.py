"""Merge blind judges' ratings (`var/relevance/ratings_*.csv`) with the pool's key into the
training labels file (`query,docid,rating,source`, source=llm) and report the judges'
agreement with the human ratings on the calibration pairs mixed into the pool.

    .venv/bin/python scripts/relevance_labels.py [--key key.jsonl] [--ratings 'ratings_[0-9]*.csv']
        [--out data/relevance/icecat_train_labels.csv]

The same merge writes the blind ratings of unjudged dev pairs (`--key dev_key.jsonl
--ratings ratings_dev.csv --out data/relevance/icecat_dev_extra.csv`), a judgments file of
our own that `pickwise eval recall` reads beside the shipped ones.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
from collections import Counter
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.config.settings import get_settings


def _ratings(folder: Path, pattern: str) -> dict[str, int]:
    found: dict[str, int] = {}
    for path in sorted(folder.glob(pattern)):
        with path.open(encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                rating = row.get("rating", "").strip()
                if rating in {"0", "1", "2", "3"}:
                    found[row["pair_id"].strip()] = int(rating)
    return found


def _agreement(pairs: list[tuple[int, int]]) -> dict[str, float | int]:
    """Exact and within-one agreement, and Cohen's kappa on relevant (rating >= 2)."""
    n = len(pairs)
    if not n:
        return {"pairs": 0}
    exact = sum(a == b for a, b in pairs) / n
    near = sum(abs(a - b) <= 1 for a, b in pairs) / n
    rel = [(a >= 2, b >= 2) for a, b in pairs]
    observed = sum(a == b for a, b in rel) / n
    p_judge = sum(a for a, _ in rel) / n
    p_human = sum(b for _, b in rel) / n
    expected = p_judge * p_human + (1 - p_judge) * (1 - p_human)
    kappa = (observed - expected) / (1 - expected) if expected < 1 else 1.0
    return {
        "pairs": n,
        "exact": round(exact, 3),
        "within_one": round(near, 3),
        "relevant_agreement": round(observed, 3),
        "relevant_kappa": round(kappa, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("data/relevance/icecat_train_labels.csv"))
    parser.add_argument("--key", default="key.jsonl", help="under var/relevance/")
    parser.add_argument("--ratings", default="ratings_[0-9]*.csv", help="glob under var/relevance/")
    args = parser.parse_args()
    folder = get_settings().var_dir / "relevance"
    key = [json.loads(line) for line in (folder / args.key).open(encoding="utf-8")]
    ratings = _ratings(folder, args.ratings)
    train, calibration = [], []
    for pair in key:
        rating = ratings.get(pair["pair_id"])
        if rating is None:
            continue
        if pair["kind"] == "calibration":
            calibration.append((rating, int(pair["human_rating"])))
        else:
            docid = str(pair["item_id"]).partition(":")[2]
            train.append((pair["query"], docid, rating, pair.get("source", "dev")))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["query", "docid", "rating", "source", "query_source"])
        for query, docid, rating, source in sorted(train):
            writer.writerow([query, docid, rating, "llm", source])
    report = {
        "pool_pairs": len(key),
        "rated": len(ratings),
        "training_labels": len(train),
        "training_queries": len({q for q, *_ in train}),
        "ratings": dict(sorted(Counter(r for _, _, r, _ in train).items())),
        "calibration": _agreement(calibration),
        "out": str(args.out),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
