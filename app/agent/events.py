"""The events one chat turn emits, in order, and the agent interface that emits them.

The HTTP API streams them as Server-Sent Events (the event name is `type`); the CLI and
`?stream=false` collect them into one `TurnSummary`. Every event carries the turn id.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from app.catalog.schema import Availability

__all__ = ["ChatAgent", "EventType", "PickView", "StageTiming", "TurnEvent", "TurnSummary"]

EventType = Literal[
    "session", "plan", "tool_start", "tool_end", "picks", "message_delta", "done", "error"
]


class TurnEvent(BaseModel):
    """One step of a turn: `session` first, then plan/tool/picks/message events, then
    exactly one of `done` or `error` last."""

    model_config = ConfigDict(frozen=True)

    type: EventType
    turn_id: str
    session_id: str
    data: dict[str, Any] = Field(default_factory=dict)


class PickView(BaseModel):
    """A pick as the shopper sees it."""

    item_id: str
    title: str
    platform: str
    price_usd: float | None
    brand: str | None = None
    price: float | None = None
    """As the shop lists it, in `currency`."""
    currency: str | None = None
    attributes: dict[str, str] = Field(default_factory=dict)
    availability: Availability = "unknown"
    """What the shop lists of its stock ("unknown" when it lists none)."""
    reason: str
    """Why it was picked, in words, its price (or that it has none) included."""


class StageTiming(BaseModel):
    """Time spent in one stage of a turn (planning, a tool call, a model call, …)."""

    stage: str
    ms: float


class TurnSummary(BaseModel):
    """Everything a turn produced, for non-streaming callers."""

    session_id: str
    turn_id: str
    answer: str
    picks: list[PickView] = Field(default_factory=list)
    plan: dict[str, Any] = Field(default_factory=dict)
    trace: list[StageTiming] = Field(default_factory=list)
    readings: int = Field(0, ge=0, description="Times the turn read shopper text into a plan.")
    planner: Literal["llm", "rules"] = Field("rules", description="Who made the plan.")
    policy: Literal["llm", "offline"] = Field("offline", description="Who drove the turn.")
    notes: list[str] = Field(
        default_factory=list,
        description='What the turn noted, e.g. "planner: llm timed out, rules used".',
    )
    saved: bool = Field(True, description="False when the session could not be stored.")

    def document(self) -> dict[str, Any]:
        """The turn as one JSON document, as `?stream=false` and `ask --json` answer it (the
        turn id travels in a header or not at all)."""
        return self.model_dump(mode="json", exclude={"turn_id"})


class ChatAgent(Protocol):
    """Runs one chat turn of a session and yields its events as they happen."""

    def run_turn(self, session_id: str | None, message: str) -> AsyncIterator[TurnEvent]:
        """A new session is created when `session_id` is None or unknown."""
        ...
