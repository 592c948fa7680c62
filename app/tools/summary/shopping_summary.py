"""shopping_summary: the turn's answer. One line per pick citing [item_id], platform, price,
reason and a cheaper offer; for a slot without picks, why (probe reasons, picker counts).
Written by the LLM when one is configured, from a template otherwise; ids always checked."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.catalog.currency import usd
from app.catalog.spelling import Respelling
from app.errors import DependencyDown, InvalidRequest
from app.tools.base import ToolContext, ToolResult
from app.tools.llm import ChatModel
from app.tools.picker import Pick
from app.tools.summary._bundle_total import together
from app.tools.summary._facts import (
    SlotFacts,
    SummaryFacts,
    cheaper_offer,
    check_item_ids,
    cited_ids,
    gather_facts,
)

__all__ = [
    "ShoppingSummaryArgs",
    "ShoppingSummaryResult",
    "ShoppingSummaryTool",
    "check_item_ids",
    "cited_ids",
    "template",
]

log = logging.getLogger(__name__)

DESCRIPTION = (
    "End the turn with the answer to the shopper, written from this turn's item_search and "
    "item_picker results: one line per pick citing [item_id], platform, price and the "
    "reason, plus a cheaper offer when price_compare found one; for a request with no "
    "pick it says why (e.g. every match is over the budget). Call it last, once picks "
    "exist or the search showed there are none. `note` adds one remark or question."
)

WRITER_PROMPT = (
    "You are Pickwise, a shopping assistant. Rewrite the facts below as a short, friendly "
    "answer to the shopper. Keep one line per pick and every [item_id] exactly as written; "
    "keep each price, platform and reason. Never add an item, price or claim that is not "
    "in the facts. When a part has no pick, say why in the facts' words."
)


class ShoppingSummaryArgs(BaseModel):
    """What the model may add to the summary."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    note: str | None = Field(
        None,
        max_length=500,
        description="One remark or question for the shopper after the picks, e.g. "
        "'Do you prefer a wired one?'. Do not name items here.",
    )


class ShoppingSummaryResult(ToolResult):
    """The answer text, how it was written, and which ids it cites or had removed."""

    text: str
    source: Literal["llm", "template"]
    cited: list[str] = Field(default_factory=list)
    removed_ids: list[str] = Field(default_factory=list)
    slots_without_picks: list[str] = Field(default_factory=list)

    def render(self) -> str:
        return self.text


class ShoppingSummaryTool:
    """Writes the answer from the context's results; the LLM only rephrases the template."""

    name: ClassVar[str] = "shopping_summary"
    description: ClassVar[str] = DESCRIPTION
    args_model: ClassVar[type[BaseModel]] = ShoppingSummaryArgs
    concurrency_safe: ClassVar[bool] = False
    terminal: ClassVar[bool] = True

    def __init__(self, model: ChatModel | None = None) -> None:
        self.model = model

    async def run(self, args: ShoppingSummaryArgs, ctx: ToolContext) -> ShoppingSummaryResult:
        facts = gather_facts(ctx)
        if not facts.slots:
            raise InvalidRequest(
                "nothing to summarise yet: run item_search (and item_picker) first, or "
                "chat_fallback when the message is not about shopping"
            )
        allowed = facts.allowed_ids()
        base, _ = check_item_ids(template(facts, args.note), allowed)
        if self.model is not None:
            written = await self._written(self.model, base)
            if written is not None:
                text, removed = check_item_ids(written, allowed)
                if _keeps_picks(text, facts):
                    return _result(text, "llm", facts, removed)
                log.info("LLM summary dropped the picks (removed %s); using the template", removed)
        return _result(base, "template", facts, [])

    async def _written(self, model: ChatModel, facts_text: str) -> str | None:
        try:
            reply = await model.chat(
                [
                    {"role": "system", "content": WRITER_PROMPT},
                    {"role": "user", "content": facts_text},
                ]
            )
        except DependencyDown as exc:
            log.info("LLM summary unavailable (%s); using the template", exc)
            return None
        return (reply.content or "").strip() or None


def template(facts: SummaryFacts, note: str | None = None) -> str:
    """The deterministic answer: picks per slot with reasons and offers, or why none."""
    bundle = len(facts.slots) > 1
    lines: list[str] = [_respelled_line(facts.respelled)] if facts.respelled else []
    total = len(facts.picks)
    if not bundle and facts.slots[0].caveat:
        lines.append(f"{facts.slots[0].caveat}.")
    if total:
        lines.append("Here is my pick:" if total == 1 else f"Here are my {total} picks:")
    for slot in facts.slots:
        lines += _slot_lines(slot, bundle)
    cost = together([s.picks for s in facts.slots], facts.budget_usd) if bundle else None
    if cost is not None:
        lines.append(f"{cost}.")
    if facts.excluded:
        lines.append("Left out as you asked: " + ", ".join(facts.excluded) + ".")
    if not total:
        lines.append(_look_again(facts.limits, sold_out=facts.sold_out))
    if note:
        lines.append(note)
    return "\n".join(lines)


def _look_again(limits: Sequence[str], *, sold_out: bool = False) -> str:
    """What the shopper can change when nothing was picked: a constraint in force, else what
    else would do when the product is only sold out, else the words (no constraint hid
    anything)."""
    if limits:
        named = " or ".join([", ".join(limits[:-1]), limits[-1]] if len(limits) > 1 else limits)
        return f"Loosen {named} and I'll look again."
    if sold_out:
        return "Tell me what else would do, or ask again when it is back in stock."
    return "Tell me another name for it or what it is for, and I'll look again."


def _respelled_line(respelled: Sequence[Respelling]) -> str:
    read = ", ".join(f'"{r.written}" as "{r.read_as}"' for r in respelled)
    return f"(I read {read}.)"


def _slot_lines(slot: SlotFacts, bundle: bool) -> list[str]:
    label = f"{slot.slot}: " if bundle else ""
    if not slot.picks:
        return [f"{label}No pick for {slot.query!r}: {slot.why_none}."]
    if not bundle:
        return [_pick_line(p) for p in slot.picks]
    head = [f"{slot.slot.capitalize()}:"] + ([f"{slot.caveat}:"] if slot.caveat else [])
    return head + [_pick_line(p) for p in slot.picks]


def _pick_line(pick: Pick) -> str:
    """One cited pick with its reason, which states its price (or that it has none)."""
    line = f"- [{pick.item_id}] {pick.title} ({pick.platform}): {pick.reason}"
    offer = cheaper_offer(pick)
    if offer is not None and offer.item_id not in pick.reason and offer.price_usd is not None:
        line += (
            f". Cheaper on {offer.platform}: [{offer.item_id}] at {usd(offer.price_usd)}, "
            f"saves {usd(pick.saving_usd or 0)}"
        )
    return line + "."


def _keeps_picks(text: str, facts: SummaryFacts) -> bool:
    """The written text still cites every pick (otherwise it is not a faithful summary)."""
    cited = set(cited_ids(text))
    return all(p.item_id in cited for p in facts.picks) and bool(text.strip())


def _result(
    text: str, source: Literal["llm", "template"], facts: SummaryFacts, removed: list[str]
) -> ShoppingSummaryResult:
    return ShoppingSummaryResult(
        text=text,
        source=source,
        cited=cited_ids(text),
        removed_ids=removed,
        slots_without_picks=[s.slot for s in facts.slots if not s.picks],
    )
