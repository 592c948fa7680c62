"""Where the first stage's missing recall is: whether the sources find the relevant items at
depth (each alone, and their union) and the fused top N leaves them out, or no source finds
them; the same recall split by who pooled and rated each pair (the file's `source` column);
and the queries that lose the most, with how many of their top N nobody rated."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.eval._judgment_file import Judgments

__all__ = ["CEILING_CUT", "CeilingInput", "recall_ceiling"]

CEILING_CUT = 100
WORST_QUERIES = 10

Rankings = Mapping[str, Sequence[str]]


@dataclass(frozen=True)
class CeilingInput:
    """The rankings a ceiling reads: each source asked for `depth` hits, and the fused first
    stage (`first_stage` names it) at the cut."""

    sources: Mapping[str, Rankings]
    first_stage: str
    fused: Rankings
    depth: int


def recall_ceiling(
    judgments: Judgments,
    queries: Sequence[str],
    relevant: int,
    given: CeilingInput,
    *,
    cut: int = CEILING_CUT,
    worst: int = WORST_QUERIES,
) -> dict[str, Any]:
    """Mean recall over `queries` of each source at `cut` and at depth, of their union at
    both, and of the fused top `cut`; then the `worst` queries by their share of the gap."""
    wanted = {q: rel for q in queries if (rel := _relevant(judgments, q, relevant))}
    scored = list(wanted)
    if not scored:
        return {"queries": 0}

    depths = (cut, given.depth)
    unions = {d: {q: _union(given.sources, q, d) for q in scored} for d in depths}
    fused = {q: list(given.fused.get(q, ()))[:cut] for q in scored}
    tops: dict[str, Rankings] = {}  # every ranking the report reads, cut, by its report key
    for name, ranks in given.sources.items():
        for depth in depths:
            tops[f"{name}@{depth}"] = {q: ranks.get(q, ())[:depth] for q in scored}
    for depth in depths:
        tops[f"union@{depth}"] = unions[depth]
    first = f"{given.first_stage}@{cut}"
    tops[first] = fused
    recall = {key: _mean_recall(top, wanted) for key, top in tops.items()}
    at_cut = {f"{name}@{cut}": tops[f"{name}@{cut}"] for name in (*given.sources, "union")}
    at_cut[first] = fused
    losses: list[dict[str, Any]] = []
    for q in scored:
        top = fused[q]
        found = len(set(top) & wanted[q])
        losses.append(
            {
                "query": q,
                "relevant": len(wanted[q]),
                "found": found,
                "in_union_at_depth": len(set(unions[given.depth][q]) & wanted[q]),
                "unrated_in_top": sum(1 for item in top if item not in judgments.judged(q)),
                "share_of_gap": (len(wanted[q]) - found) / len(wanted[q]) / len(scored),
            }
        )
    losses.sort(key=lambda row: (-row["share_of_gap"], row["query"]))
    return {
        "queries": len(scored),
        "cut": cut,
        "depth": given.depth,
        "first_stage": given.first_stage,
        "recall": {k: round(v, 4) for k, v in recall.items()},
        "gap": round(1.0 - recall[first], 4),
        "by_origin": _by_origin(judgments, wanted, at_cut, first),
        "worst": [
            {**row, "share_of_gap": round(row["share_of_gap"], 4)}
            for row in losses[:worst]
            if row["share_of_gap"] > 0
        ],
    }


def _mean_recall(top: Rankings, wanted: Mapping[str, set[str]]) -> float:
    """Mean over the queries of `wanted` (each with a relevant item) of the share `top` holds."""
    shares = [len(set(top.get(q, ())) & items) / len(items) for q, items in wanted.items()]
    return sum(shares) / len(shares)


def _by_origin(
    judgments: Judgments,
    wanted: Mapping[str, set[str]],
    at_cut: Mapping[str, Rankings],
    first_stage: str,
) -> dict[str, dict[str, Any]]:
    """Per origin: the queries with a relevant pair of it, its pairs, each ranking's mean
    recall of them (rankings already cut) and the pairs the first stage misses; pairs without
    an origin are left out."""
    split: dict[str, dict[str, set[str]]] = {}
    for q, items in wanted.items():
        for item in items:
            origin = judgments.origin(q, item)
            if origin is not None:
                split.setdefault(origin, {}).setdefault(q, set()).add(item)
    fused = at_cut[first_stage]
    report: dict[str, dict[str, Any]] = {}
    for origin, pairs in sorted(split.items()):
        recall = {name: _mean_recall(ranks, pairs) for name, ranks in at_cut.items()}
        report[origin] = {
            "queries": len(pairs),
            "pairs": sum(len(items) for items in pairs.values()),
            "missed": sum(len(items - set(fused.get(q, ()))) for q, items in pairs.items()),
            "recall": {k: round(v, 4) for k, v in recall.items()},
        }
    return report


def _relevant(judgments: Judgments, query: str, relevant: int) -> set[str]:
    return {item for item, rating in judgments.judged(query).items() if rating >= relevant}


def _union(sources: Mapping[str, Rankings], query: str, depth: int) -> list[str]:
    found = (item for ranks in sources.values() for item in ranks.get(query, ())[:depth])
    return list(dict.fromkeys(found))
