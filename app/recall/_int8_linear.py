"""Int8 linear layers with a fixed activation range per layer: torch's dynamic int8 took one
range per batch, so a pair's cross-encoder score moved with the titles scored beside it (a
hoodie 0.92 or 0.77). The ranges are measured once on the model's own held-out pairs."""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import torch
from torch import nn

__all__ = [
    "RANGES_FILE",
    "RangedInt8Linear",
    "input_ranges",
    "load_ranges",
    "quantized",
    "save_ranges",
]

RANGES_FILE = "int8_ranges.json"
"""Where a model folder keeps its layers' input ranges, measured on its first int8 load."""

Ranges = Mapping[str, tuple[float, float]]
T = TypeVar("T")


class RangedInt8Linear(nn.Module):
    """A dynamically quantised linear layer fed one row that spans its calibrated input range,
    with the inputs clamped to it: the range, hence the activation scale, is the same in
    every batch, so each row's output depends on that row alone."""

    def __init__(self, dynamic: nn.Module, low: float, high: float, width: int) -> None:
        super().__init__()
        self.dynamic = dynamic
        self.low, self.high = low, high
        self.anchor = torch.zeros(width)
        self.anchor[0], self.anchor[-1] = high, low

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        rows = x.reshape(-1, x.shape[-1])
        fed = torch.empty(rows.shape[0] + 1, rows.shape[1], dtype=rows.dtype)
        torch.clamp(rows, self.low, self.high, out=fed[:-1])  # clamped and copied in one pass
        fed[-1] = self.anchor
        out = self.dynamic(fed)[:-1]
        return out.reshape(*x.shape[:-1], out.shape[-1])


def input_ranges(
    model: nn.Module, run: Callable[[], T]
) -> tuple[dict[str, tuple[float, float]], T]:
    """The smallest and largest input each linear layer of `model` sees while `run()` runs
    it (in float32, on sample inputs), and what `run()` returned."""
    seen: dict[str, tuple[float, float]] = {}

    def watch(name: str) -> Callable[..., None]:
        def record(_module: nn.Module, inputs: tuple[torch.Tensor, ...], _out: Any) -> None:
            low, high = float(inputs[0].min()), float(inputs[0].max())
            before = seen.get(name, (low, high))
            seen[name] = (min(before[0], low), max(before[1], high))

        return record

    hooks = [
        module.register_forward_hook(watch(name))
        for name, module in model.named_modules()
        if isinstance(module, nn.Linear)
    ]
    try:
        result = run()
    finally:
        for hook in hooks:
            hook.remove()
    return seen, result


def quantized(model: nn.Module, ranges: Ranges | None) -> nn.Module:
    """The model with its linear layers quantised to int8 (weights int8, activations per
    call), each fed its range from `ranges` where known; without ranges, torch's plain
    dynamic int8, whose scores depend on the batch."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch announces the torchao successor on each call
        out = torch.ao.quantization.quantize_dynamic(model, {nn.Linear}, dtype=torch.qint8)
    if ranges:
        _fix_ranges(out, ranges, "")
    return out


def _fix_ranges(module: nn.Module, ranges: Ranges, prefix: str) -> None:
    for name, child in list(module.named_children()):
        path = f"{prefix}.{name}" if prefix else name
        width = getattr(child, "in_features", None)
        if path in ranges and isinstance(width, int):
            low, high = ranges[path]
            setattr(module, name, RangedInt8Linear(child, low, high, width))
        else:
            _fix_ranges(child, ranges, path)


def load_ranges(folder: Path) -> dict[str, tuple[float, float]] | None:
    """The ranges saved in a model folder, or None (none saved, or unreadable: measured
    again)."""
    path = folder / RANGES_FILE
    if not path.is_file():
        return None
    try:
        saved = json.loads(path.read_text())["ranges"]
        return {name: (float(low), float(high)) for name, (low, high) in saved.items()}
    except (OSError, ValueError, KeyError, TypeError):
        return None


def save_ranges(folder: Path, ranges: Ranges, pairs: int) -> None:
    """Write the ranges beside the model, atomically (workers may load it at once)."""
    body = {"pairs": pairs, "ranges": {name: list(bounds) for name, bounds in ranges.items()}}
    staging = folder / f".{RANGES_FILE}.{os.getpid()}"
    staging.write_text(json.dumps(body, indent=1))
    staging.replace(folder / RANGES_FILE)
