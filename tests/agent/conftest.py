"""Fixtures of the agent tests: the scripted OpenAI server, one real index and one
price_compare tool shared by every module, and agents over runtimes built on them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager

import pytest

from app.agent.chat import ShoppingAgent
from app.config.settings import Settings
from app.recall.breakers import BREAKERS
from app.recall.search_index import SearchIndex
from app.runtime import Runtime
from app.runtime_agent import build_agent
from app.tools.compare.price_compare import PriceCompareTool
from app.tools.picker.item_picker import ItemPickerTool
from tests.fakes.scripted_openai import scripted_openai, scripted_openai_server

__all__ = ["open_agent", "scripted_openai", "scripted_openai_server"]


@pytest.fixture(autouse=True)
def _closed_breakers() -> Iterator[None]:
    BREAKERS.reset()
    yield
    BREAKERS.reset()


@pytest.fixture(scope="session")
def agent_index(built_index: Settings) -> Iterator[SearchIndex]:
    """The real index, opened once for every agent test module."""
    index = SearchIndex.open(built_index)
    yield index
    asyncio.run(index.close())


@pytest.fixture(scope="session")
def compare_tool(agent_index: SearchIndex) -> PriceCompareTool:
    """price_compare over the real index (its offer finder takes seconds to build)."""
    return PriceCompareTool(agent_index)


@asynccontextmanager
async def open_agent(
    settings: Settings, index: SearchIndex, compare: PriceCompareTool
) -> AsyncIterator[tuple[Runtime, ShoppingAgent]]:
    """A runtime on the shared index with every shopping tool, and the agent on it with
    the autopick harness."""
    async with Runtime(settings, index=index) as runtime:
        runtime.tools.setdefault("price_compare", compare)
        runtime.tools.setdefault("item_picker", ItemPickerTool(index, index.embedder))
        agent = build_agent(runtime)
        yield runtime, agent
