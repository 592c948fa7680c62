"""The demo's scripted conversations: six shopper messages run through the real agent, each
turned into countable facts (picks over budget, excluded brands picked, slots without their
one pick…) that the thresholds file judges."""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from app.agent.chat import UNANSWERED, ShoppingAgent, collect
from app.agent.events import TurnSummary
from app.agent.hooks import HarnessHint
from app.catalog.item import Item
from app.tools.base import ToolContext, ToolOutcome
from app.tools.picker import ItemPickerResult

__all__ = [
    "SCENARIOS",
    "Conversation",
    "Kind",
    "Scenario",
    "SlotRecorder",
    "conversation_metrics",
    "converse",
    "with_recorder",
]

Kind = Literal["pick", "blocked", "bundle", "chat"]
_PRICE = re.compile(r"\$([\d,]+(?:\.\d+)?)")


@dataclass(frozen=True)
class Scenario:
    """One scripted shopper message and what its answer must respect; `key` prefixes its
    metrics (`budget.over_budget`, …)."""

    key: str
    title: str
    message: str
    kind: Kind = "pick"
    budget_usd: float | None = None
    excluded_terms: tuple[str, ...] = ()
    excluded_brands: tuple[str, ...] = ()


SCENARIOS = (
    Scenario("budget", "one item with a budget", "a wireless mouse under $25", budget_usd=25),
    Scenario(
        "exclude_term", "an excluded term", "a phone case, not black", excluded_terms=("black",)
    ),
    Scenario(
        "exclude_brand",
        "an excluded brand",
        "a wireless mouse, not Logitech",
        excluded_brands=("logitech",),
    ),
    Scenario(
        "blocked",
        "a request the budget blocks",
        "a refrigerator under $10",
        kind="blocked",
        budget_usd=10,
    ),
    Scenario("bundle", "a bundle", "a laptop and a mouse under $900", "bundle", budget_usd=900),
    Scenario("chat", "not about shopping", "what's the weather in Paris?", "chat"),
)


class SlotRecorder:
    """A `TurnHook` that only watches: the picks of each slot, which the turn summary
    flattens (a bundle must show one pick per slot)."""

    name = "demo-recorder"

    def __init__(self) -> None:
        self.picks_by_slot: dict[str, int] = {}

    def start_turn(self, ctx: ToolContext) -> None:
        self.picks_by_slot = {}

    def after_tool(self, outcome: ToolOutcome, ctx: ToolContext) -> None:
        if isinstance(outcome.output, ItemPickerResult):
            for part in outcome.output.slots:
                self.picks_by_slot[part.slot] = len(part.picks)

    async def before_model_call(self, ctx: ToolContext) -> list[HarnessHint]:
        return []


@dataclass
class Conversation:
    """What one scenario produced: the turn summary (None when the turn failed), the picks
    per slot, the wall time, and the error if any."""

    scenario: Scenario
    summary: TurnSummary | None
    picks_by_slot: dict[str, int] = field(default_factory=dict)
    ms: float = 0.0
    error: str | None = None


def with_recorder(agent: ShoppingAgent, recorder: SlotRecorder) -> ShoppingAgent:
    """The same agent and hooks, with `recorder` watching after them."""
    production = agent.hooks
    agent.hooks = lambda: [*production(), recorder]
    return agent


async def converse(
    agent: ShoppingAgent, recorder: SlotRecorder, scenarios: Sequence[Scenario] = SCENARIOS
) -> list[Conversation]:
    """Each scenario as the first turn of its own session, in order."""
    out = []
    for scenario in scenarios:
        started = time.perf_counter()
        try:
            summary = await collect(agent.run_turn(None, scenario.message))
        except Exception as exc:  # the demo reports any failure as a failed check
            ms = (time.perf_counter() - started) * 1000
            out.append(Conversation(scenario, None, ms=ms, error=f"{type(exc).__name__}: {exc}"))
            continue
        ms = (time.perf_counter() - started) * 1000
        out.append(Conversation(scenario, summary, dict(recorder.picks_by_slot), ms))
    return out


def conversation_metrics(conversation: Conversation, items: Mapping[str, Item]) -> dict[str, float]:
    """The facts the thresholds judge, named `<scenario key>.<fact>`; none when it failed."""
    s, summary = conversation.scenario, conversation.summary
    if summary is None:
        return {}
    picks = summary.picks
    facts: dict[str, float] = {"picks": len(picks)}
    if s.budget_usd is not None and s.kind != "blocked":
        facts["over_budget"] = sum(
            1 for p in picks if p.price_usd is None or p.price_usd > s.budget_usd
        )
    if s.excluded_terms:
        facts["naming_excluded"] = sum(
            1 for p in picks if any(t in p.title.lower() for t in s.excluded_terms)
        )
    if s.excluded_brands:
        facts["excluded_brand"] = sum(
            1
            for p in picks
            if any(b in _brand_text(p.item_id, p.title, items) for b in s.excluded_brands)
        )
    if s.kind == "blocked" and s.budget_usd is not None:
        facts["explained_with_price"] = float(_names_price_above(summary.answer, s.budget_usd))
    if s.kind == "bundle":
        slots = [b["slot"] for b in summary.plan.get("bundle", [])]
        facts["slots"] = len(slots)
        facts["slots_not_one_pick"] = sum(
            1 for slot in slots if conversation.picks_by_slot.get(slot) != 1
        )
    if s.kind == "chat":
        answer = summary.answer.strip()
        facts["answered"] = float(bool(answer) and answer != UNANSWERED)
    return {f"{s.key}.{name}": float(value) for name, value in facts.items()}


def _brand_text(item_id: str, title: str, items: Mapping[str, Item]) -> str:
    """The catalog brand and the title of a pick, lower-cased (a brand may be named in either)."""
    item = items.get(item_id)
    brand = item.brand if item is not None and item.brand else ""
    return f"{brand} {title}".lower()


def _names_price_above(answer: str, budget: float) -> bool:
    """True when the answer quotes a price above the budget (what the cheapest match costs)."""
    prices = [float(m.replace(",", "")) for m in _PRICE.findall(answer)]
    return any(p > budget for p in prices)
