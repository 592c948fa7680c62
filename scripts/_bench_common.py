"""Shared helpers of the benchmark scripts, from `app.eval.bench_stats` (shared with
`pickwise bench`): percentiles, git commit, machine load, results log."""

from app.eval.bench_stats import (
    RESULTS,
    append_result,
    git_commit,
    machine_load,
    percentile,
    summary_ms,
)

__all__ = ["RESULTS", "append_result", "git_commit", "machine_load", "percentile", "summary_ms"]
