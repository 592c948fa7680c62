"""Renders a judgment-evaluation report for people: a markdown table with p-values and notes,
and a grouped bar chart (matplotlib, Agg backend, so it needs no display)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from app.eval._ranking_metrics import JUDGED_AT, METRICS

_COLUMNS = (*METRICS, f"judged@{JUDGED_AT}")


def _cell(value: Any) -> str:
    return "–" if value is None else f"{value:.4f}"


def _p_cell(p: float | None) -> str:
    if p is None:
        return "–"
    return f"{p:.3f}" if p >= 0.001 else "<0.001"


def markdown_table(report: Mapping[str, Any]) -> str:
    """One row per configuration: every metric, judged@10, and p-values of NDCG@10 and
    Recall@100 against the best single retriever; then the notes."""
    sig = report["significance"]
    baseline = report["best_single"]
    head = ["config", *_COLUMNS, "ndcg@10 condensed", "p ndcg@10", "p recall@100"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, scores in report["configs"].items():
        p = sig["p_values"].get(name, {})
        marker = " (baseline)" if name == baseline else ""
        cells = [f"{name}{marker}", *(_cell(scores.get(c)) for c in _COLUMNS)]
        cells.append(_cell(scores.get("ndcg@10_condensed")))
        cells += [_p_cell(p.get("ndcg@10")), _p_cell(p.get("recall@100"))]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(
        f"{report['n_queries']} queries for NDCG (a rating >= 1), "
        f"{report['n_queries_binary']} for recall/MRR (a rating >= {report['relevant']}); "
        f"{report['queries_in_file']} in the file; {report['unjudged_in_top10']} unjudged "
        f"(query, item) pairs in the top 10s. p-values: {sig['test']} paired test "
        f"against {baseline}. Condensed: unjudged items removed first (a pooling-bias "
        "diagnostic, not a target)."
    )
    lines += [f"- {name}: {note}" for name, note in report.get("notes", {}).items()]
    lines += _goal_lines(report.get("goal", {}))
    return "\n".join(lines)


def side_by_side_table(reports: Sequence[Mapping[str, Any]]) -> str:
    """One row per configuration and, per judgments file, NDCG@10, judged@10, Recall@100 and
    the NDCG@10 p-value against that file's best single retriever: the same rankings on
    each yardstick."""
    names = [Path(r["judgments"]).stem for r in reports]
    head = ["config"]
    for name in names:
        head += [f"NDCG@10 {name}", f"judged@10 {name}", f"R@100 {name}", f"p NDCG {name}"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    configs = list(dict.fromkeys(c for r in reports for c in r["configs"]))
    for config in configs:
        cells = [config]
        for report in reports:
            scores = report["configs"].get(config, {})
            p = report["significance"]["p_values"].get(config, {})
            base = " (base)" if config == report["best_single"] else ""
            cells += [
                _cell(scores.get("ndcg@10")) + base,
                _cell(scores.get(f"judged@{JUDGED_AT}")),
                _cell(scores.get("recall@100")),
                _p_cell(p.get("ndcg@10")),
            ]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(
        "Same rankings scored on each file; p: "
        f"{reports[0]['significance']['test']} paired test of NDCG@10 against that file's "
        "best single retriever (base); unjudged items count as not relevant."
    )
    return "\n".join(lines)


def ceiling_lines(report: Mapping[str, Any]) -> str:
    """Where the first stage's missing recall is: each source and their union at the cut and
    at depth, the fused top of the first stage, and the queries that lose the most."""
    ceiling = report.get("first_stage_ceiling")
    if ceiling and "skipped" in ceiling:
        return f"first-stage ceiling skipped: {ceiling['skipped']}"
    if not ceiling or not ceiling.get("queries"):
        return ""
    recall = ", ".join(f"{k} {v:.4f}" for k, v in ceiling["recall"].items())
    lines = [
        f"First-stage recall over {ceiling['queries']} queries (sources asked for "
        f"{ceiling['depth']}): {recall}; gap {ceiling['gap']:.4f}.",
        *_origin_lines(ceiling.get("by_origin", {})),
        "",
        "| query | relevant | in the top | in the sources' union at depth "
        "| unrated in the top | share of the gap |",
        "|---|---|---|---|---|---|",
    ]
    for row in ceiling["worst"]:
        lines.append(
            f"| {row['query']} | {row['relevant']} | {row['found']} | "
            f"{row['in_union_at_depth']} | {row['unrated_in_top']} | {row['share_of_gap']:.4f} |"
        )
    return "\n".join(lines)


def _origin_lines(by_origin: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Recall at the cut of the relevant pairs each origin (the file's `source`) pooled."""
    lines = []
    for origin, split in by_origin.items():
        recall = ", ".join(f"{k} {v:.4f}" for k, v in split["recall"].items())
        lines.append(
            f"- pooled by {origin} ({split['pairs']} relevant pairs, {split['queries']} "
            f"queries; {split['missed']} not in the first stage's top): {recall}"
        )
    return lines


def _goal_lines(goal: Mapping[str, Any]) -> list[str]:
    lines = []
    ndcg = goal.get("pipeline_ndcg@10")
    if ndcg:
        verdict = "met" if ndcg["met"] else "not met"
        lines.append(
            f"- goal: pipeline NDCG@10 {ndcg['value']:.4f} = {ndcg['ratio']:.3f} x "
            f"{goal['baseline']} (target {ndcg['target']:.4f}): {verdict}"
        )
    recall = goal.get("first_stage_recall@100")
    if recall:
        verdict = "met" if recall["met"] else "not met"
        lines.append(
            f"- goal: {goal['first_stage']} Recall@100 {recall['value']:.4f} "
            f"(target {recall['target']:.4f}): {verdict}"
        )
    return lines


def bar_chart(report: Mapping[str, Any], path: Path) -> Path:
    """A grouped bar chart of every metric per configuration, written as PNG to `path`."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    configs = list(report["configs"])
    width = 0.8 / len(_COLUMNS)
    fig, ax = plt.subplots(figsize=(max(7.0, 1.4 * len(configs) + 2), 4.5))
    for i, column in enumerate(_COLUMNS):
        values = [report["configs"][c].get(column) or 0.0 for c in configs]
        offsets = [x + (i - (len(_COLUMNS) - 1) / 2) * width for x in range(len(configs))]
        hatch = "//" if column.startswith("judged") else None
        ax.bar(offsets, values, width, label=column, hatch=hatch)
    ax.set_xticks(range(len(configs)), configs)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("score")
    ax.set_title(
        f"{Path(report['judgments']).name}: {report['n_queries']} queries (unjudged = not relevant)"
    )
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=len(_COLUMNS), fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
