"""The demo's recall smoke test: a fixed, seeded subset of the Icecat dev judgments run through
`run_recall_eval` (a few configurations), quick enough for every `make demo` and `make test`."""

from __future__ import annotations

import csv
import random
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.config.settings import Settings
from app.eval.judgments_eval import RecallEvalOptions, run_recall_eval
from app.recall.search_index import SearchIndex

__all__ = ["COLUMNS", "SmokeSpec", "run_smoke", "smoke_metrics", "smoke_table", "write_subset"]

COLUMNS = ("ndcg@10", "recall@20", "recall@100", "mrr@20", "judged@10")


@dataclass(frozen=True)
class SmokeSpec:
    """Which judged queries (a seeded sample of those with a relevant item) and which
    configurations; the floors in the thresholds file hold for exactly this subset."""

    judgments: str = "icecat/judgments_dev.csv"
    """Relative to the data folder."""
    queries: int = 20
    seed: int = 7
    configs: tuple[str, ...] = ("bm25", "pipeline")
    relevant: int = 2


def write_subset(source: Path, spec: SmokeSpec, folder: Path) -> tuple[Path, int]:
    """The sampled queries' rows of `source` as a CSV in `folder`; its path and how many
    queries were eligible (had a rating >= `spec.relevant`)."""
    with source.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    eligible = sorted({r["query"] for r in rows if int(r["rating"]) >= spec.relevant})
    chosen = set(random.Random(spec.seed).sample(eligible, min(spec.queries, len(eligible))))
    path = folder / f"smoke-{spec.seed}-{len(chosen)}.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["query", "docid", "rating"])
        writer.writerows(
            [r["query"], r["docid"], r["rating"]] for r in rows if r["query"] in chosen
        )
    return path, len(eligible)


def run_smoke(
    settings: Settings,
    spec: SmokeSpec,
    *,
    index: SearchIndex | None = None,
    aliases: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The judgment evaluation's report on the subset (call outside a running event loop)."""
    with tempfile.TemporaryDirectory(prefix="pickwise-smoke-") as tmp:
        subset, eligible = write_subset(settings.data_dir / spec.judgments, spec, Path(tmp))
        options = RecallEvalOptions(
            judgments=subset, configs=spec.configs, relevant=spec.relevant, chart=None
        )
        report = run_recall_eval(settings, options, index=index, aliases=aliases)
    report["eligible_queries"] = eligible
    return report


def smoke_metrics(report: Mapping[str, Any]) -> dict[str, float]:
    """Every scored metric as `smoke.<config>.<metric>` (the names the thresholds use)."""
    return {
        f"smoke.{config}.{metric}": float(value)
        for config, scores in report["configs"].items()
        for metric, value in scores.items()
        if value is not None
    }


def smoke_table(report: Mapping[str, Any]) -> list[str]:
    """A compact table, one row per configuration, and one line on what it measured."""
    lines = ["config      " + "".join(f"{c:>12}" for c in COLUMNS)]
    for config, scores in report["configs"].items():
        cells = "".join(_cell(scores.get(c)) for c in COLUMNS)
        lines.append(f"{config:<12}{cells}")
    lines.append(
        f"{report['n_queries']} of {report['eligible_queries']} judged queries "
        f"(seeded sample) in {report['elapsed_s']:.0f} s; unjudged items count as not "
        f"relevant, judged@10 shows how much of each top 10 the judges rated."
    )
    lines += [f"skipped {name}: {report['notes'].get(name, '')}" for name in report["skipped"]]
    return lines


def _cell(value: float | None) -> str:
    return f"{'–':>12}" if value is None else f"{value:>12.3f}"
