"""`pickwise bench`: every benchmark in one run (index build, search cold/warm, single flight,
the relevance gate, whole offline turns), medians over repeats, logged to bench/results.jsonl."""

from __future__ import annotations

from typing import Any

import typer

from app.cli._output import emit_json
from app.config import get_settings
from app.eval.bench import BenchOptions, run_bench
from app.eval.bench_stats import RESULTS
from app.eval.load import LoadOptions

__all__ = ["bench", "register", "scale_lines", "summary_lines"]


def register(app: typer.Typer) -> None:
    """Add the `bench` command to the root CLI."""
    app.command("bench")(bench)


def bench(
    repeats: int = typer.Option(3, min=1, help="Runs on fresh runtimes; medians are reported."),
    rebuild: bool = typer.Option(
        False, "--rebuild", help="Time a full index build in a scratch folder (minutes)."
    ),
    record: bool = typer.Option(True, help="Append the run to bench/results.jsonl."),
    json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    load: bool = typer.Option(True, help="Run the load test against a real `pickwise serve`."),
    load_sessions: int = typer.Option(50, min=1, help="Load test: concurrent sessions."),
    load_turns: int = typer.Option(5, min=1, help="Load test: SSE turns per session."),
    load_burst: int = typer.Option(200, min=1, help="Load test: simultaneous turns."),
    scale: str = typer.Option(
        "",
        "--scale",
        help="Also run the store-only scale curve at these comma-separated catalog sizes "
        "(e.g. 30000,100000,300000,1000000; minutes to an hour), as catalog.scale.",
    ),
) -> None:
    """Benchmark the index, search, single flight, the gate and offline turns.

    Medians over repeated runs; timings depend on the machine's load, reported with them.
    """
    from app.runtime_agent import build_agent

    results = RESULTS if record else None
    sized = LoadOptions(sessions=load_sessions, turns=load_turns, burst=load_burst)
    options = BenchOptions(
        repeats=repeats,
        rebuild=rebuild,
        results=results,
        load=sized if load else None,
        scale_sizes=_sizes(scale),
    )
    report = run_bench(get_settings(), options, build_agent)
    if json_out:
        emit_json(report)
        return
    for line in summary_lines(report):
        typer.echo(line)


def _sizes(text: str) -> tuple[int, ...]:
    """`--scale 30000,100000` as sizes; a bad list is a usage error, not a traceback."""
    try:
        sizes = tuple(int(part) for part in text.replace("_", "").split(",") if part.strip())
    except ValueError:
        raise typer.BadParameter(f"--scale takes item counts like 30000,100000: {text!r}") from None
    if any(size < 1_000 for size in sizes):
        raise typer.BadParameter("--scale sizes must be at least 1000 items")
    return sizes


def summary_lines(report: dict[str, Any]) -> list[str]:
    """The report in a few lines for people."""
    index, search, flight = report["index"], report["search"], report["singleflight"]
    gate, turn, load = report["gate"], report["turn"], report["load_avg"]
    words = report["language"]
    gate_line = (
        f"gate: {gate['candidates']} candidates p50 {gate['p50_ms']:.1f} ms ({gate['model']})"
        if gate.get("p50_ms") is not None
        else f"gate: not measured ({gate.get('error')})"
    )
    lines = [
        f"index: {index['items']} items, built in {index['build_s']:.0f} s "
        f"({index['items_per_s']:.1f} items/s; {index['source']})",
        f"search: cold {search['cold_ms']:.1f} ms, warm {search['warm_ms']:.2f} ms "
        f"({search['warm_speedup']:.0f}x) over {search['queries']} queries",
        f"single flight: {flight['concurrent']} identical searches -> {flight['encodes']} "
        f"encode(s), {flight['vector_queries']} vector query(ies)",
        gate_line,
        f"offline turn: p50 {turn['p50_ms']:.0f} ms, p95 {turn['p95_ms']:.0f} ms "
        f"({turn['turns']} turns per run; planner readings per turn p50 "
        f"{turn.get('readings_p50')}, max {turn.get('readings_max')})",
        f"vocabulary: {words['typed_vocabulary_lines']} hand-typed lines in Python "
        f"({words['product_vocabulary_lines']} product, {words['grammar_lines']} grammar); "
        f"data/lexicon {words['lexicon_files']} files, {words['lexicon_entries']} entries",
        f"medians of {report['repeats']} runs at {report['commit']}; load average "
        f"{load['start']} -> {load['end']} on {report['cpus']} CPUs",
    ]
    if "load" in report:
        lines += load_lines(report["load"])
    if "scale" in report.get("catalog", {}):
        lines += scale_lines(report["catalog"]["scale"])
    return lines


def scale_lines(scale: dict[str, Any]) -> list[str]:
    """One line per catalog size of the store-only scale curve."""
    lines = []
    for row in scale["sizes"]:
        if "vector_filtered" not in row:
            lines.append(f"scale {row['items']:,}: failed {row}")
            continue
        lines.append(
            f"scale {row['items']:,} items ({scale.get('vectors', 'random')} vectors, "
            f"quantization {scale.get('quantization', 'none')}): filtered vector p50 "
            f"{row['vector_filtered']['p50_ms']:.1f} ms p95 {row['vector_filtered']['p95_ms']:.1f}"
            f" ms (exact {row['vector_exact_filtered']['p50_ms']:.1f} ms, recall@10 "
            f"{row.get('recall_at_10_vs_exact')}), lexical p50 "
            f"{row.get('lexical', {}).get('p50_ms', float('nan')):.1f} ms, rss "
            f"{row['rss_mb']:.0f} MiB"
        )
    return lines


def load_lines(load: dict[str, Any]) -> list[str]:
    """The load test in two lines."""
    sessions, burst = load["sessions"], load["burst"]
    return [
        f"load: {sessions['sessions']}x{sessions['turns_per_session']} SSE turns "
        f"{sessions['success_pct']}% ok, first event p50 {sessions['ttfe_p50_ms']} ms "
        f"p95 {sessions['ttfe_p95_ms']} ms, crossed {sessions['crossed_sessions']}, "
        f"unsaved {sessions['unsaved_turns']}",
        f"burst: {burst['requests']} turns -> {burst['answered']} answered, "
        f"{burst['refused_429']} refused (429 max {burst['refusal_max_ms']} ms), "
        f"{burst['errors_5xx']} 5xx, health after {burst['health_after']['status_code']}",
    ]
