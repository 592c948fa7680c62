"""The agent facade (`ChatAgent`): load or create the session, plan, run the LLM loop or the
offline policy, save the session, and stream the turn's events; `collect()` folds them into
a `TurnSummary`. One turn at a time per session in this process; a turn reads every
parameter from one snapshot pinned at its start."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import uuid
import weakref
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import Any

from app.agent._turn import Mode, Turn
from app.agent._turn_plan import plan_turn
from app.agent.events import PickView, StageTiming, TurnEvent, TurnSummary
from app.agent.follow_ups import follow_up_cues
from app.agent.hooks import Hook
from app.agent.loop import finish_with_summary, run_llm_turn
from app.agent.offline_policy import run_offline_turn
from app.agent.plan_edit import PlanEdit, hold_edit
from app.agent.session import Session, SessionStore
from app.agent.session_access import OpenedSession, SessionAccess, as_access
from app.catalog.item import Item
from app.catalog.spelling import Speller
from app.config import REGISTRY
from app.config.params.agent import AGENT_MESSAGE_MAX_CHARS
from app.config.params.llm import LLM_TURN_DEADLINE_S
from app.errors import DependencyDown, InvalidRequest, NotFound, Overloaded, PickwiseError
from app.language.text import is_unicode_text
from app.logging_setup import bind_turn
from app.recall.offload import offload
from app.tools.base import Tool, ToolContext
from app.tools.llm import (
    AGENT,
    PLANNER,
    ChatModel,
    breaker_of,
    fallback_note,
    role_available,
    turn_deadline,
)
from app.tools.plan import ShoppingPlan, count_readings_on
from app.tools.planner import PlannerResult

__all__ = ["UNANSWERED", "HookFactory", "ShoppingAgent", "collect", "no_hooks", "summarize"]

log = logging.getLogger(__name__)

HookFactory = Callable[[], Sequence[Hook]]
"""Builds fresh hooks for one turn (hooks keep per-turn state)."""

UNANSWERED = "Sorry, I could not finish this request. Could you say it another way?"


def no_hooks() -> Sequence[Hook]:
    return ()


class ShoppingAgent:
    """Runs chat turns over the runtime's tools, session store and (optional) chat model."""

    def __init__(
        self,
        tools: Mapping[str, Tool[Any, Any]],
        sessions: SessionStore,
        *,
        model: ChatModel | None = None,
        hooks: HookFactory = no_hooks,
        speller: Speller | None = None,
        items: Mapping[str, Item] | None = None,
        catalog_brief: str = "",
    ) -> None:
        if "planner" not in tools:
            raise PickwiseError("the agent needs the planner tool")
        self.tools = dict(tools)
        self.sessions = sessions
        self.model = model
        self.speller = speller
        self.items: Mapping[str, Item] = items or {}
        self.hooks = hooks
        self.catalog_brief = catalog_brief
        """What the model is told of the catalog (its shops, kinds, ratings listed or not)."""
        self.shops: tuple[str, ...] = ()
        """Shops every turn is scoped to when the shopper names none (`ask --platform`)."""
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    @functools.cached_property
    def catalog_shops(self) -> frozenset[str]:
        """The shops of the catalog's items, read once (the item map is fixed per index)."""
        return frozenset(item_id.split(":", 1)[0] for item_id in self.items)

    owns_sessions = True
    """Turns take a `SessionAccess` and check it (the API's ownership rule, `SessionOwner`)."""

    @property
    def mode(self) -> Mode:
        return "llm" if self.model is not None else "offline"

    async def run_turn(
        self, reach: SessionAccess | str | None, message: str
    ) -> AsyncIterator[TurnEvent]:
        """Events of one turn: `session` (with the token of a session issued to an untrusted
        caller), `plan`, tool and pick events, message deltas, then `done` or `error`. A plain
        id or None is a trusted in-process caller's. Bad input, a session that is not the
        caller's (`NotFound`) or an unreachable store raises before any event."""
        text = _check_message(message)
        access = as_access(reach)
        opened: OpenedSession | None = None
        key = access.session_id
        if key is None:
            opened = access.open(None)
            key = opened.session.session_id
        async with self._lock(key):
            if opened is None:  # an unreachable store refuses the turn of an existing session
                opened = access.open(await self.sessions.get(key))
            session = opened.session
            issued = {"session_token": opened.token} if opened.token else {}
            turn_id = uuid.uuid4().hex[:16]
            data = {"new": opened.created, "turn": session.turns + 1, **self._intended()}
            yield TurnEvent(
                type="session", turn_id=turn_id, session_id=session.session_id, data=data | issued
            )
            with REGISTRY.pinned(REGISTRY.snapshot()):
                turn = await offload(self._start, session, text, turn_id)
                task = asyncio.create_task(self._run(turn, text))
            async for event in self._follow(turn, task):
                yield event

    async def edit_plan(
        self, reach: SessionAccess | str, edit: PlanEdit
    ) -> AsyncIterator[TurnEvent]:
        """Hold `edit` in the session and run a turn that searches again with the plan the
        messages give, edited (no new message). `NotFound` for an unknown session (or one not
        the caller's), `InvalidRequest` for one without a plan or an edit that does not fit."""
        access = as_access(reach)
        sid = access.session_id
        if sid is None:
            raise NotFound("no session to edit")
        async with self._lock(sid):
            session = access.check(await self.sessions.get(sid))
            if session.plan is None or not session.user_messages:
                raise InvalidRequest("the session has no plan to edit yet")
            session.plan_edit = hold_edit(session.plan_edit, session.plan, edit)
            session.begin_turn(None)
            ctx = ToolContext(
                sid, uuid.uuid4().hex[:16], plan=session.plan, candidates=session.candidates
            )
            text = edit.describe()
            with REGISTRY.pinned(REGISTRY.snapshot()):
                turn = Turn(session, ctx.turn_id, text, ctx, tuple(self.hooks()), self.mode)
                turn.emit("session", new=False, turn=session.turns, edit=text, **self._intended())
                task = asyncio.create_task(self._run(turn, None))
            async for event in self._follow(turn, task):
                yield event

    def _intended(self) -> dict[str, str]:
        """What the turn starts out to use, given the model and its breakers now; the `done`
        event says what actually answered."""
        policy = "llm" if self.model is not None and role_available(AGENT) else "offline"
        planner = "llm" if self.model is not None and role_available(PLANNER) else "rules"
        return {"mode": policy, "planner": planner, "policy": policy}

    async def get_session(self, reach: SessionAccess | str) -> Session:
        """The stored session; `NotFound` when unknown, expired or not the caller's."""
        access = as_access(reach)
        return access.check(await self.sessions.get(access.session_id or ""))

    async def delete_session(self, reach: SessionAccess | str) -> bool:
        """Forget a session; False when there was none (or it is not the caller's)."""
        access = as_access(reach)
        sid = access.session_id or ""
        stored = await self.sessions.get(sid)
        if stored is None or not access.admits(stored):
            return False
        return await self.sessions.delete(sid)

    async def aclose(self) -> None:
        """Nothing of its own to release: the runtime owns the store and the model."""

    async def _follow(self, turn: Turn, task: asyncio.Task[None]) -> AsyncIterator[TurnEvent]:
        """Pass on the queued events of the turn running in `task`; cancel it if left early."""
        try:
            while (event := await turn.queue.get()) is not None:
                yield event
            await task
        finally:
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    def _start(self, session: Session, message: str, turn_id: str) -> Turn:
        """The turn of a new message, with its follow-up cues (read by no planner yet; run
        off the event loop, the turn's queue is made later, in the loop)."""
        cues = follow_up_cues(message, session, self.speller)
        session.begin_turn(None)
        ctx = ToolContext(
            session.session_id,
            turn_id,
            plan=session.plan or ShoppingPlan(),
            candidates=session.candidates,
        )
        turn = Turn(session, ctx.turn_id, message, ctx, tuple(self.hooks()), self.mode)
        turn.shops = self.catalog_shops
        turn.catalog = self.catalog_brief
        turn.cues = cues
        return turn

    async def _run(self, turn: Turn, said: str | None) -> None:
        """The turn after its `session` event; always ends the queue with done or error.
        `said`: the shopper's new message, if any (it may lift a held plan edit)."""
        bind_turn(turn.session.session_id, turn.turn_id)
        count_readings_on(turn.readings)
        try:
            for hook in turn.hooks:
                hook.start_turn(turn.ctx)
            with turn_deadline(LLM_TURN_DEADLINE_S.get()):
                planned = await plan_turn(
                    turn, self.tools["planner"], said, shops=self.shops, items=self.items
                )
                answered = await self._answer(turn, planned)
            if not answered or not turn.answer.strip():
                turn.answer = UNANSWERED
            for line in turn.answer.splitlines(keepends=True):
                turn.emit("message_delta", text=line)
            saved = await self._save(turn)
            turn.emit("done", **_done_data(turn, planned), saved=saved)
        except PickwiseError as exc:
            log.warning("turn %s failed: %s", turn.turn_id, exc)
            data: dict[str, Any] = {"code": exc.code, "message": str(exc)}
            if isinstance(exc, DependencyDown):
                data["dependency"] = exc.name
            if isinstance(exc, Overloaded):
                data["retry_after_s"] = exc.retry_after_s
            turn.emit("error", **data)
        finally:
            turn.queue.put_nowait(None)

    async def _answer(self, turn: Turn, planned: PlannerResult) -> bool:
        shopping = planned.turn_is_shopping or bool(turn.ctx.shown_before)
        if self.model is None:
            return await run_offline_turn(turn, self.tools, turn_is_shopping=shopping)
        try:
            if await run_llm_turn(turn, self.model, self.tools):
                return True
        except DependencyDown as exc:
            if exc.name != breaker_of(AGENT):
                raise
            turn.mode = "offline"
            turn.notes.append(fallback_note("policy", exc, "offline policy"))
            return await run_offline_turn(turn, self.tools, turn_is_shopping=shopping)
        return await finish_with_summary(turn, self.tools)

    async def _save(self, turn: Turn) -> bool:
        """Store the session; False (and a note) when the store could not take it."""
        session = turn.session
        if turn.picks_by_slot:
            session.picks = turn.picks
            session.pick_slots = turn.slot_ids()
            session.shown = sorted({*turn.ctx.shown_before, *(p.item_id for p in turn.picks)})
        session.end_turn(turn.message, turn.answer)
        with turn.stage("session.save"):
            try:
                await self.sessions.save(session)
            except DependencyDown as exc:
                log.warning("session %s not saved: %s", session.session_id, exc)
                turn.notes.append(_unsaved_note(exc, first_turn=session.turns == 1))
                return False
        return True

    def _lock(self, session_id: str) -> asyncio.Lock:
        lock = self._locks.get(session_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[session_id] = lock
        return lock


async def collect(events: AsyncIterator[TurnEvent]) -> TurnSummary:
    """Fold a turn's events, as they come, into its summary (see `summarize`)."""
    return summarize([event async for event in events])


def summarize(events: Sequence[TurnEvent]) -> TurnSummary:
    """Fold a turn's events into its summary; an `error` event raises the matching error."""
    done: TurnEvent | None = None
    for event in events:
        if event.type == "error":
            raise _error_of(event.data)
        if event.type == "done":
            done = event
    if done is None:
        raise PickwiseError("the turn ended without a done event")
    data = done.data
    return TurnSummary(
        session_id=done.session_id,
        turn_id=done.turn_id,
        answer=data["answer"],
        picks=[PickView.model_validate(p) for p in data.get("picks", [])],
        plan=data.get("plan", {}),
        trace=[StageTiming.model_validate(t) for t in data.get("trace", [])],
        readings=int(data.get("readings", 0)),
        planner=data.get("planner", "rules"),
        policy=data.get("policy", "offline"),
        notes=[str(n) for n in data.get("notes", [])],
        saved=data.get("saved", True) is not False,
    )


def _done_data(turn: Turn, planned: PlannerResult) -> dict[str, Any]:
    return {
        "answer": turn.answer,
        "picks": [p.model_dump() for p in turn.picks],
        "slots": turn.slot_ids(),
        "compare": _compared_ids(turn),
        "plan": turn.ctx.plan.model_dump(mode="json"),
        "plan_source": planned.source,
        "trace": [t.model_dump() for t in turn.trace],
        "readings": turn.readings.count,
        "mode": turn.mode,
        "planner": turn.planner,
        "policy": turn.mode,
        "turn": turn.session.turns,
        "notes": turn.notes,
    }


def _unsaved_note(exc: DependencyDown, *, first_turn: bool) -> str:
    """What a turn the store could not take says: plainly, what will not be remembered; the
    store's own error (hosts, ports) goes to the log, never into the reply."""
    if first_turn:
        lost = "this conversation will not be remembered"
    else:
        lost = "this turn will not be remembered (the session keeps its earlier turns)"
    return f"the session could not be saved ({exc.name} unavailable): {lost}"


def _compared_ids(turn: Turn) -> list[str]:
    """The ids of the picks a "compare them" question put side by side; [] otherwise."""
    if turn.asked_question != "compare":
        return []
    return [p.item_id for p in turn.session.picks[: turn.asked_picks]]


def _check_message(message: str) -> str:
    text = message.strip() if isinstance(message, str) else ""
    if not text:
        raise InvalidRequest("the message is empty")
    if not is_unicode_text(text):
        raise InvalidRequest("the message holds characters that are not valid Unicode text")
    cap = AGENT_MESSAGE_MAX_CHARS.get()
    if len(text) > cap:
        raise InvalidRequest(f"the message has {len(text)} characters; at most {cap} are read")
    return text


def _error_of(data: Mapping[str, Any]) -> PickwiseError:
    code, message = str(data.get("code", "error")), str(data.get("message", ""))
    if code == DependencyDown.code:
        return DependencyDown(str(data.get("dependency", "unknown")), message)
    if code == NotFound.code:
        return NotFound(message)
    if code == InvalidRequest.code:
        return InvalidRequest(message)
    error = PickwiseError(message)
    error.code = code
    return error
