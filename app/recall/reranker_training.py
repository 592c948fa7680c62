"""`train_reranker`: build pairs from real data, fine-tune the cross-encoder, measure held-out
AUC and write `var/models/reranker-<hash>/`; the same data and config reuse that folder."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import logging
import os
import shutil
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from app.catalog.demo_labels import DEMO_LABEL_FILES, demo_training_labels
from app.catalog.imported import load_index_catalog
from app.catalog.item import Item
from app.catalog.labels import TrainingLabels
from app.catalog.offer_store import OfferStore
from app.config.settings import Settings
from app.recall._int8_linear import input_ranges, save_ranges
from app.recall._reranker_data import DataInputs, Pair, PairSet, build_pairs
from app.recall._reranker_fit import TRAIN_THREADS, fit, new_cross_encoder, predict, reproducible
from app.recall._reranker_mining import VectorTable, binary_auc
from app.recall._reranker_sources import category_reader
from app.recall._torch_device import resolve_device
from app.recall.index_manifest import current_paths
from app.recall.reranker import HELDOUT_FILE, MODEL_PREFIX, TRAINING_FILE, trained_models
from app.recall.reranker_config import RerankerTrainConfig
from app.recall.search_index import SearchIndex

__all__ = [
    "RerankerTrainConfig",
    "TrainReport",
    "binary_auc",
    "build_training_pairs",
    "gate_model_note",
    "train_reranker",
]

log = logging.getLogger(__name__)

RECIPE_VERSION = "reranker-data-v1"
"""Bump when the pair recipe changes in a way the config does not show."""


@dataclass(frozen=True)
class TrainReport:
    """What a training run produced, or found already produced (`reused`)."""

    model_dir: Path
    reused: bool
    config: dict[str, Any]
    pair_counts: dict[str, dict[str, int]]
    train_pairs: int
    heldout_pairs: int
    heldout_auc: float
    heldout_auc_by_source: dict[str, float]
    timings_s: dict[str, float] = field(default_factory=dict)
    load_average: dict[str, list[float]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (the model folder as a string)."""
        out = dataclasses.asdict(self)
        out["model_dir"] = str(self.model_dir)
        return out

    def summary_lines(self) -> list[str]:
        """A short human summary; the held-out AUC comes last."""
        verb = "reused" if self.reused else "trained"
        lines = [f"{verb} {self.model_dir}"]
        for source, counts in self.pair_counts.items():
            shown = ", ".join(f"{k} {v}" for k, v in counts.items())
            lines.append(f"  {source}: {shown}")
        lines.append(f"  pairs: {self.train_pairs} train, {self.heldout_pairs} held out")
        if self.timings_s:
            shown = ", ".join(f"{k} {v:.0f}s" for k, v in self.timings_s.items())
            start = self.load_average.get("start", [float("nan")])[0]
            lines.append(f"  time: {shown} (load average at start {start:.2f})")
        by_source = ", ".join(f"{k} {v:.3f}" for k, v in self.heldout_auc_by_source.items())
        lines.append(f"  held-out AUC by source: {by_source}")
        lines.append(f"held-out AUC: {self.heldout_auc:.4f}")
        return lines

    @classmethod
    def read(cls, model_dir: Path, *, reused: bool) -> TrainReport:
        data = json.loads((model_dir / TRAINING_FILE).read_text())
        return cls(
            model_dir=model_dir,
            reused=reused,
            config=data["config"],
            pair_counts=data["pair_counts"],
            train_pairs=data["train_pairs"],
            heldout_pairs=data["heldout_pairs"],
            heldout_auc=data["heldout_auc"],
            heldout_auc_by_source=data["heldout_auc_by_source"],
            timings_s=data.get("timings_s", {}),
            load_average=data.get("load_average", {}),
        )


def label_files(settings: Settings) -> tuple[Path, ...]:
    """The labelled files training reads beyond the catalog: the demo's, none for an import."""
    if OfferStore.of(settings.var_dir).exists():
        return ()
    return tuple(settings.data_dir / name for name in DEMO_LABEL_FILES)


def data_fingerprint(settings: Settings) -> str:
    """Hash of what the pairs are built from: the index's items and vectors (catalog files,
    embedder, dense recipe; a lexical recipe change keeps the model), the labelled files
    read beside them, and the recipe version."""
    digest = hashlib.sha256(RECIPE_VERSION.encode())
    manifest = current_paths(settings.index_dir).read_manifest()
    digest.update((manifest.vectors_version or manifest.version).encode())
    for path in label_files(settings):
        digest.update(path.relative_to(settings.data_dir).as_posix().encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def model_dir_for(settings: Settings, config: RerankerTrainConfig) -> Path:
    """`var/models/reranker-<16 hex>` for this data and config."""
    digest = hashlib.sha256(data_fingerprint(settings).encode())
    digest.update(json.dumps(config.as_dict(), sort_keys=True).encode())
    return settings.models_dir / f"{MODEL_PREFIX}{digest.hexdigest()[:16]}"


def training_labels(settings: Settings, items: Mapping[str, Item]) -> TrainingLabels:
    """The demo's labelled examples and evaluation set; an imported catalog brings none."""
    if label_files(settings):
        return demo_training_labels(settings.data_dir, items)
    return TrainingLabels()


def gate_model_note(settings: Settings) -> str | None:
    """What `index build` tells of item_picker's gate model for this index: None when the
    default recipe's model for this data exists (or another is configured)."""
    if settings.reranker_backend == "remote" or settings.reranker_model:
        return None
    if (model_dir_for(settings, RerankerTrainConfig.default()) / TRAINING_FILE).is_file():
        return None
    older = trained_models(settings.models_dir)
    if older:
        return (
            f"the gate model {older[0].name} was trained on other catalog data; "
            "run `pickwise models train-reranker` to train it on this catalog"
        )
    return (
        "no gate model for this catalog: item_picker runs without its relevance gate until "
        "`pickwise models train-reranker` trains one from the catalog's own categories"
    )


def load_data_inputs(settings: Settings) -> DataInputs:
    """Open the built index for items, vectors and the embedder; load the catalog's
    same-product labels and whatever labelled examples it brings."""
    index = SearchIndex.open(settings)
    try:
        items: dict[str, Item] = dict(index.items)
        labels = training_labels(settings, items)
        category_of = category_reader(items.values())
        wanted = sorted(
            {i.item_id for i in items.values() if category_of(i)}
            | {e.item_id for e in labels.examples}
        )
        found = asyncio.run(index.store.retrieve(index.collection, wanted))
        points = sorted(found, key=lambda p: p.item_id)
        vectors = VectorTable(
            [p.item_id for p in points], np.asarray([p.vector for p in points], dtype=np.float32)
        )
        return DataInputs(
            items=items,
            category_of=category_of,
            matches=load_index_catalog(settings).matches,
            vectors=vectors,
            embed=index.embedder.encode_queries,
            evaluation=labels.evaluation,
            examples=labels.examples,
        )
    finally:
        asyncio.run(index.close())


def build_training_pairs(settings: Settings, config: RerankerTrainConfig) -> PairSet:
    """The train and held-out pairs a run with this config would use."""
    return build_pairs(load_data_inputs(settings), config)


def _auc_by_source(pairs: tuple[Pair, ...], scores: np.ndarray) -> dict[str, float]:
    out: dict[str, float] = {}
    for source in sorted({p.source for p in pairs}):
        rows = [i for i, p in enumerate(pairs) if p.source == source]
        auc = binary_auc([pairs[i].label for i in rows], scores[rows])
        if not np.isnan(auc):
            out[source] = round(auc, 4)
    return out


def train_reranker(
    settings: Settings,
    config: RerankerTrainConfig | None = None,
    *,
    show_progress: bool = True,
    force: bool = False,
) -> TrainReport:
    """Train (or reuse) the reranker for the current data and `config` (default recipe).

    Synchronous and compute-bound (on `TORCH_DEVICE`); needs the search index (`pickwise index
    build`).
    """
    config = config or RerankerTrainConfig.default()
    target = model_dir_for(settings, config)
    if not force and (target / TRAINING_FILE).is_file():
        return TrainReport.read(target, reused=True)
    load_start = list(os.getloadavg())
    started = time.perf_counter()
    pairs = build_training_pairs(settings, config)
    data_s = time.perf_counter() - started

    device = resolve_device(settings.torch_device)
    train, held = pairs.train, pairs.heldout
    with reproducible(config.seed):
        encoder = new_cross_encoder(config, device=device)
        losses = fit(
            encoder.model,
            encoder.tokenizer,
            [p.query for p in train],
            [p.title for p in train],
            [p.label for p in train],
            config,
            show_progress=show_progress,
        )
        train_s = time.perf_counter() - started - data_s
        ranges, scores = input_ranges(
            encoder.model.eval(),
            lambda: predict(
                encoder.model,
                encoder.tokenizer,
                [p.query for p in held],
                [p.title for p in held],
                max_length=config.max_length,
            ),
        )
    auc = binary_auc([p.label for p in held], scores)
    total_s = time.perf_counter() - started

    staging = target.with_name(f".{target.name}.{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    encoder.save(str(staging))
    save_ranges(staging, ranges, len(held))  # what an int8 load quantises with
    with (staging / HELDOUT_FILE).open("w", encoding="utf-8") as handle:
        for pair, score in zip(held, scores, strict=True):
            row = {
                "query": pair.query,
                "title": pair.title,
                "label": pair.label,
                "source": pair.source,
                "group": pair.group,
                "score": round(float(score), 5),
            }
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    record = {
        "model_id": target.name,
        "config": config.as_dict(),
        "data_fingerprint": data_fingerprint(settings),
        "recipe_version": RECIPE_VERSION,
        "pair_counts": pairs.counts(),
        "train_pairs": len(train),
        "heldout_pairs": len(held),
        "heldout_auc": round(auc, 4),
        "heldout_auc_by_source": _auc_by_source(held, scores),
        "epoch_losses": losses,
        "timings_s": {
            "data": round(data_s, 1),
            "train": round(train_s, 1),
            "evaluate": round(total_s - data_s - train_s, 1),
            "total": round(total_s, 1),
        },
        "load_average": {"start": load_start, "end": list(os.getloadavg())},
        "cpu_threads": TRAIN_THREADS,
        "device": device,
        "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    (staging / TRAINING_FILE).write_text(json.dumps(record, indent=2))
    shutil.rmtree(target, ignore_errors=True)
    staging.rename(target)
    log.info("trained %s: held-out AUC %.4f in %.0f s", target.name, auc, total_s)
    return TrainReport.read(target, reused=False)
