"""Recall evaluation on the official Amazon ESCI files: bm25, dense, the hybrid recall in force
and the product's own pipeline (item_search as it runs) over an index of the ESCI products,
scored on the queries with at least one E label.

Recall@k and MRR@k count E products only, with the E products present in the index as the
recall denominator; NDCG@k uses the gains E=3, S=2, C=1, I=0; complement_hits@k is the
mean number of C products in the top k. Gates (minimum per config and metric) make it a check.
"""

from __future__ import annotations

import asyncio
import json
import time
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from ranx import Qrels, Run, evaluate

from app.config.params.search import MAX_TOP_K
from app.config.settings import Settings
from app.errors import ConfigError, InvalidRequest
from app.eval._esci_data import (
    COMPLEMENT_GAIN,
    EXACT_GAIN,
    Corpus,
    GoldenQuery,
    Selection,
    Version,
    check_selection,
    esci_files,
    read_golden,
)
from app.eval._esci_index import esci_settings, open_esci_index
from app.eval._recall_configs import item_search_rankings
from app.recall.bm25_retriever import Bm25Retriever
from app.recall.dense_retriever import DenseRetriever
from app.recall.embedder import Embedder, build_embedder
from app.recall.filters import SearchFilters
from app.recall.pipeline import RecallConfig, RecallPipeline
from app.recall.search_cache import SearchCache
from app.recall.search_index import SearchIndex

__all__ = ["ESCI_CONFIGS", "EsciEvalOptions", "load_gates", "run_esci_eval"]

ESCI_CONFIGS = ("bm25", "dense", "hybrid", "pipeline")
Gates = Mapping[str, Mapping[str, float]]


@dataclass(frozen=True)
class EsciEvalOptions:
    """Where the official files are, which examples count, how deep to score, whether to
    build the index, and the gates: config -> metric (e.g. "recall@10") -> minimum."""

    esci_dir: Path
    locale: str = "us"
    split: str = "test"
    version: Version | None = None
    corpus: Corpus = "labelled"
    k: int = 10
    build_index: bool = False
    max_queries: int | None = None
    var_dir: Path | None = None
    gates: Gates = field(default_factory=dict)

    @property
    def selection(self) -> Selection:
        return Selection(self.locale.lower(), self.split.lower(), self.version, self.corpus)

    def metric_names(self) -> tuple[str, ...]:
        k = self.k
        return (f"recall@{k}", f"mrr@{k}", f"ndcg@{k}", f"complement_hits@{k}")


def load_gates(path: Path | None, pairs: Sequence[str] = ()) -> dict[str, dict[str, float]]:
    """Gates from a JSON or TOML file (`{config: {metric: minimum}}`) and `config.metric=min`
    strings (which win); ConfigError for an unreadable file, InvalidRequest for a bad pair."""
    gates: dict[str, dict[str, float]] = {}
    if path is not None:
        try:
            text = path.read_text()
            data = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
        except (OSError, ValueError) as exc:
            raise ConfigError(f"cannot read the gates file {path}: {exc}") from exc
        if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
            raise ConfigError(f"{path}: gates must be {{config: {{metric: minimum}}}}")
        for config, metrics in data.items():
            gates.setdefault(str(config), {}).update({str(m): float(v) for m, v in metrics.items()})
    for pair in pairs:
        name, _, value = pair.partition("=")
        config, _, metric = name.strip().partition(".")
        try:
            minimum = float(value)
        except ValueError:
            raise InvalidRequest(f"gate {pair!r} is not config.metric=minimum") from None
        if not config or not metric:
            raise InvalidRequest(f"gate {pair!r} is not config.metric=minimum")
        gates.setdefault(config, {})[metric] = minimum
    return gates


def run_esci_eval(
    settings: Settings, options: EsciEvalOptions, *, embedder: Embedder | None = None
) -> dict[str, Any]:
    """Evaluate and return the report `{index, encoder, configs, k, n_queries, elapsed_s,
    metrics, ...}`; `report["gates"]["passed"]` says whether every gate held.

    Raises ConfigError when the files, their columns or the index are missing (exit 2).
    """
    started = time.perf_counter()
    selection = options.selection
    check_selection(selection)
    if options.k < 1:
        raise InvalidRequest(f"k must be >= 1, got {options.k}")
    _check_gates(options)
    files = esci_files(options.esci_dir)
    golden = read_golden(files[0], selection)
    if not golden:
        raise ConfigError(f"no {selection.locale} {selection.split} query with an E label")
    if options.max_queries is not None:
        golden = golden[: options.max_queries]
    embedder = embedder or build_embedder(settings)
    local = esci_settings(settings, selection, options.var_dir)
    index, built = open_esci_index(local, files, selection, embedder, build=options.build_index)
    report = asyncio.run(_evaluate(local, index, golden, options, built))
    report["index"]["folder"] = str(local.index_dir)
    report["elapsed_s"] = round(time.perf_counter() - started, 1)
    return report


async def _evaluate(
    settings: Settings,
    index: SearchIndex,
    golden: list[GoldenQuery],
    options: EsciEvalOptions,
    built: bool,
) -> dict[str, Any]:
    try:
        coverage, present = _coverage(index, golden)
        scored = [g for g in present if any(v == EXACT_GAIN for v in g.gains.values())]
        bm25 = Bm25Retriever(index.bm25)
        dense = DenseRetriever.from_index(index, SearchCache())
        recall = RecallConfig.from_params()
        pipeline = RecallPipeline([dense, bm25], recall)
        nothing = SearchFilters()
        rankings: dict[str, dict[str, list[str]]] = {name: {} for name in ESCI_CONFIGS}
        for query in scored:
            for hit_list, name in (
                (await bm25.recall(query.text, nothing, top_k=options.k), "bm25"),
                (await dense.recall(query.text, nothing, top_k=options.k), "dense"),
            ):
                rankings[name][query.query_id] = [h.item_id for h in hit_list]
            fused = await pipeline.run(query.text, nothing, top_k=options.k)
            rankings["hybrid"][query.query_id] = [h.item_id for h in fused.hits]
        top_k = min(options.k, MAX_TOP_K.get())
        texts = list(dict.fromkeys(q.text for q in scored))
        searched, failures = await item_search_rankings(settings, index, texts, {"top_k": top_k})
        rankings["pipeline"] = {q.query_id: searched[q.text] for q in scored}
    finally:
        await index.close()
    metrics = {name: score_esci(scored, runs, options.k) for name, runs in rankings.items()}
    return {
        "index": {
            "version": index.version,
            "items": index.manifest.items,
            "built_now": built,
        },
        "encoder": index.manifest.model_id,
        "configs": {
            "bm25": index.manifest.recipes[-1],
            "dense": index.manifest.recipes[0],
            "hybrid": f"{recall.fusion}, weights {dict(recall.weights)}, depth {recall.depth}",
            "pipeline": f"item_search via invoke_tool (top_k={top_k}, no plan)",
        },
        "pipeline_failures": failures,
        "k": options.k,
        "n_queries": len(scored),
        "selection": vars(options.selection),
        "coverage": coverage,
        "metrics": metrics,
        "gates": _judge(metrics, options.gates),
    }


def _coverage(
    index: SearchIndex, golden: list[GoldenQuery]
) -> tuple[dict[str, int], list[GoldenQuery]]:
    """How many labelled products the index holds; each query keeps only those it holds."""
    items = index.items
    labelled = {i for g in golden for i in g.gains}
    exact = {i for g in golden for i, v in g.gains.items() if v == EXACT_GAIN}
    present = [
        GoldenQuery(g.query_id, g.text, {i: v for i, v in g.gains.items() if i in items})
        for g in golden
    ]
    coverage = {
        "golden_queries": len(golden),
        "queries_with_e_in_index": sum(
            1 for g in present if any(v == EXACT_GAIN for v in g.gains.values())
        ),
        "labelled_pairs": sum(len(g.gains) for g in golden),
        "labelled_pairs_in_index": sum(len(g.gains) for g in present),
        "labelled_products": len(labelled),
        "labelled_products_in_index": sum(1 for i in labelled if i in items),
        "e_products": len(exact),
        "e_products_in_index": sum(1 for i in exact if i in items),
    }
    return coverage, present


def score_esci(
    golden: Sequence[GoldenQuery], rankings: Mapping[str, Sequence[str]], k: int
) -> dict[str, float]:
    """Recall@k and MRR@k of E products, NDCG@k with the ESCI gains, mean C hits in the top k."""
    if not golden:
        return {}
    qrels = Qrels({g.query_id: dict(g.gains) for g in golden})
    data = {}
    for g in golden:
        ids = list(dict.fromkeys(rankings.get(g.query_id, ())))[:k]
        if ids:
            data[g.query_id] = {item: float(len(ids) - r) for r, item in enumerate(ids)}
    run = (Run(data) if data else Run()).make_comparable(qrels)
    names = [f"recall@{k}-l{EXACT_GAIN}", f"mrr@{k}-l{EXACT_GAIN}", f"ndcg@{k}"]
    values = cast(dict[str, float], evaluate(qrels, run, names, threads=1))
    complements = [
        sum(1 for i in list(rankings.get(g.query_id, ()))[:k] if g.gains.get(i) == COMPLEMENT_GAIN)
        for g in golden
    ]
    return {
        f"recall@{k}": float(values[names[0]]),
        f"mrr@{k}": float(values[names[1]]),
        f"ndcg@{k}": float(values[names[2]]),
        f"complement_hits@{k}": sum(complements) / len(golden),
    }


def _check_gates(options: EsciEvalOptions) -> None:
    known = set(options.metric_names())
    for config, metrics in options.gates.items():
        if config not in ESCI_CONFIGS:
            raise InvalidRequest(f"gate on unknown config {config!r}; known: {ESCI_CONFIGS}")
        unknown = sorted(set(metrics) - known)
        if unknown:
            raise InvalidRequest(f"gate on unknown metric(s) {unknown}; known: {sorted(known)}")


def _judge(metrics: Mapping[str, Mapping[str, float]], gates: Gates) -> dict[str, Any]:
    failures = [
        f"{config} {metric} {metrics[config].get(metric, float('nan')):.4f} < {minimum}"
        for config, wanted in gates.items()
        for metric, minimum in wanted.items()
        if not metrics[config].get(metric, float("nan")) >= minimum
    ]
    checked = {c: dict(m) for c, m in gates.items()}
    return {"checked": checked, "passed": not failures, "failures": failures}
