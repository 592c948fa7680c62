"""Benchmark trained rerankers: latency of scoring 15 candidates and held-out AUC, per model
folder and per inference variant (max length, int8 dynamic quantisation); prints JSON.

    .venv/bin/python scripts/bench_reranker.py [--models DIR ...] [--runs 60]
        [--max-lengths 32,48,64] [--quantize]

AUC is measured on each model's own `heldout.jsonl` (groups never seen in training).
Timings are wall-clock on this machine with the score cache off; the load average is
reported with them because the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
# OpenMP threads that spin while waiting make torch many times slower when another process
# holds a core of a small shared machine; waiting passively costs little when idle.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import torch

from app.config.registry import REGISTRY
from app.config.settings import Settings
from app.eval.bench_stats import percentile
from app.recall.local_models import LocalReranker
from app.recall.reranker import heldout_rows, trained_models
from app.recall.reranker_training import binary_auc


def candidate_sets(
    rows: list[dict[str, Any]], size: int, count: int
) -> list[tuple[str, list[str]]]:
    """`count` (query, `size` titles) calls: a held-out query with held-out titles, as the
    picker's gate sends them (one short query, ~15 recalled titles)."""
    rng = random.Random(7)
    titles = sorted({r["title"] for r in rows})
    by_query: dict[str, list[str]] = defaultdict(list)
    for r in rows:
        by_query[r["query"]].append(r["title"])
    queries = sorted(by_query)
    calls = []
    for _ in range(count):
        query = rng.choice(queries)
        own = by_query[query][:size]
        calls.append((query, own + rng.sample(titles, size - len(own))))
    return calls


@dataclass
class Variant:
    """One model folder loaded with one inference setting, and what was measured on it."""

    folder: Path
    reranker: LocalReranker
    quantize: bool
    auc: float = float("nan")
    timings_ms: list[float] = field(default_factory=list)

    def describe(self) -> dict[str, Any]:
        training = json.loads((self.folder / "training.json").read_text())
        return {
            "model": self.folder.name,
            "layers": training["config"]["layers"],
            "train_pairs": training["train_pairs"],
            "trained_max_length": training["config"]["max_length"],
            "max_length": self.reranker.max_length,
            "int8": self.quantize,
            "heldout_auc": round(self.auc, 4),
            "p50_ms_15": round(statistics.median(self.timings_ms), 1),
            "p95_ms_15": round(percentile(self.timings_ms, 95), 1),
            "runs": len(self.timings_ms),
        }


def load_variant(folder: Path, *, max_length: int | None, quantize: bool) -> Variant:
    return Variant(folder, LocalReranker(folder, max_length=max_length, int8=quantize), quantize)


def heldout_auc(reranker: LocalReranker, rows: list[dict[str, Any]]) -> float:
    """AUC of the variant's scores on its model's held-out pairs, one call per query."""
    by_query: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(rows):
        by_query[r["query"]].append(i)
    scores = [0.0] * len(rows)
    for query, indices in by_query.items():
        values = reranker.score(query, [rows[i]["title"] for i in indices])
        for i, value in zip(indices, values, strict=True):
            scores[i] = value
    return binary_auc([r["label"] for r in rows], scores)


def time_in_rotation(variants: list[Variant], calls: list[tuple[str, list[str]]]) -> None:
    """Each call is timed on every variant in turn, so load changes hit all alike."""
    for query, docs in calls[:5]:
        for variant in variants:
            variant.reranker.score(query, docs)
    for query, docs in calls[5:]:
        for variant in variants:
            started = time.perf_counter()
            variant.reranker.score(query, docs)
            variant.timings_ms.append((time.perf_counter() - started) * 1000)


def cached_call_ms(reranker: LocalReranker, call: tuple[str, list[str]]) -> float:
    """One call whose pairs are all in the score cache."""
    reranker.score(*call)
    started = time.perf_counter()
    reranker.score(*call)
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="*", type=Path, help="model folders (default: all)")
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument("--max-lengths", default="", help="e.g. 32,48,64 (default: trained)")
    parser.add_argument("--quantize", action="store_true", help="also try int8 (RERANKER_INT8)")
    args = parser.parse_args()
    folders = args.models or trained_models(Settings().models_dir)
    lengths: list[int | None] = [None] + [int(x) for x in args.max_lengths.split(",") if x]
    load_start = os.getloadavg()
    variants = [
        load_variant(folder, max_length=length, quantize=quantize)
        for folder in folders
        for length in lengths
        for quantize in ((False, True) if args.quantize else (False,))
    ]
    rows_of = {folder: heldout_rows(folder) for folder in folders}
    with REGISTRY.overridden(RERANKER_CACHE_SIZE=0):
        for variant in variants:
            variant.auc = heldout_auc(variant.reranker, rows_of[variant.folder])
        calls = candidate_sets(rows_of[folders[0]], 15, args.runs + 5)
        time_in_rotation(variants, calls)
    cached = cached_call_ms(variants[0].reranker, calls[0])
    report = {
        "torch_threads": torch.get_num_threads(),
        "cpus": os.cpu_count(),
        "load_average_start": [round(x, 2) for x in load_start],
        "load_average_end": [round(x, 2) for x in os.getloadavg()],
        "cached_call_ms_15": round(cached, 3),
        "results": [variant.describe() for variant in variants],
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
