"""Shared helpers of the benchmark scripts: percentiles, git commit, results log."""

from __future__ import annotations

import json
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent.parent / "bench" / "results.jsonl"


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by linear interpolation."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    lo, hi = int(pos), min(int(pos) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def summary_ms(samples_s: list[float]) -> dict[str, float]:
    """p50/p95/mean of timings given in seconds, reported in milliseconds."""
    ms = [s * 1000 for s in samples_s]
    return {
        "p50_ms": round(statistics.median(ms), 3),
        "p95_ms": round(percentile(ms, 95), 3),
        "mean_ms": round(statistics.fmean(ms), 3),
        "n": len(ms),
    }


def git_commit() -> str:
    """The commit the benchmark ran on (with '+dirty' when the tree has changes)."""
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain"], capture_output=True, text=True)
        return sha + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def append_result(name: str, payload: dict[str, Any]) -> None:
    """Append one benchmark run to bench/results.jsonl with the commit and time."""
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    row = {
        "bench": name,
        "commit": git_commit(),
        "at": time.strftime("%Y-%m-%dT%H:%M:%S"),
        **payload,
    }
    with RESULTS.open("a") as handle:
        handle.write(json.dumps(row) + "\n")


def machine_load() -> float:
    """The 1-minute load average, to report next to timings."""
    try:
        return round(float(Path("/proc/loadavg").read_text().split()[0]), 2)
    except (OSError, ValueError):
        return float("nan")
