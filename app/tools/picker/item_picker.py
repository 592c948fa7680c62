"""item_picker: at most a few items per slot, each right for the request and with a reason the
shopper can check, picked from the slot's candidates in seven stages (prepare, hard filter,
relevance gate, semantic scores, weighted score, selection, report); items the gate had not
scored that rank with the picks are judged and the slot weighed again, so no pick escapes
the gate."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.config.params.picker import (
    PICK_CHEAP_QUANTILE,
    PICK_CHEAPEST_SPREAD,
    PICK_DISPLAY_CAP,
    PICK_DUP_JACCARD,
    PICK_GATE_FLOOR,
    PICK_GATE_PENALTY,
    PICK_REL_SHOW_RATIO,
    PICK_RERANK_K,
    PICK_SHELF_GATE,
)
from app.errors import InvalidRequest
from app.recall.embedder import Embedder
from app.recall.offload import offload
from app.recall.reranker import Reranker
from app.recall.search_index import SearchIndex
from app.tools.base import ToolContext
from app.tools.candidates import DEFAULT_SLOT
from app.tools.compare import PriceCompareResult
from app.tools.picker._bundle import bundle_share
from app.tools.picker._filter import hard_filter, prepare
from app.tools.picker._gate import judge_more, run_gate
from app.tools.picker._model import Pooled, Scored, Selection
from app.tools.picker._report import OfferView, offers_by_item, slot_report
from app.tools.picker._result import ItemPickerResult, Pick, SlotPicks, StageReport
from app.tools.picker._scoring import TextVectors, current_weights, semantics, weigh
from app.tools.picker._select import affordable, cheapest_first, select, typical_price

__all__ = ["STAGES", "ItemPickerArgs", "ItemPickerResult", "ItemPickerTool", "Pick", "SlotPicks"]

_JUDGING_ROUNDS = 3
"""Weighing rounds: after each but the last, the gate judges the items it had not scored
that rank first, while a pick is one of them."""
_JUDGED_PER_PICK = 4
"""How many unscored items a judging round takes per pick asked for."""
STAGES = ("prepare", "hard_filter", "relevance_gate", "semantic", "weigh", "select", "report")

DESCRIPTION = (
    "Pick the best items (at most 3) for the shopper from the candidates item_search found "
    "for a slot, each with a reason to show: the asked terms and specs it has, its price "
    "against the budget, its relevance score, and a cheaper offer elsewhere when "
    "price_compare ran first. Ruled-out terms and the budget are never violated: items "
    "naming an excluded term, over budget, or without a price while a budget is set are "
    "dropped and counted. Call it after item_search (and price_compare); for a multi-item "
    "request pass slot 'all' to pick one per slot. Present the picks with their reasons; "
    "when it picks nothing, say why (the counts tell) instead of inventing an item."
)


class ItemPickerArgs(BaseModel):
    """What the model may ask item_picker for; anything else is rejected."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    slot: str | list[str] = Field(
        DEFAULT_SLOT,
        description="The slot to pick for (default 'main'); 'all' or a list of slots picks "
        "one item per slot for a multi-item request.",
    )
    budget_usd: float | None = Field(
        None,
        gt=0,
        allow_inf_nan=False,
        description="Highest price in USD. Default: the slot's budget, else the plan's budget.",
    )
    max_picks: int | None = Field(
        None, ge=1, le=10, description="How many picks per slot at most (the server caps it)."
    )

    @field_validator("slot")
    @classmethod
    def _clean_slots(cls, value: str | list[str]) -> str | list[str]:
        if isinstance(value, list):
            cleaned = list(dict.fromkeys(s.strip() for s in value))
            if not cleaned or any(not s or len(s) > 40 for s in cleaned):
                raise ValueError("slot list must name 1 or more slots of 1-40 characters")
            return cleaned
        if not value or len(value) > 40:
            raise ValueError("slot must be 1-40 characters")
        return value


class ItemPickerTool:
    """The item_picker tool: reads the slot candidates from the context and the catalog items
    from the index; without a reranker (or with one that fails) the gate is off, reported."""

    name: ClassVar[str] = "item_picker"
    description: ClassVar[str] = DESCRIPTION
    args_model: ClassVar[type[BaseModel]] = ItemPickerArgs
    concurrency_safe: ClassVar[bool] = True
    terminal: ClassVar[bool] = False

    def __init__(
        self,
        index: SearchIndex,
        embedder: Embedder,
        reranker: Reranker | None = None,
        *,
        reranker_unavailable: str | None = None,
    ) -> None:
        self.index = index
        self.embedder = embedder
        self.vectors = TextVectors(embedder)
        self.reranker = reranker
        self.reranker_unavailable = reranker_unavailable

    async def run(self, args: ItemPickerArgs, ctx: ToolContext) -> ItemPickerResult:
        """Run the seven stages for each requested slot and report picks and stage stats."""
        slots = _slots(args.slot, ctx)
        offers = offers_by_item(_compare_results(ctx))
        stats: dict[str, list[float]] = {name: [0.0, 0, 0] for name in STAGES}
        bundle = len(slots) > 1
        parts: list[SlotPicks] = []
        for slot in slots:
            parts.append(await self._pick_slot(slot, args, ctx, offers, stats, bundle, parts))
        return ItemPickerResult(
            slot=slots[0] if len(slots) == 1 else None,
            slots=parts,
            stages=[
                StageReport(name=n, ms=round(s[0], 3), n_in=int(s[1]), n_out=int(s[2]))
                for n, s in stats.items()
            ],
        )

    async def _pick_slot(
        self,
        slot: str,
        args: ItemPickerArgs,
        ctx: ToolContext,
        offers: dict[str, OfferView],
        stats: dict[str, list[float]],
        bundle_call: bool,
        done: Sequence[SlotPicks],
    ) -> SlotPicks:
        candidates = ctx.candidates.slot(slot)
        with _stage(stats, "prepare", len(candidates)) as out:
            share = bundle_share(
                ctx.plan, slot, ctx.candidates.by_slot, _first_prices(ctx, done), self.index.items
            )
            inputs = await offload(
                prepare,
                ctx.plan,
                slot,
                candidates,
                self.index.items,
                budget_usd=args.budget_usd,
                share_usd=share,
                shown_before=ctx.shown_before,
                max_picks=args.max_picks,
                cap=PICK_DISPLAY_CAP.get(),
                bundle_call=bundle_call,
            )
            out.append(len(inputs.entries))
        with _stage(stats, "hard_filter", len(inputs.entries)) as out:
            filtered = await offload(hard_filter, inputs, dup_threshold=PICK_DUP_JACCARD.get())
            out.append(len(filtered.pool))
        pool = filtered.pool
        with _stage(stats, "relevance_gate", len(pool)) as out:
            gate = await run_gate(
                inputs,
                filtered,
                self.reranker,
                k=PICK_RERANK_K.get(),
                floor=PICK_GATE_FLOOR.get(),
                shelf=PICK_SHELF_GATE.get(),
                unavailable=self.reranker_unavailable,
            )
            out.append(sum(not gate.penalised(p.item.item_id) for p in pool))
        with _stage(stats, "semantic", len(pool)) as out:
            scores = await semantics(self.vectors, inputs, pool, embed=gate.budget)
            out.append(len(scores))
        cheap = ctx.plan.cheap and not ctx.plan.cheapest
        for judging in range(_JUDGING_ROUNDS, 0, -1):
            with _stage(stats, "weigh", len(pool)) as out:
                penalty = PICK_GATE_PENALTY.get()
                weights = current_weights(cheap=ctx.plan.cheap)
                ranked = await offload(weigh, filtered, gate, scores, weights, penalty=penalty)
                out.append(len(ranked))
            typical = typical_price(ranked, PICK_CHEAP_QUANTILE.get()) if cheap else None
            with _stage(stats, "select", len(ranked)) as out:
                selection = await offload(
                    select,
                    affordable(ranked, typical),
                    max_picks=inputs.max_picks,
                    show_ratio=PICK_REL_SHOW_RATIO.get(),
                    dup_threshold=PICK_DUP_JACCARD.get(),
                    by_fit=not gate.on,
                )
                out.append(len(selection.picks))
            unjudged = to_judge(
                ranked, selection, limit=_JUDGED_PER_PICK * inputs.max_picks, reach=weights.gate
            )
            if not gate.on or not unjudged or judging == 1:
                break
            with _stage(stats, "relevance_gate", len(unjudged)) as out:
                gate = await judge_more(
                    gate, inputs, unjudged, self.reranker, shelf=PICK_SHELF_GATE.get()
                )
                out.append(sum(not gate.penalised(p.item.item_id) for p in unjudged))
        if ctx.plan.cheapest:
            selection = cheapest_first(selection, spread=PICK_CHEAPEST_SPREAD.get())
        with _stage(stats, "report", len(selection.picks)) as out:
            part = await offload(slot_report, inputs, filtered, gate, selection, offers)
            out.append(len(part.picks))
        return part


def to_judge(
    ranked: Sequence[Scored], selection: Selection, *, limit: int, reach: float
) -> list[Pooled]:
    """The first `limit` items the gate has not scored, in rank order, when a pick is one
    (judging only the picks let the next unjudged one, often a near-identical listing of
    the one just sunk, rise into its place round after round); else those that the best
    gate score (`reach`) would lift above the last pick ("a cheap laser printer": a $36
    LaserJet beyond the gate's first batch lost to $690 printers it never scored)."""
    unscored = [s for s in ranked if s.gate_score is None and not s.accessory]
    if not selection.picks or not unscored:
        return []
    if any(c.scored.gate_score is None and not c.scored.accessory for c in selection.picks):
        return [s.pooled for s in unscored][:limit]
    bar = min(c.scored.score for c in selection.picks)
    return [s.pooled for s in unscored if s.score + reach > bar][:limit]


def _slots(asked: str | list[str], ctx: ToolContext) -> list[str]:
    """The slots to pick for: 'all' means every searched slot, the plan's bundle order
    first; a named slot must have been searched (it may have found nothing)."""
    searched = list(ctx.candidates.by_slot)
    if asked == "all":
        order = [b.slot for b in ctx.plan.bundle if b.slot in searched]
        chosen = order + [s for s in searched if s not in order]
    else:
        chosen = [asked] if isinstance(asked, str) else list(asked)
    missing = [s for s in chosen if s not in searched]
    if missing or not chosen:
        raise InvalidRequest(
            f"slot(s) {missing or [asked]} were not searched (searched slots: "
            f"{', '.join(searched) or 'none'}); run item_search for them first"
        )
    return chosen


def _first_prices(ctx: ToolContext, done: Sequence[SlotPicks]) -> dict[str, float]:
    """The first pick's price of each slot picked this turn, by earlier calls or this one."""
    earlier = ctx.slot_results.get("item_picker", {}).values()
    parts = [p for r in earlier if isinstance(r, ItemPickerResult) for p in r.slots]
    return {
        part.slot: price
        for part in [*parts, *done]
        if part.picks and (price := part.picks[0].price_usd) is not None
    }


def _compare_results(ctx: ToolContext) -> list[PriceCompareResult]:
    """price_compare results of this session: one per slot, then the latest call."""
    found = [*ctx.slot_results.get("price_compare", {}).values()]
    latest = ctx.last_results.get("price_compare")
    if latest is not None:
        found.append(latest)
    return [r for r in found if isinstance(r, PriceCompareResult)]


@contextmanager
def _stage(stats: dict[str, list[float]], name: str, n_in: int) -> Iterator[list[int]]:
    """Time one stage and add its counts; the body appends the number of items out."""
    out: list[int] = []
    started = time.perf_counter()
    yield out
    row = stats[name]
    row[0] += (time.perf_counter() - started) * 1000.0
    row[1] += n_in
    row[2] += out[0] if out else 0
