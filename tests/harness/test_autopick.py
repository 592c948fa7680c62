"""The autopick harness on the real index and tools: armed by item_search, it runs
price_compare and item_picker through invoke_tool before the next model call; the model's
own item_picker disarms it, AUTOPICK=0 turns it off, bundles go slot by slot, and a failure
inside it is logged and leaves picking to the model."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import AsyncIterator
from typing import Any, cast

import pytest
import pytest_asyncio

from app.agent.hooks import HarnessHint, TurnHook
from app.config.registry import REGISTRY
from app.config.settings import Settings
from app.recall.search_index import SearchIndex
from app.runtime import Runtime
from app.tools.base import ToolContext, ToolError, ToolOutcome, invoke_tool
from app.tools.picker.item_picker import ItemPickerResult, ItemPickerTool
from app.tools.plan.planner_rules import plan_from_text
from harness.autopick import AutopickHook

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module")]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def runtime(built_index: Settings) -> AsyncIterator[Runtime]:
    """One runtime on the real index with every tool the harness uses."""
    async with Runtime(built_index) as opened:
        yield opened


def turn(request: str) -> ToolContext:
    return ToolContext("session", "turn", plan=plan_from_text([request]))


async def model_calls(
    runtime: Runtime, hook: AutopickHook, ctx: ToolContext, tool: str, args: dict[str, Any]
) -> ToolOutcome:
    """A call as the agent loop makes it: invoke_tool, then every hook hears of it."""
    outcome = await invoke_tool(runtime.tool(tool), args, ctx)
    hook.after_tool(outcome, ctx)
    return outcome


async def loop_asks_for_hints(hook: AutopickHook, ctx: ToolContext) -> list[HarnessHint]:
    """Before a model call the loop asks for hints and books the calls a harness ran."""
    hints = await hook.before_model_call(ctx)
    for hint in hints:
        for outcome in hint.outcomes:
            hook.after_tool(outcome, ctx)
    return hints


async def test_is_a_turn_hook(runtime: Runtime) -> None:
    hook = AutopickHook(runtime.tools)
    assert isinstance(hook, TurnHook)
    assert hook.name == "autopick"
    assert await hook.before_model_call(turn("laptop")) == []


async def test_item_search_arms_and_the_next_model_call_gets_picks(runtime: Runtime) -> None:
    hook = AutopickHook(runtime.tools)
    ctx = turn("gaming keyboard under $80")
    hook.start_turn(ctx)
    await model_calls(runtime, hook, ctx, "item_search", {"query": "gaming keyboard"})
    assert hook.armed == ("main",)
    (hint,) = await loop_asks_for_hints(hook, ctx)
    assert hint.source == "autopick"
    assert [o.tool for o in hint.outcomes] == ["price_compare", "item_picker"]
    assert all(o.ok for o in hint.outcomes)
    picked = hint.outcomes[1].output
    assert isinstance(picked, ItemPickerResult)
    assert ctx.last_results["item_picker"] is picked
    assert ctx.last_results["price_compare"] is hint.outcomes[0].output
    assert picked.picks
    for pick in picked.picks:
        assert f"[{pick.item_id}]" in hint.text
        assert pick.price_usd is not None
        assert pick.price_usd <= 80
    assert hook.armed == ()
    assert await loop_asks_for_hints(hook, ctx) == []


async def test_a_failed_search_does_not_arm(runtime: Runtime) -> None:
    hook = AutopickHook(runtime.tools)
    ctx = turn("laptop")
    outcome = await model_calls(runtime, hook, ctx, "item_search", {"query": ""})
    assert isinstance(outcome.output, ToolError)
    assert hook.armed == ()


async def test_the_model_calling_item_picker_disarms_it_for_the_turn(runtime: Runtime) -> None:
    hook = AutopickHook(runtime.tools)
    ctx = turn("wireless mouse")
    hook.start_turn(ctx)
    await model_calls(runtime, hook, ctx, "item_search", {"query": "wireless mouse"})
    await model_calls(runtime, hook, ctx, "item_picker", {})
    assert hook.armed == ()
    assert await loop_asks_for_hints(hook, ctx) == []
    await model_calls(runtime, hook, ctx, "item_search", {"query": "wireless mouse", "top_k": 5})
    assert hook.armed == ()
    hook.start_turn(ctx)
    await model_calls(runtime, hook, ctx, "item_search", {"query": "wireless mouse"})
    assert hook.armed == ("main",)


async def test_its_own_calls_do_not_disarm_or_rearm_it(runtime: Runtime) -> None:
    hook = AutopickHook(runtime.tools)
    ctx = turn("usb hub")
    hook.start_turn(ctx)
    await model_calls(runtime, hook, ctx, "item_search", {"query": "usb hub"})
    assert await loop_asks_for_hints(hook, ctx)
    await model_calls(runtime, hook, ctx, "item_search", {"query": "usb-c hub"})
    assert hook.armed == ("main",)


async def test_autopick_off_leaves_picking_to_the_model(runtime: Runtime) -> None:
    hook = AutopickHook(runtime.tools)
    ctx = turn("wireless mouse")
    with REGISTRY.overridden(AUTOPICK=False):
        await model_calls(runtime, hook, ctx, "item_search", {"query": "wireless mouse"})
        assert await loop_asks_for_hints(hook, ctx) == []
    assert "item_picker" not in ctx.last_results
    assert "price_compare" not in ctx.last_results


async def test_autopick_0_in_the_environment_turns_it_off() -> None:
    code = "from app.config.params.picker import AUTOPICK; print(AUTOPICK.get())"
    values = []
    for setting in ("0", "1"):
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            code,
            env={**os.environ, "AUTOPICK": setting},
            stdout=asyncio.subprocess.PIPE,
        )
        out, _ = await process.communicate()
        values.append(out.decode().strip())
    assert values == ["False", "True"]


async def test_a_bundle_is_compared_and_picked_slot_by_slot(runtime: Runtime) -> None:
    hook = AutopickHook(runtime.tools)
    ctx = turn("i need a tv and a soundbar")
    hook.start_turn(ctx)
    for slot in ("soundbar", "tv"):
        await model_calls(runtime, hook, ctx, "item_search", {"query": slot, "slot": slot})
    (hint,) = await loop_asks_for_hints(hook, ctx)
    assert [o.tool for o in hint.outcomes] == ["price_compare", "item_picker"] * 2
    picked = [cast(ItemPickerResult, o.output) for o in hint.outcomes if o.tool == "item_picker"]
    assert [p.slot for p in picked] == ["tv", "soundbar"]
    assert [len(p.picks) for p in picked] == [1, 1]
    assert set(ctx.slot_results["item_picker"]) == {"tv", "soundbar"}
    assert set(ctx.slot_results["price_compare"]) == {"tv", "soundbar"}


async def test_a_failure_inside_falls_back_silently(
    runtime: Runtime, caplog: pytest.LogCaptureFixture
) -> None:
    broken = ItemPickerTool(cast(SearchIndex, None), runtime.index.embedder)
    hook = AutopickHook({**runtime.tools, "item_picker": broken})
    ctx = turn("wireless mouse")
    await model_calls(runtime, hook, ctx, "item_search", {"query": "wireless mouse"})
    with caplog.at_level(logging.WARNING, logger="harness.autopick"):
        assert await loop_asks_for_hints(hook, ctx) == []
    assert any("autopick failed" in r.getMessage() for r in caplog.records)
    assert "item_picker" not in ctx.last_results
    assert hook.armed == ()


async def test_without_price_compare_it_still_picks(runtime: Runtime) -> None:
    hook = AutopickHook({k: v for k, v in runtime.tools.items() if k != "price_compare"})
    ctx = turn("wireless mouse")
    await model_calls(runtime, hook, ctx, "item_search", {"query": "wireless mouse"})
    (hint,) = await loop_asks_for_hints(hook, ctx)
    assert [o.tool for o in hint.outcomes] == ["item_picker"]
