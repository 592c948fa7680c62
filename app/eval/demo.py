"""The self-checking demo behind `make demo`: build what is missing (index, reranker), show a
few searches and six scripted conversations through the real offline agent, run the recall
smoke test, and judge it all against a thresholds file; the exit code says whether it held.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from app.agent.chat import ShoppingAgent
from app.catalog.loader import load_catalog
from app.config.settings import Settings
from app.errors import PickwiseError
from app.eval.demo_render import conversation_lines, search_lines, trace_lines
from app.eval.demo_script import (
    SCENARIOS,
    Conversation,
    SlotRecorder,
    conversation_metrics,
    converse,
    with_recorder,
)
from app.eval.demo_smoke import SmokeSpec, run_smoke, smoke_metrics, smoke_table
from app.eval.demo_thresholds import Thresholds, judge, load_thresholds
from app.eval.query_files import read_queries
from app.recall.embedder import Embedder, build_embedder
from app.recall.index_build import build_index
from app.recall.reranker import TRAINING_FILE, trained_models
from app.recall.reranker_training import RerankerTrainConfig, model_dir_for, train_reranker
from app.recall.search_index import SearchIndex
from app.runtime import Runtime
from app.tools.base import ToolContext, invoke_tool
from app.tools.search import ItemSearchResult

__all__ = [
    "ERROR",
    "SEARCHES",
    "AgentFactory",
    "DemoOptions",
    "DemoRun",
    "Echo",
    "conclude",
    "ensure_index",
    "ensure_reranker",
    "measure",
    "offline",
    "prepare",
    "run_demo",
]

Echo = Callable[[str], None]
AgentFactory = Callable[[Runtime], ShoppingAgent]
"""Builds the agent on an opened runtime (`app.runtime_agent.build_agent`: autopick included)."""

SEARCHES = read_queries("demo")
ERROR = 2
"""Exit code when the demo could not run at all (as the CLI does for our own errors)."""


@dataclass(frozen=True)
class DemoOptions:
    """`smoke` keeps any trained reranker (or trains the small recipe) instead of ensuring
    the default recipe's model."""

    thresholds: Path
    smoke: bool = False
    trace_of: str = "bundle"
    searches: Sequence[str] = SEARCHES


@dataclass(frozen=True)
class DemoRun:
    """What one run measured: named metrics, the conversations, and the smoke report."""

    metrics: Mapping[str, float]
    conversations: Sequence[Conversation] = ()
    smoke: Mapping[str, object] = field(default_factory=dict)


def offline(settings: Settings) -> Settings:
    """The settings the demo runs on: no LLM (the offline policy), the in-process cache."""
    return settings.model_copy(update={"openai_base_url": None, "redis_url": None})


def ensure_index(settings: Settings, echo: Echo) -> tuple[Mapping[str, str], Embedder]:
    """Build the index when the catalog or model changed (a no-op otherwise); the catalog's
    dedupe aliases (for the judgments) and the loaded embedder, to reuse."""
    catalog = load_catalog(settings.data_dir, locale=settings.esci_locale)
    embedder = build_embedder(settings)
    report = build_index(settings, catalog=catalog, embedder=embedder, show_progress=True)
    echo(f"  index: {report.message}")
    return catalog.aliases, embedder


def ensure_reranker(settings: Settings, *, smoke: bool, echo: Echo) -> Settings:
    """Train the default recipe's reranker unless it exists and pin the settings to it;
    `smoke` keeps any trained model, else trains the quick `small()` recipe. A configured
    model or remote service is left alone."""
    if settings.reranker_backend == "remote" or settings.reranker_model:
        echo(f"  reranker: as configured ({settings.reranker_model or settings.reranker_url})")
        return settings
    existing = trained_models(settings.models_dir)
    if smoke and existing:
        echo(f"  reranker: {existing[0].name} (newest trained model)")
        return settings
    recipe = "small" if smoke else "default"
    config = RerankerTrainConfig.small() if smoke else RerankerTrainConfig.default()
    if not (model_dir_for(settings, config) / TRAINING_FILE).is_file():
        echo(f"  reranker: training the {recipe} recipe once (minutes on a CPU)")
    report = train_reranker(settings, config, show_progress=True)
    verb = "reused" if report.reused else "trained"
    echo(
        f"  reranker: {verb} {report.model_dir.name} ({recipe} recipe), "
        f"held-out AUC {report.heldout_auc:.3f}"
    )
    return settings.model_copy(update={"reranker_model": str(report.model_dir)})


def prepare(
    settings: Settings, *, smoke: bool, echo: Echo
) -> tuple[Settings, Mapping[str, str], Embedder]:
    """Index, then reranker (it is trained on the index): the settings to run on, the
    catalog aliases and the embedder."""
    aliases, embedder = ensure_index(settings, echo)
    return ensure_reranker(settings, smoke=smoke, echo=echo), aliases, embedder


def measure(
    settings: Settings,
    options: DemoOptions,
    spec: SmokeSpec,
    agent_factory: AgentFactory,
    *,
    index: SearchIndex,
    aliases: Mapping[str, str],
    echo: Echo,
) -> DemoRun:
    """Searches, conversations, one trace and the recall smoke test on an opened index,
    told to `echo` as they happen (call outside a running event loop)."""
    conversations = asyncio.run(_talk(settings, options, agent_factory, index, echo))
    metrics: dict[str, float] = {}
    for conversation in conversations:
        metrics.update(conversation_metrics(conversation, index.items))
    echo("")
    echo(f"4. Recall smoke test: {spec.queries} queries of {spec.judgments}")
    report = run_smoke(settings, spec, index=index, aliases=aliases)
    for line in smoke_table(report):
        echo(f"  {line}")
    metrics.update(smoke_metrics(report))
    return DemoRun(metrics, conversations, report)


async def _talk(
    settings: Settings,
    options: DemoOptions,
    agent_factory: AgentFactory,
    index: SearchIndex,
    echo: Echo,
) -> list[Conversation]:
    async with Runtime(settings, index=index) as runtime:
        echo("")
        echo("2. Plain searches (item_search, top 5: platform, price, id, title)")
        for query in options.searches:
            for line in await _search(runtime, query):
                echo(f"  {line}")
        echo("")
        echo(f"3. Six conversations through the agent ({_mode(runtime)})")
        recorder = SlotRecorder()
        agent = with_recorder(agent_factory(runtime), recorder)
        conversations = await converse(agent, recorder, SCENARIOS)
        for number, conversation in enumerate(conversations, 1):
            for line in conversation_lines(conversation, number, len(conversations)):
                echo(f"  {line}")
        traced = next((c for c in conversations if c.scenario.key == options.trace_of), None)
        if traced is not None and traced.summary is not None:
            echo("")
            echo(f"  Where the time went in '{traced.scenario.message}':")
            for line in trace_lines(traced.summary, hide={f"harness.{recorder.name}"}):
                echo(f"  {line}")
        return conversations


async def _search(runtime: Runtime, query: str) -> list[str]:
    ctx = ToolContext("demo", "search")
    outcome = await invoke_tool(runtime.tool("item_search"), {"query": query, "top_k": 5}, ctx)
    if not isinstance(outcome.output, ItemSearchResult):
        return [f"> {query}", f"  failed: {outcome.output.render()}"]
    return search_lines(outcome.output)


def _mode(runtime: Runtime) -> str:
    llm = "an LLM" if runtime.chat_model is not None else "offline policy, no LLM"
    return f"{llm}; autopick runs price_compare and item_picker"


def conclude(run: DemoRun, thresholds: Thresholds, echo: Echo) -> int:
    """Judge the run, tell every check and the outcome; the exit code (0 only if all hold)."""
    verdict = judge(run.metrics, thresholds)
    echo(f"5. Checks ({thresholds.source})")
    for result in verdict.results:
        echo(f"  {result.line()}")
    echo("")
    echo(verdict.headline())
    return verdict.exit_code


def run_demo(
    settings: Settings, options: DemoOptions, agent_factory: AgentFactory, echo: Echo
) -> int:
    """The whole demo; 0 when every threshold holds, 1 naming what failed, 2 when it could
    not run."""
    started = time.perf_counter()
    try:
        thresholds = load_thresholds(options.thresholds)
        echo("Pickwise demo: the offline shopping agent on the full catalog")
        echo("")
        echo("1. Preparing what is missing")
        ready, aliases, embedder = prepare(offline(settings), smoke=options.smoke, echo=echo)
        index = SearchIndex.open(ready, embedder=embedder)
        try:
            run = measure(
                ready, options, thresholds.smoke, agent_factory,
                index=index, aliases=aliases, echo=echo,
            )  # fmt: skip
        finally:
            asyncio.run(index.close())
    except PickwiseError as exc:
        echo(f"error: {exc}")
        return ERROR
    echo("")
    code = conclude(run, thresholds, echo)
    echo(f"(the demo took {time.perf_counter() - started:.0f} s)")
    return code
