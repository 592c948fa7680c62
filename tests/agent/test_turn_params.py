"""A turn reads every parameter from the snapshot pinned at its start: an admin change applied
while the turn runs (from another thread, as the override poller does) is not seen by that
turn's hooks and tools, and is seen by the next turn."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from app.agent.chat import collect
from app.agent.hooks import HarnessHint
from app.config.params.item_search import ITEM_SEARCH_POOL
from app.config.registry import REGISTRY
from app.config.settings import Settings
from app.recall.search_index import SearchIndex
from app.runtime import Runtime
from app.runtime_agent import build_agent
from app.tools.base import ToolContext, ToolOutcome
from app.tools.compare.price_compare import PriceCompareTool


class AdminChangesMidTurn:
    """A hook that, after the turn's first tool call, has another thread apply an override
    of `ITEM_SEARCH_POOL` (as an admin would) and records the value the turn reads."""

    name = "admin-changes-mid-turn"

    def __init__(self, new_value: int) -> None:
        self.new_value = new_value
        self.seen: list[int] = []

    def start_turn(self, ctx: ToolContext) -> None:
        self.seen.append(ITEM_SEARCH_POOL.get())

    def after_tool(self, outcome: ToolOutcome, ctx: ToolContext) -> None:
        if len(self.seen) == 1:
            admin = threading.Thread(target=self._admin_change)
            admin.start()
            admin.join()
        self.seen.append(ITEM_SEARCH_POOL.get())

    async def before_model_call(self, ctx: ToolContext) -> list[HarnessHint]:
        return []

    def _admin_change(self) -> None:
        overrides = {**REGISTRY.overrides(), "ITEM_SEARCH_POOL": self.new_value}
        REGISTRY.apply_overrides(overrides, version=REGISTRY.version + 1)


@pytest.fixture
def restored_overrides() -> Iterator[None]:
    before, version = REGISTRY.overrides(), REGISTRY.version
    yield
    REGISTRY.apply_overrides(before, version=version)


@pytest.mark.usefixtures("restored_overrides")
async def test_a_parameter_changed_mid_turn_is_not_seen_by_that_turn(
    built_index: Settings, agent_index: SearchIndex, compare_tool: PriceCompareTool
) -> None:
    old = ITEM_SEARCH_POOL.get()
    first, second = AdminChangesMidTurn(old + 7), AdminChangesMidTurn(old + 7)
    hooks = iter([[first], [second]])
    async with Runtime(built_index, index=agent_index) as runtime:
        runtime.tools.setdefault("price_compare", compare_tool)
        agent = build_agent(runtime, hooks=lambda: next(hooks))
        summary = await collect(agent.run_turn(None, "a wireless mouse under $25"))
        assert ITEM_SEARCH_POOL.get() == old + 7, "the change is in force outside the turn"
        await collect(agent.run_turn(summary.session_id, "cheaper"))
    assert len(first.seen) >= 3, "the turn made tool calls after the change"
    assert set(first.seen) == {old}
    assert set(second.seen) == {old + 7}, "the next turn reads the new value"
