"""The matcher's logistic model: fitted weights, how to apply them, and how they were fitted.

Plain numpy (Newton steps with a small L2 penalty on standardised features), so the model
is a handful of named weights anyone can read, and refitting is deterministic.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

_THRESHOLD_GRID = np.round(np.arange(0.05, 0.951, 0.01), 2)
_F1_TIE = 0.005


@dataclass(frozen=True)
class LogisticModel:
    """`p(same) = sigmoid(bias + Σ weight·feature)` over named features."""

    weights: Mapping[str, float]
    bias: float

    def vector(self, names: Sequence[str]) -> np.ndarray:
        """The weights in the order of `names` (a weight missing from the model is an error)."""
        return np.array([self.weights[name] for name in names], dtype=np.float64)

    def probability(self, features: np.ndarray, names: Sequence[str]) -> float:
        """Probability that a pair with these feature values is one product."""
        return _sigmoid(self.bias + float(features @ self.vector(names)))

    def contributions(self, features: np.ndarray, names: Sequence[str]) -> dict[str, float]:
        """Each non-zero feature's share of the logit: what tipped the decision."""
        parts = features * self.vector(names)
        return {name: round(float(v), 3) for name, v in zip(names, parts, strict=True) if v}


def fit_logistic(
    x: np.ndarray, y: np.ndarray, names: Sequence[str], *, l2: float = 1.0, steps: int = 100
) -> LogisticModel:
    """Fit by Newton's method on standardised columns, then express weights on raw values."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    z = np.hstack([np.ones((len(x), 1)), (x - mean) / scale])
    w = np.zeros(z.shape[1])
    penalty = l2 * np.eye(z.shape[1])
    penalty[0, 0] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(z @ w)))
        gradient = z.T @ (p - y) + penalty @ w
        hessian = (z * (p * (1 - p))[:, None]).T @ z + penalty
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    raw = w[1:] / scale
    bias = float(w[0] - (mean * raw).sum())
    return LogisticModel(
        {n: round(float(v), 4) for n, v in zip(names, raw, strict=True)}, round(bias, 4)
    )


def precision_recall_f1(predicted: np.ndarray, truth: np.ndarray) -> tuple[float, float, float]:
    """Precision, recall and F1 of boolean predictions against boolean truth."""
    tp = int((predicted & truth).sum())
    fp = int((predicted & ~truth).sum())
    fn = int((~predicted & truth).sum())
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def pick_threshold(probabilities: np.ndarray, truth: np.ndarray) -> float:
    """The highest threshold whose F1 is within 0.005 of the best: F1 first, then precision."""
    scores = [precision_recall_f1(probabilities >= t, truth)[2] for t in _THRESHOLD_GRID]
    best = max(scores)
    chosen = max(t for t, f in zip(_THRESHOLD_GRID, scores, strict=True) if f >= best - _F1_TIE)
    return float(chosen)


def _sigmoid(value: float) -> float:
    if value >= 0:
        return 1.0 / (1.0 + math.exp(-value))
    e = math.exp(value)
    return e / (1.0 + e)
