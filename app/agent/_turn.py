"""The state of one running turn: its tool context and hooks, the events it emits (through a
queue the facade drains), stage timings, the picks so far and the ids it may cite."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

from app.agent.events import EventType, PickView, StageTiming, TurnEvent
from app.agent.follow_ups import FollowUpCues
from app.agent.hooks import CallGuard, HarnessHint, Hook, TurnHook
from app.agent.session import Session
from app.catalog.item import Item
from app.tools.base import ToolContext, ToolError, ToolOutcome
from app.tools.picker import ItemPickerResult, Pick
from app.tools.plan import Readings
from app.tools.summary import cited_ids

Mode = Literal["llm", "offline"]
PlannerName = Literal["llm", "rules"]


@dataclass
class Turn:
    """One turn of one session, shared by the facade, the loop or policy, and the tool runner."""

    session: Session
    turn_id: str
    message: str
    ctx: ToolContext
    hooks: Sequence[Hook]
    mode: Mode
    """The policy answering the turn: the LLM loop, or the offline policy."""
    planner: PlannerName = "rules"
    """Who made this turn's plan (the LLM, repaired or not, or the rules)."""
    queue: asyncio.Queue[TurnEvent | None] = field(default_factory=asyncio.Queue)
    trace: list[StageTiming] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    picks_by_slot: dict[str, list[PickView]] = field(default_factory=dict)
    seen_ids: set[str] = field(default_factory=set)
    answer: str = ""
    asked_about: PickView | None = None
    """The last turn's pick this message asks a price question about, if any."""
    asked_count: int | None = None
    """How many of the last turn's picks this message asks for, if that is all it asks."""
    count_picks: tuple[PickView, ...] = ()
    """The pick the count is asked of; none: every pick of the last turn."""
    asked_question: str | None = None
    """"best", "compare" or "most" when the message asks that about the last turn's picks."""
    asked_part: str | None = None
    """The part a "most" question asks of ("ram")."""
    asked_picks: int | None = None
    """How many of the first picks the question is about; None: all."""
    asked_trait: str | None = None
    """What a yes-or-no question asks of the picks ("wireless" of "is it wireless?")."""
    trait_items: list[tuple[PickView, Item | None]] = field(default_factory=list)
    """The picks that question is about, with their catalog items (None when unknown)."""
    readings: Readings = field(default_factory=Readings)
    """How many times this turn read shopper text into a plan."""
    cues: FollowUpCues | None = None
    """The new message's follow-up cues, settled on the planner's reading (None: no new
    message, a plan edit)."""
    catalog: str = ""
    """The catalog's brief for the model's system prompt (shops, kinds, what is listed)."""
    shops: frozenset[str] = frozenset()
    """The catalog's shops: an answer's `shop:id` citation of one of them must be vouched for."""

    def emit(self, type: EventType, **data: Any) -> None:
        """Queue one event of this turn."""
        session_id = self.session.session_id
        event = TurnEvent(type=type, turn_id=self.turn_id, session_id=session_id, data=data)
        self.queue.put_nowait(event)

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Record the wall time of one stage in the trace."""
        started = time.perf_counter()
        try:
            yield
        finally:
            self.trace.append(StageTiming(stage=name, ms=_ms_since(started)))

    @property
    def picks(self) -> list[PickView]:
        """The picks of this turn, every slot in the order first picked."""
        return [p for picks in self.picks_by_slot.values() for p in picks]

    def slot_ids(self) -> dict[str, list[str]]:
        """The ids of this turn's picks by slot (a bundle has one slot per part)."""
        return {slot: [p.item_id for p in picks] for slot, picks in self.picks_by_slot.items()}

    def allowed_ids(self) -> set[str]:
        """Item ids an answer may cite: those tool results showed, and the earlier picks."""
        return self.seen_ids | {p.item_id for p in self.session.picks}

    def record(self, outcome: ToolOutcome, by: str) -> None:
        """Book a finished tool call: hooks, ids shown, picks (with a `picks` event), trace."""
        self.trace.append(StageTiming(stage=f"tool.{outcome.tool}", ms=round(outcome.ms, 3)))
        if outcome.ok:
            self.seen_ids.update(cited_ids(outcome.output.render()))
        output = outcome.output
        if isinstance(output, ItemPickerResult):
            for part in output.slots:
                self.picks_by_slot[part.slot] = [_pick_view(p) for p in part.picks]
            self.seen_ids.update(p.item_id for p in output.picks)
            picks = [p.model_dump() for p in self.picks]
            self.emit("picks", picks=picks, by=by, slots=self.slot_ids())
        for hook in self.hooks:
            hook.after_tool(outcome, self.ctx)

    def check_call(self, tool: str) -> ToolError | None:
        """The first refusal a guarding hook gives a call of `tool`, asking them in order."""
        for guard in self._guards():
            error = guard.check_call(tool, self.ctx)
            if error is not None:
                return error
        return None

    def model_notes(self, tool: str, outcome: ToolOutcome) -> list[str]:
        """What the guarding hooks add to a result the model reads."""
        return [n for g in self._guards() if (n := g.model_note(tool, outcome))]

    def allow_model_call(self, made: int) -> bool:
        """Whether every guarding hook lets the loop call the model again."""
        return all(g.allow_model_call(made) for g in self._guards())

    def _guards(self) -> list[CallGuard]:
        return [h for h in self.hooks if isinstance(h, CallGuard)]

    async def hints(self) -> list[HarnessHint]:
        """Ask every hook for its hints; the tool calls a harness ran are shown as tool events."""
        hints: list[HarnessHint] = []
        for hook in self.hooks:
            if not isinstance(hook, TurnHook):
                continue
            with self.stage(f"harness.{hook.name}"):
                found = await hook.before_model_call(self.ctx)
            for hint in found:
                for n, outcome in enumerate(hint.outcomes, start=1):
                    call_id = f"{hint.source}-{len(self.trace)}-{n}"
                    self.emit("tool_start", call_id=call_id, tool=outcome.tool, by=hint.source)
                    self.emit("tool_end", **tool_end_data(call_id, outcome, hint.source))
                    self.record(outcome, hint.source)
            hints += found
        return hints


def tool_end_data(call_id: str, outcome: ToolOutcome, by: str) -> dict[str, Any]:
    """The data of a `tool_end` event: status, time, first line of the result or the error."""
    data: dict[str, Any] = {
        "call_id": call_id,
        "tool": outcome.tool,
        "by": by,
        "ok": outcome.ok,
        "ms": round(outcome.ms, 3),
    }
    output = outcome.output
    if outcome.ok:
        data["summary"] = output.render().split("\n", 1)[0][:200]
    else:
        data["code"] = getattr(output, "code", "error")
        data["message"] = getattr(output, "message", "")
    return data


def _pick_view(pick: Pick) -> PickView:
    return PickView(
        item_id=pick.item_id,
        title=pick.title,
        platform=pick.platform,
        price_usd=pick.price_usd,
        brand=pick.brand,
        price=pick.price,
        currency=pick.currency,
        attributes=dict(pick.attributes),
        availability=pick.availability,
        reason=pick.reason,
    )


def _ms_since(started: float) -> float:
    return round((time.perf_counter() - started) * 1000.0, 3)
