"""The autopick harness: once item_search has found candidates, run price_compare and then
item_picker for each searched slot before the model's next call, through the same
`invoke_tool` pipeline as the model's own calls, and hand the picks to the model as a hint.

It stands down for the rest of the turn when the model calls item_picker itself, when the
AUTOPICK parameter is off, and, silently (logged), when anything inside it fails: the model
then calls the tools itself.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from app.agent.hooks import HarnessHint
from app.config.params.picker import AUTOPICK
from app.tools.base import Tool, ToolContext, ToolOutcome, invoke_tool
from app.tools.candidates import DEFAULT_SLOT

__all__ = ["COMPARE", "PICKER", "SEARCH", "AutopickHook"]

log = logging.getLogger(__name__)

SEARCH = "item_search"
COMPARE = "price_compare"
PICKER = "item_picker"

LEAD = (
    "autopick ran price_compare and item_picker for you on the candidates just found. "
    "Present these picks with their reasons; do not call item_picker again unless the "
    "shopper changes the request."
)


class AutopickHook:
    """A `TurnHook`: armed per slot by a successful item_search, disarmed for the turn once
    the model calls item_picker itself."""

    name = "autopick"

    def __init__(self, tools: Mapping[str, Tool[Any, Any]]) -> None:
        self._tools = tools
        self._armed: list[str] = []
        self._model_picked = False
        self._own: list[ToolOutcome] = []

    @property
    def armed(self) -> tuple[str, ...]:
        """The slots waiting to be picked, in the order they were searched."""
        return tuple(self._armed)

    def start_turn(self, ctx: ToolContext) -> None:
        """Forget the previous turn's arming and stand-down."""
        self._armed.clear()
        self._own.clear()
        self._model_picked = False

    def after_tool(self, outcome: ToolOutcome, ctx: ToolContext) -> None:
        """Arm on a successful item_search; disarm when someone else calls item_picker."""
        if any(outcome is own for own in self._own):
            return
        if outcome.tool == PICKER:
            self._model_picked = True
            self._armed.clear()
        elif outcome.tool == SEARCH and outcome.ok and not self._model_picked:
            slot = getattr(outcome.output, "slot", None) or DEFAULT_SLOT
            if slot not in self._armed:
                self._armed.append(slot)

    async def before_model_call(self, ctx: ToolContext) -> list[HarnessHint]:
        """Compare and pick every armed slot; [] when disarmed, off, or failing."""
        if not self._armed:
            return []
        slots = _in_plan_order(self._armed, ctx)
        self._armed.clear()
        if not AUTOPICK.get():
            return []
        picker = self._tools.get(PICKER)
        if picker is None:
            log.warning("autopick: no %s tool is registered; leaving picking to the model", PICKER)
            return []
        try:
            outcomes, texts = await self._pick(slots, picker, ctx)
        except Exception:
            log.exception("autopick failed for slots %s; the model will pick by itself", slots)
            return []
        if not texts:
            return []
        return [HarnessHint(source=self.name, text="\n".join([LEAD, *texts]), outcomes=outcomes)]

    async def _pick(
        self, slots: Sequence[str], picker: Tool[Any, Any], ctx: ToolContext
    ) -> tuple[tuple[ToolOutcome, ...], list[str]]:
        """price_compare then item_picker per slot; failed calls are logged and left out."""
        compare = self._tools.get(COMPARE)
        outcomes: list[ToolOutcome] = []
        texts: list[str] = []
        for slot in slots:
            if not ctx.candidates.slot(slot):
                continue
            if compare is not None:
                compared = await self._call(compare, {"slot": slot}, ctx)
                if compared.ok:
                    outcomes.append(compared)
            picked = await self._call(picker, {"slot": slot}, ctx)
            if picked.ok:
                outcomes.append(picked)
                texts.append(picked.output.render())
        return tuple(outcomes), texts

    async def _call(
        self, tool: Tool[Any, Any], args: dict[str, Any], ctx: ToolContext
    ) -> ToolOutcome:
        outcome = await invoke_tool(tool, args, ctx)
        self._own.append(outcome)
        if not outcome.ok:
            log.warning("autopick: %s %s failed: %s", tool.name, args, outcome.output.render())
        return outcome


def _in_plan_order(slots: Sequence[str], ctx: ToolContext) -> list[str]:
    """The armed slots, the plan's bundle order first, then in the order searched."""
    order = [b.slot for b in ctx.plan.bundle if b.slot in slots]
    return order + [s for s in slots if s not in order]
