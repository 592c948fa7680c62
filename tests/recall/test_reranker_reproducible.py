"""Reranker training is reproducible: the same pairs and config give bit-identical scores
whatever thread count or random state the calling process had, and the caller's settings
come back afterwards."""

from __future__ import annotations

import random

import numpy as np
import pytest
import torch

from app.recall._reranker_fit import TRAIN_THREADS, fit, new_cross_encoder, predict, reproducible
from app.recall.reranker_config import RerankerTrainConfig

pytestmark = pytest.mark.slow

CONFIG = RerankerTrainConfig.small().replace(layers=2, batch_size=8, max_length=24)
PAIRS = [
    ("usb c cable", "Belkin USB-C to USB-C cable 1 m black", 1.0),
    ("usb c cable", "C2G USB A male to A male cable 2 m", 0.0),
    ("laptop", "HP ProBook 450 G7 notebook 15.6 inch Intel Core i5", 1.0),
    ("laptop", "Targus laptop sleeve 15.6 inch black", 0.0),
    ("wireless mouse", "Logitech M185 wireless mouse grey", 1.0),
    ("wireless mouse", "Fellowes mouse pad blue", 0.0),
    ("ssd 1tb", "Samsung 860 EVO internal solid state drive 1000 GB", 1.0),
    ("ssd 1tb", "Seagate Barracuda internal hard drive 1000 GB", 0.0),
] * 3
PROBES = [
    ("usb c cable", "Anker USB Type-C cable 6 ft"),
    ("laptop", "Dell laptop backpack 15 inch"),
    ("ssd 1tb", "Crucial MX500 solid state drive 1 TB"),
]


def _train_and_score(ambient_threads: int, ambient_seed: int) -> np.ndarray:
    torch.set_num_threads(ambient_threads)
    torch.manual_seed(ambient_seed)
    random.seed(ambient_seed)
    with reproducible(CONFIG.seed):
        encoder = new_cross_encoder(CONFIG)
        queries, titles, labels = zip(*PAIRS, strict=True)
        fit(encoder.model, encoder.tokenizer, queries, titles, labels, CONFIG, show_progress=False)
        return predict(
            encoder.model,
            encoder.tokenizer,
            [q for q, _ in PROBES],
            [t for _, t in PROBES],
            max_length=CONFIG.max_length,
        )


def test_two_runs_score_bit_for_bit_alike_whatever_the_caller_set() -> None:
    before = torch.get_num_threads()
    try:
        first = _train_and_score(ambient_threads=1, ambient_seed=1)
        second = _train_and_score(ambient_threads=max(2, TRAIN_THREADS + 1), ambient_seed=99)
    finally:
        torch.set_num_threads(before)
    assert first.tobytes() == second.tobytes(), (first, second)


def test_the_callers_threads_and_kernels_come_back() -> None:
    before = torch.get_num_threads()
    strict = torch.are_deterministic_algorithms_enabled()
    with reproducible(7, threads=1):
        assert torch.get_num_threads() == 1
        assert torch.are_deterministic_algorithms_enabled()
    assert torch.get_num_threads() == before
    assert torch.are_deterministic_algorithms_enabled() == strict
