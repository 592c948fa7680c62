"""The cross-encoder itself: build it from the bundled MiniLM with a fresh scoring head, fine-tune
it on labelled pairs with a plain seeded loop, and score (query, document) pairs as sigmoids;
`reproducible` pins what else makes two machines' runs differ (seeds, threads, kernels)."""

from __future__ import annotations

import math
import os
import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
import torch
from tqdm import tqdm

from app.recall._torch_device import model_device
from app.recall.reranker_config import RerankerTrainConfig

TRAIN_THREADS = 2
"""Intra-op threads of every training run: a float sum split over another number of threads
adds in another order, so the thread count is part of the recipe, not of the machine."""


@contextmanager
def reproducible(seed: int, *, threads: int = TRAIN_THREADS) -> Iterator[None]:
    """Within the block: Python, NumPy and torch seeded with `seed`, torch on `threads`
    intra-op threads and deterministic kernels (a warning where one has none); the caller's
    thread count and kernel choice come back afterwards."""
    saved_threads = torch.get_num_threads()
    saved_strict = torch.are_deterministic_algorithms_enabled()
    saved_warn = torch.is_deterministic_algorithms_warn_only_enabled()
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(True, warn_only=True)
    try:
        yield
    finally:
        torch.set_num_threads(saved_threads)
        torch.use_deterministic_algorithms(saved_strict, warn_only=saved_warn)


def kept_layers(total: int, keep: int) -> list[int]:
    """Which encoder layers a `keep`-layer model takes: the lowest half and the highest half.
    MiniLM's [CLS] only becomes informative in its last layer, and the head reads [CLS]."""
    keep = max(1, min(keep, total))
    low = (keep + 1) // 2
    return list(range(low)) + list(range(total - (keep - low), total))


def new_cross_encoder(config: RerankerTrainConfig, *, device: str = "cpu") -> Any:
    """A `CrossEncoder` on `config.layers` layers of the base model, one fresh logit out, on
    `device` (a resolved torch device string)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from sentence_transformers import CrossEncoder
    from transformers.utils import logging as hf_logging

    from app.recall._flag_embedder import resolve_model_path

    torch.manual_seed(config.seed)
    verbosity = hf_logging.get_verbosity()
    hf_logging.set_verbosity_error()  # the fresh head's "newly initialized" warning is expected
    try:
        encoder = CrossEncoder(
            resolve_model_path(config.base_model),
            num_labels=1,
            max_length=config.max_length,
            device=device,
        )
    finally:
        hf_logging.set_verbosity(verbosity)
    layers = encoder.model.bert.encoder.layer
    keep = kept_layers(len(layers), config.layers)
    encoder.model.bert.encoder.layer = torch.nn.ModuleList(layers[i] for i in keep)
    encoder.model.config.num_hidden_layers = len(keep)
    return encoder


def fit(
    model: torch.nn.Module,
    tokenizer: Any,
    queries: Sequence[str],
    documents: Sequence[str],
    labels: Sequence[float],
    config: RerankerTrainConfig,
    *,
    show_progress: bool,
) -> list[float]:
    """Fine-tune with binary cross-entropy, AdamW and linear warm-up/decay; returns the
    smoothed loss at the end of each epoch."""
    from transformers import get_linear_schedule_with_warmup

    n = len(labels)
    if n == 0:
        return []
    torch.manual_seed(config.seed)  # dropout draws from here on, whatever ran before
    steps_per_epoch = math.ceil(n / config.batch_size)
    total = steps_per_epoch * config.epochs
    groups = _parameter_groups(model, config)
    optimiser = torch.optim.AdamW(groups)
    schedule = get_linear_schedule_with_warmup(
        optimiser, int(total * config.warmup_fraction), total
    )
    generator = torch.Generator().manual_seed(config.seed)
    device = model_device(model)
    target = torch.tensor(labels, dtype=torch.float32, device=device)
    lengths = [len(q) + len(d) for q, d in zip(queries, documents, strict=True)]
    smoothed, losses = 0.0, []
    model.train()
    with tqdm(total=total, unit="step", desc="training reranker", disable=not show_progress) as bar:
        for _ in range(config.epochs):
            for rows in _length_bucketed(lengths, config.batch_size, generator):
                batch = torch.tensor(rows)
                encoded = tokenizer(
                    [queries[i] for i in rows],
                    [documents[i] for i in rows],
                    padding=True,
                    truncation=True,
                    max_length=config.max_length,
                    return_tensors="pt",
                ).to(device)
                logits = model(**encoded).logits.view(-1)
                loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, target[batch])
                loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                optimiser.step()
                schedule.step()
                optimiser.zero_grad(set_to_none=True)
                smoothed = loss.item() if bar.n == 0 else 0.98 * smoothed + 0.02 * loss.item()
                bar.set_postfix(loss=f"{smoothed:.3f}")
                bar.update(1)
            losses.append(round(smoothed, 4))
    model.eval()
    return losses


def _parameter_groups(model: torch.nn.Module, config: RerankerTrainConfig) -> list[dict[str, Any]]:
    """AdamW groups: the fresh head (pooler and classifier) learns at `head_learning_rate`,
    the pretrained encoder at `learning_rate`; biases and LayerNorms get no weight decay."""
    groups: dict[tuple[bool, bool], list[torch.nn.Parameter]] = {}
    for name, parameter in model.named_parameters():
        is_head = name.startswith(("classifier.", "bert.pooler."))
        decays = not name.endswith(("bias", "LayerNorm.weight"))
        groups.setdefault((is_head, decays), []).append(parameter)
    return [
        {
            "params": params,
            "lr": config.head_learning_rate if is_head else config.learning_rate,
            "weight_decay": config.weight_decay if decays else 0.0,
        }
        for (is_head, decays), params in sorted(groups.items())
    ]


def _length_bucketed(
    lengths: Sequence[int], batch_size: int, generator: torch.Generator
) -> list[list[int]]:
    """Shuffled batches of similar text length (less padding), in shuffled order: pairs are
    shuffled, sorted by length within windows of 50 batches, cut, and the batches shuffled."""
    order = torch.randperm(len(lengths), generator=generator).tolist()
    window = batch_size * 50
    batches: list[list[int]] = []
    for start in range(0, len(order), window):
        chunk = sorted(order[start : start + window], key=lambda i: lengths[i])
        batches.extend(chunk[i : i + batch_size] for i in range(0, len(chunk), batch_size))
    shuffled = torch.randperm(len(batches), generator=generator).tolist()
    return [batches[i] for i in shuffled]


def predict(
    model: torch.nn.Module,
    tokenizer: Any,
    queries: Sequence[str],
    documents: Sequence[str],
    *,
    max_length: int,
    batch_size: int = 64,
) -> np.ndarray:
    """Sigmoid scores in [0, 1] of (query, document) pairs, in input order."""
    device = model_device(model)
    out = np.zeros(len(documents), dtype=np.float32)
    order = sorted(range(len(documents)), key=lambda i: len(documents[i]))
    with torch.inference_mode():
        for start in range(0, len(order), batch_size):
            rows = order[start : start + batch_size]
            encoded = tokenizer(
                [queries[i] for i in rows],
                [documents[i] for i in rows],
                padding=True,
                truncation=True,
                max_length=max_length,
                return_tensors="pt",
            ).to(device)
            logits = model(**encoded).logits.view(-1)
            out[rows] = torch.sigmoid(logits).float().cpu().numpy()
    return out
