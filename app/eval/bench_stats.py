"""Shared pieces of the benchmarks: percentiles, machine load, the git commit, and the
results log (`bench/results.jsonl`), so every benchmark reports and records the same way."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = [
    "RESULTS",
    "append_result",
    "git_commit",
    "load_averages",
    "machine_load",
    "median_of",
    "percentile",
    "summary_ms",
]

RESULTS = Path(__file__).resolve().parents[2] / "bench" / "results.jsonl"
"""The results log of this checkout, one JSON object per benchmark run."""


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) by linear interpolation; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    lo, hi = int(pos), min(int(pos) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def summary_ms(samples_s: Sequence[float]) -> dict[str, float]:
    """p50/p95/mean of timings given in seconds, reported in milliseconds."""
    ms = [s * 1000 for s in samples_s]
    return {
        "p50_ms": round(statistics.median(ms), 3),
        "p95_ms": round(percentile(ms, 95), 3),
        "mean_ms": round(statistics.fmean(ms), 3),
        "n": len(ms),
    }


def median_of(values: Sequence[float], digits: int = 3) -> float:
    """The median of repeated measurements, rounded."""
    return round(statistics.median(values), digits)


def machine_load() -> float:
    """The 1-minute load average, to report next to timings."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return float("nan")


def load_averages() -> list[float]:
    """The 1, 5 and 15-minute load averages (the machine is shared; timings depend on it)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


def git_commit(cwd: Path | None = None) -> str:
    """The commit the benchmark ran on (with '+dirty' when the tree has changes)."""
    root = cwd or RESULTS.parent.parent
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            cwd=root,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain"], capture_output=True, text=True, cwd=root
        )
        return sha + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def append_result(name: str, payload: dict[str, Any], path: Path = RESULTS) -> dict[str, Any]:
    """Append one benchmark run to the results log with the commit and time; the row."""
    path.parent.mkdir(parents=True, exist_ok=True)
    row = {
        "bench": name,
        "commit": git_commit(),
        "at": time.strftime("%Y-%m-%dT%H:%M:%S"),
        **payload,
    }
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(row) + "\n")
    return row
