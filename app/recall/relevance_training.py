"""`train_relevance`: fine-tune the relevance cross-encoder on blind-rated (query, item)
labels of shopper queries held apart from the evaluation (graded targets rating / 3, binary
cross-entropy) and write `var/models/relevance-<hash>/`; the same labels and config reuse it."""

from __future__ import annotations

import asyncio
import csv
import hashlib
import json
import os
import shutil
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from app.catalog.item import Item
from app.config.settings import Settings
from app.recall._reranker_fit import TRAIN_THREADS, fit, new_cross_encoder, predict, reproducible
from app.recall._reranker_mining import binary_auc
from app.recall._torch_device import resolve_device
from app.recall.relevance_model import RELEVANCE_PREFIX, relevance_text
from app.recall.reranker import TRAINING_FILE
from app.recall.reranker_config import RerankerTrainConfig
from app.recall.search_index import SearchIndex

__all__ = [
    "LABELS_FILE",
    "Label",
    "RelevanceReport",
    "read_labels",
    "relevance_config",
    "split_by_query",
    "train_relevance",
]

LABELS_FILE = Path(__file__).resolve().parents[2] / "data" / "relevance" / "icecat_train_labels.csv"
LABELS_PLATFORM = "icecat"
"""The shop whose item ids the labels file's docids are."""
RECIPE_VERSION = "relevance-v1"


@dataclass(frozen=True)
class Label:
    """One rated pair: the query, the item id in the index, the 0-3 rating."""

    query: str
    item_id: str
    rating: int

    @property
    def target(self) -> float:
        return self.rating / 3.0


@dataclass(frozen=True)
class RelevanceReport:
    """What a run produced or found (`reused`): the folder and its training record."""

    model_dir: Path
    reused: bool
    record: Mapping[str, Any]

    def summary_lines(self) -> list[str]:
        """A short human summary; the held-out figures come last."""
        r = self.record
        verb = "reused" if self.reused else "trained"
        return [
            f"{verb} {self.model_dir}",
            f"  labels: {r['train_pairs']} train ({r['train_queries']} queries), "
            f"{r['heldout_pairs']} held out ({r['heldout_queries']} queries)",
            f"  time: {r['timings_s'].get('total', 0):.0f}s",
            f"held-out AUC (rating >= 2): {r['heldout_auc']:.4f}, "
            f"NDCG@10 model {r['heldout_ndcg10']:.4f} vs label order shuffled "
            f"{r['heldout_ndcg10_shuffled']:.4f}",
        ]


def relevance_config() -> RerankerTrainConfig:
    """The recipe: the gate's base model and optimiser, three epochs over ~1.6k labels on 48
    tokens (a few minutes on two CPU cores); the gate's data fields are unused here."""
    return RerankerTrainConfig.default().replace(
        epochs=3, max_length=48, batch_size=16, learning_rate=5e-5, heldout_fraction=0.15
    )


def read_labels(path: Path = LABELS_FILE, *, platform: str = LABELS_PLATFORM) -> list[Label]:
    """The rated rows of a labels file (`query,docid,rating,...`)."""
    with path.open(encoding="utf-8") as handle:
        return [
            Label(row["query"].strip(), f"{platform}:{row['docid'].strip()}", int(row["rating"]))
            for row in csv.DictReader(handle)
            if row["rating"].strip() in {"0", "1", "2", "3"}
        ]


def heldout_query(query: str, fraction: float) -> bool:
    """Whether a query is in the validation part: the first SHA-256 byte under the share."""
    return hashlib.sha256(query.encode()).digest()[0] < int(256 * fraction)


def split_by_query(labels: Iterable[Label], fraction: float) -> tuple[list[Label], list[Label]]:
    """Train and validation labels, every query wholly on one side."""
    train: list[Label] = []
    held: list[Label] = []
    for label in labels:
        (held if heldout_query(label.query, fraction) else train).append(label)
    return train, held


def mean_ndcg10(labels: Sequence[Label], scores: Sequence[float]) -> float:
    """Mean NDCG@10 over queries of the labelled items ordered by `scores` (gain rating)."""
    by_query: dict[str, list[tuple[float, int]]] = {}
    for label, score in zip(labels, scores, strict=True):
        by_query.setdefault(label.query, []).append((float(score), label.rating))
    values = []
    for rows in by_query.values():
        ranked = [r for _, r in sorted(rows, key=lambda x: -x[0])][:10]
        ideal = sorted((r for _, r in rows), reverse=True)[:10]
        dcg = sum((2**r - 1) / np.log2(i + 2) for i, r in enumerate(ranked))
        best = sum((2**r - 1) / np.log2(i + 2) for i, r in enumerate(ideal))
        if best > 0:
            values.append(dcg / best)
    return float(np.mean(values)) if values else float("nan")


def model_dir_for(settings: Settings, config: RerankerTrainConfig, labels_path: Path) -> Path:
    """`var/models/relevance-<16 hex>` for these labels, this config and the recipe."""
    digest = hashlib.sha256(RECIPE_VERSION.encode())
    digest.update(hashlib.sha256(labels_path.read_bytes()).digest())
    digest.update(json.dumps(config.as_dict(), sort_keys=True).encode())
    return settings.models_dir / f"{RELEVANCE_PREFIX}{digest.hexdigest()[:16]}"


def _items(settings: Settings) -> dict[str, Item]:
    index = SearchIndex.open(settings)
    try:
        return dict(index.items)
    finally:
        asyncio.run(index.close())


def train_relevance(
    settings: Settings,
    config: RerankerTrainConfig | None = None,
    *,
    labels_path: Path = LABELS_FILE,
    show_progress: bool = True,
    force: bool = False,
) -> RelevanceReport:
    """Train (or reuse) the relevance model on the labels whose items the index holds."""
    config = config or relevance_config()
    target = model_dir_for(settings, config, labels_path)
    if not force and (target / TRAINING_FILE).is_file():
        return RelevanceReport(target, True, json.loads((target / TRAINING_FILE).read_text()))
    started = time.perf_counter()
    items = _items(settings)
    labels = [label for label in read_labels(labels_path) if label.item_id in items]
    train, held = split_by_query(labels, config.heldout_fraction)
    with reproducible(config.seed):
        encoder = new_cross_encoder(config, device=resolve_device(settings.torch_device))
        losses = fit(
            encoder.model,
            encoder.tokenizer,
            [label.query for label in train],
            [relevance_text(items[label.item_id]) for label in train],
            [label.target for label in train],
            config,
            show_progress=show_progress,
        )
        scores = predict(
            encoder.model,
            encoder.tokenizer,
            [label.query for label in held],
            [relevance_text(items[label.item_id]) for label in held],
            max_length=config.max_length,
        )
    shuffled = np.random.default_rng(config.seed).random(len(held))
    record = {
        "model_id": target.name,
        "config": config.as_dict(),
        "recipe_version": RECIPE_VERSION,
        "labels_file": labels_path.name,
        "train_pairs": len(train),
        "train_queries": len({label.query for label in train}),
        "heldout_pairs": len(held),
        "heldout_queries": len({label.query for label in held}),
        "heldout_auc": round(binary_auc([int(x.rating >= 2) for x in held], scores), 4),
        "heldout_ndcg10": round(mean_ndcg10(held, scores.tolist()), 4),
        "heldout_ndcg10_shuffled": round(mean_ndcg10(held, shuffled.tolist()), 4),
        "epoch_losses": losses,
        "timings_s": {"total": round(time.perf_counter() - started, 1)},
        "cpu_threads": TRAIN_THREADS,
        "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    staging = target.with_name(f".{target.name}.{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    encoder.save(str(staging))
    (staging / TRAINING_FILE).write_text(json.dumps(record, indent=2))
    shutil.rmtree(target, ignore_errors=True)
    staging.rename(target)
    return RelevanceReport(target, False, record)
