"""The production agent on an opened `Runtime`: its tools, session store and chat model (the
offline policy when no LLM is configured) with the autopick harness. The one place the HTTP
API, the CLI and the benchmarks get the agent from, so neither front end imports the other."""

from __future__ import annotations

import copy
import logging
import time
from collections.abc import Mapping
from typing import Any

from app.agent.chat import HookFactory, ShoppingAgent
from app.agent.session import SessionStore, open_session_store
from app.runtime import Runtime
from app.tools.base import Tool
from app.tools.llm import ChatModel
from harness import turn_hooks

__all__ = ["build_agent", "warm_up"]

log = logging.getLogger(__name__)


def build_agent(runtime: Runtime, *, hooks: HookFactory | None = None) -> ShoppingAgent:
    """The agent over `runtime`'s components with the harness's hooks; `hooks` replaces the
    default autopick harness (the budgets and dependency-down guards always run)."""
    return _agent(
        runtime,
        runtime.tools,
        runtime.sessions,
        model=runtime.chat_model,
        hooks=hooks,
        catalog_brief=runtime.index.facets.brief(),
    )


def _agent(
    runtime: Runtime,
    tools: Mapping[str, Tool[Any, Any]],
    sessions: SessionStore,
    *,
    model: ChatModel | None = None,
    hooks: HookFactory | None = None,
    catalog_brief: str = "",
) -> ShoppingAgent:
    """An agent over `tools` and `sessions` with the runtime's index look-ups and the
    harness's hooks (`hooks` in place of autopick)."""
    return ShoppingAgent(
        tools,
        sessions,
        model=model,
        hooks=lambda: turn_hooks(tools, hooks() if hooks else None),
        speller=runtime.index.speller,
        items=runtime.index.items,
        catalog_brief=catalog_brief,
    )


async def warm_up(runtime: Runtime) -> float:
    """Seconds one offline turn for the catalog's largest category took, on a throwaway
    in-process session and without the LLM, so the first shopper's turn finds the models,
    index shards and vocabularies loaded; a failed warm-up is logged, never raised."""
    categories = runtime.index.facets.categories
    message = f"show me {categories[0].value.lower()}" if categories else "show me something"
    sessions = open_session_store(None)
    agent = _agent(runtime, _without_model(runtime.tools), sessions)
    started = time.perf_counter()
    try:
        async for _event in agent.run_turn(None, message):
            pass
    except Exception:  # a warm-up is an optimisation: serving goes on without it
        log.warning("warm-up turn failed; the first turn will load what it needs", exc_info=True)
    finally:
        await sessions.close()
    seconds = time.perf_counter() - started
    log.info("warm-up turn %r took %.2f s", message, seconds)
    return seconds


def _without_model(tools: Mapping[str, Tool[Any, Any]]) -> dict[str, Tool[Any, Any]]:
    """`tools` as the rules run them: a tool holding the chat model gets a twin without it
    that shares everything else (vocabularies, caches, the gate), so no LLM is called."""
    offline = {}
    for name, tool in tools.items():
        if getattr(tool, "model", None) is not None:
            tool = copy.copy(tool)
            tool.model = None  # type: ignore[attr-defined]
        offline[name] = tool
    return offline
