"""The next judging round: every unjudged item in the top 10 of any configuration, written as
a `query,docid,rating` CSV with the rating left blank, so pooling bias can be paid down."""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from pathlib import Path

from app.eval._judgment_file import Judgments

POOL_DEPTH = 10


def unjudged_pool(
    judgments: Judgments, runs: Mapping[str, Mapping[str, Sequence[str]]], depth: int = POOL_DEPTH
) -> dict[tuple[str, str], list[str]]:
    """(query, item id) -> configurations that put the unjudged item in their top `depth`."""
    pool: dict[tuple[str, str], list[str]] = {}
    for name, rankings in runs.items():
        for query, ids in rankings.items():
            judged = judgments.judged(query)
            for item in list(dict.fromkeys(ids))[:depth]:
                if item not in judged:
                    pool.setdefault((query, item), []).append(name)
    return dict(sorted(pool.items()))


def write_pool(
    pool: Mapping[tuple[str, str], Sequence[str]], path: Path, *, id_prefix: str
) -> Path:
    """The pool as `query,docid,rating,found_by` (docid without `id_prefix`, rating blank)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["query", "docid", "rating", "found_by"])
        for (query, item), names in pool.items():
            writer.writerow([query, item.removeprefix(id_prefix), "", " ".join(names)])
    return path
