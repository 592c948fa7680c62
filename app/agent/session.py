"""Session state kept between turns: the plan P_t, the recent user messages it is rebuilt
from, the candidate registry, the last picks and a bounded conversation for the LLM; and
the `SessionStore` Protocol that keeps it (Redis, SQLite under var/ or in-process, with a
TTL)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel, Field

from app.agent.events import PickView
from app.agent.plan_edit import HeldPlanEdit
from app.config.params.agent import SESSION_MAX_MESSAGES, SESSION_PLANNER_MESSAGES
from app.errors import InvalidRequest
from app.tools.candidates import CandidateRegistry
from app.tools.plan import PlanChange, ShoppingPlan

__all__ = [
    "SESSIONS_FILE",
    "ChatLine",
    "Session",
    "SessionStore",
    "check_session_id",
    "open_session_store",
]

_SESSION_ID = re.compile(r"[A-Za-z0-9_-]{1,256}")
SESSIONS_FILE = "sessions.sqlite3"
"""The embedded session store's file under the var folder (used when no Redis is set)."""


class ChatLine(BaseModel):
    """One message of an earlier turn as the LLM re-reads it (tool traffic is not kept)."""

    role: Literal["user", "assistant"]
    content: str


class Session(BaseModel):
    """Everything a session remembers; serialised as JSON by every store."""

    session_id: str
    turns: int = 0
    plan: ShoppingPlan | None = None
    user_messages: list[str] = Field(default_factory=list)
    changes: list[PlanChange | None] = Field(
        default_factory=list,
        description="The typed change each kept message's follow-up made to the plan (by "
        "position in `user_messages`; None: none), made again when the plan is replayed.",
    )
    conversation: list[ChatLine] = Field(default_factory=list)
    candidates: CandidateRegistry = Field(default_factory=CandidateRegistry)
    picks: list[PickView] = Field(default_factory=list)
    shown: list[str] = Field(
        default_factory=list,
        description="Ids of the picks shown for the current request, the last turn's and those "
        "of the turns before it that asked for other options.",
    )
    pick_slots: dict[str, list[str]] = Field(
        default_factory=dict, description="The ids of the last picks by slot (bundle parts)."
    )
    plan_edit: HeldPlanEdit | None = Field(
        None, description="The shopper's direct edit of the plan, while it holds."
    )
    token_hash: str | None = Field(
        None,
        description="SHA-256 of the secret issued with the session over HTTP; None for a "
        "session a trusted in-process caller created (no HTTP caller may reach it).",
    )
    created_at: float = Field(default_factory=time.time)
    updated_at: float = Field(default_factory=time.time)

    def begin_turn(self, message: str | None, change: PlanChange | None = None) -> None:
        """Count the turn and keep `message` among the recent user messages the plan is
        rebuilt from (None: a message that changes no plan, a question about a pick)."""
        self.turns += 1
        if message is not None:
            self.keep_message(message, change)

    def keep_message(self, message: str, change: PlanChange | None = None) -> None:
        """Keep `message`, with its follow-up's typed change, among the recent messages."""
        self.user_messages, self.changes = self.planner_messages(message, change)

    def planner_messages(
        self, message: str | None = None, change: PlanChange | None = None
    ) -> tuple[list[str], list[PlanChange | None]]:
        """The recent messages the plan is rebuilt from, with `message` if given, and their
        changes by position (older sessions kept none)."""
        messages = [*self.user_messages, *([message] if message is not None else [])]
        changes = [*self.changes, *([None] * (len(self.user_messages) - len(self.changes)))]
        changes = changes[: len(self.user_messages)]
        changes += [change] if message is not None else []
        keep = SESSION_PLANNER_MESSAGES.get()
        return messages[-keep:], changes[-keep:]

    def end_turn(self, message: str, answer: str) -> None:
        """Append the exchange to the conversation, dropping the oldest past the bound."""
        self.conversation += [
            ChatLine(role="user", content=message),
            ChatLine(role="assistant", content=answer),
        ]
        del self.conversation[: -SESSION_MAX_MESSAGES.get()]
        while self.conversation and self.conversation[0].role != "user":
            del self.conversation[0]
        self.updated_at = time.time()


def check_session_id(session_id: str) -> str:
    """`session_id` when it is 1-256 letters, digits, '-' or '_'; else `InvalidRequest`."""
    if not _SESSION_ID.fullmatch(session_id):
        raise InvalidRequest(
            f"a session id is 1 to 256 letters, digits, '-' or '_'; got {session_id[:40]!r}"
        )
    return session_id


@runtime_checkable
class SessionStore(Protocol):
    """Where sessions live between turns; every save restarts the session's TTL."""

    name: str
    remote: bool

    async def get(self, session_id: str) -> Session | None:
        """The session, or None when it never existed, expired or was deleted."""
        ...

    async def save(self, session: Session) -> None:
        """Store `session` for `SESSION_TTL_S` seconds from now."""
        ...

    async def delete(self, session_id: str) -> bool:
        """Forget a session; False when there was none."""
        ...

    async def ttl(self, session_id: str) -> float | None:
        """Seconds the session has left, or None when there is none."""
        ...

    async def close(self) -> None:
        """Release connections."""
        ...


def open_session_store(redis_url: str | None, sqlite_path: Path | None = None) -> SessionStore:
    """Sessions in Redis when a URL is given (connected lazily), else in the SQLite file at
    `sqlite_path` (kept across processes), else in this process only."""
    from app.agent._session_sqlite import SqliteSessionStore
    from app.agent._session_stores import MemorySessionStore, RedisSessionStore

    if redis_url:
        return RedisSessionStore.from_url(redis_url)
    if sqlite_path is not None:
        return SqliteSessionStore(sqlite_path)
    return MemorySessionStore()
