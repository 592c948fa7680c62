"""The production agent on an opened `Runtime`: its tools, session store and chat model (the
offline policy when no LLM is configured) with the autopick harness. The one place the HTTP
API, the CLI and the benchmarks get the agent from, so neither front end imports the other."""

from __future__ import annotations

from app.agent.chat import HookFactory, ShoppingAgent
from app.runtime import Runtime
from harness.autopick import AutopickHook

__all__ = ["build_agent"]


def build_agent(runtime: Runtime, *, hooks: HookFactory | None = None) -> ShoppingAgent:
    """The agent over `runtime`'s components; `hooks` replaces the default autopick harness."""
    return ShoppingAgent(
        runtime.tools,
        runtime.sessions,
        model=runtime.chat_model,
        hooks=hooks or (lambda: [AutopickHook(runtime.tools)]),
        speller=runtime.index.speller,
        items=runtime.index.items,
        catalog_brief=runtime.index.facets.brief(),
    )
