"""Ranking metrics of several configurations on one judgment set, with ranx: NDCG@10 with the
rating as gain (Järvelin-Kekäläinen), Recall@20/@100 and MRR@20 at a relevance threshold,
the share of each top 10 that was judged, and a paired significance test against a baseline.

ranx averages over every query of the qrels and scores a query without a relevant
judgment 0 (its ideal DCG is 0, its recall denominator is 0), which would drag every mean
down alike; so each metric is averaged only over the queries where it is defined: NDCG over
queries with a positive rating, recall and MRR over queries with a rating >= `relevant`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from ranx import Qrels, Run, compare, evaluate

from app.eval._judgment_file import Judgments

Rankings = Mapping[str, Sequence[str]]
"""Query -> item ids, best first."""

GRADED_METRICS = ("ndcg@10",)
BINARY_METRICS = ("recall@20", "recall@100", "mrr@20")
METRICS = GRADED_METRICS + BINARY_METRICS
JUDGED_AT = 10
STAT_TESTS = ("student", "fisher")


@dataclass(frozen=True)
class QuerySets:
    """Which queries each kind of metric is averaged over."""

    graded: list[str]
    binary: list[str]
    relevant: int

    @classmethod
    def of(cls, judgments: Judgments, relevant: int) -> QuerySets:
        return cls(judgments.queries_with(1), judgments.queries_with(relevant), relevant)


def _ranx_name(metric: str, relevant: int) -> str:
    return metric if metric in GRADED_METRICS else f"{metric}-l{relevant}"


def _qrels(judgments: Judgments, queries: Sequence[str]) -> Qrels:
    return Qrels({q: dict(judgments.judged(q)) for q in queries})


def _run(rankings: Rankings, queries: Sequence[str], qrels: Qrels, name: str) -> Run:
    """A ranx run over `queries` (empty where nothing was found), scored
    strictly decreasing so ranx keeps our order exactly, ties included."""
    data = {}
    for query in queries:
        ids = list(dict.fromkeys(rankings.get(query, ())))
        if ids:
            data[query] = {item: float(len(ids) - rank) for rank, item in enumerate(ids)}
    run = Run(data, name=name) if data else Run(name=name)
    return run.make_comparable(qrels)


def score_rankings(
    judgments: Judgments, rankings: Rankings, sets: QuerySets
) -> dict[str, float | None]:
    """Mean of every metric over its query set, plus `judged@10` (None where undefined)."""
    out: dict[str, float | None] = {}
    for metrics, queries in ((GRADED_METRICS, sets.graded), (BINARY_METRICS, sets.binary)):
        if not queries:
            out.update(dict.fromkeys(metrics))
            continue
        names = [_ranx_name(m, sets.relevant) for m in metrics]
        qrels = _qrels(judgments, queries)
        values = evaluate(qrels, _run(rankings, queries, qrels, "x"), names, threads=1)
        scores = values if isinstance(values, dict) else {names[0]: values}
        out.update({m: float(scores[n]) for m, n in zip(metrics, names, strict=True)})
    out[f"judged@{JUDGED_AT}"] = judged_share(judgments, rankings, sets.graded)
    return out


def judged_share(judgments: Judgments, rankings: Rankings, queries: Sequence[str]) -> float | None:
    """Mean over queries with results of the share of the top 10 that has a judgment."""
    shares = []
    for query in queries:
        top = list(dict.fromkeys(rankings.get(query, ())))[:JUDGED_AT]
        if top:
            judged = judgments.judged(query)
            shares.append(sum(1 for item in top if item in judged) / len(top))
    return float(np.mean(shares)) if shares else None


def condensed(judgments: Judgments, rankings: Rankings) -> dict[str, list[str]]:
    """Each ranking with its unjudged items removed (Sakai's condensed lists): a diagnostic of
    how much a configuration loses to items the judges never saw, not a score to tune."""
    return {q: [i for i in ids if i in judgments.judged(q)] for q, ids in rankings.items()}


def significance(
    judgments: Judgments,
    runs: Mapping[str, Rankings],
    sets: QuerySets,
    baseline: str,
    *,
    stat_test: str = "student",
    seed: int = 42,
) -> dict[str, dict[str, float | None]]:
    """Paired two-sided p-value of every other configuration against `baseline`, per metric
    (ranx `compare`: Student's paired t-test, or Fisher's randomization test)."""
    others = [name for name in runs if name != baseline]
    p_values: dict[str, dict[str, float | None]] = {name: {} for name in others}
    if not others:
        return p_values
    names = [baseline, *others]
    for metrics, queries in ((GRADED_METRICS, sets.graded), (BINARY_METRICS, sets.binary)):
        if len(queries) < 2:
            for name in others:
                p_values[name].update(dict.fromkeys(metrics))
            continue
        qrels = _qrels(judgments, queries)
        report = compare(
            qrels,
            [_run(runs[n], queries, qrels, n) for n in names],
            [_ranx_name(m, sets.relevant) for m in metrics],
            stat_test=stat_test,
            max_p=0.05,
            random_seed=seed,
            threads=1,
        )
        for name in others:
            tested = report.comparisons[baseline, name]
            for metric in metrics:
                p = tested[_ranx_name(metric, sets.relevant)]["p_value"]
                p_values[name][metric] = None if p is None or math.isnan(p) else float(p)
    return p_values
