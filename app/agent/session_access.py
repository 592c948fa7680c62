"""Who may reach a session: over HTTP the server issues every session id with a secret token
that only its creator gets, and only a hash of it is stored; in process (the CLI, the
evaluations) the caller is trusted and may name its own ids."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import NamedTuple, Protocol, runtime_checkable

from app.agent.events import TurnEvent
from app.agent.session import Session, check_session_id
from app.errors import NotFound

__all__ = [
    "OpenedSession",
    "SessionAccess",
    "SessionOwner",
    "as_access",
    "hash_token",
    "issue_session_id",
    "issue_token",
]

_ID_BYTES = 24
_TOKEN_BYTES = 32


def issue_session_id() -> str:
    """An unguessable session id (32 URL-safe characters)."""
    return secrets.token_urlsafe(_ID_BYTES)


def issue_token() -> str:
    """A fresh session secret (43 URL-safe characters), handed to the creator only."""
    return secrets.token_urlsafe(_TOKEN_BYTES)


def hash_token(token: str) -> str:
    """What a session keeps of its token: the SHA-256 hex digest (the token is random and
    long, so no slow hash is needed)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class OpenedSession(NamedTuple):
    """A session a caller may use: whether this turn creates it, and the token issued with
    it (None unless a new session was issued to an untrusted caller)."""

    session: Session
    created: bool
    token: str | None


@dataclass(frozen=True)
class SessionAccess:
    """How a caller reaches a session. `new()`: a session the server issues (id and token);
    `owned(id, token)`: an existing one, the token must match; `local(id)`: a trusted
    in-process caller, no token, and an id it names is created when unknown."""

    session_id: str | None = None
    token: str | None = None
    trusted: bool = False

    @classmethod
    def new(cls) -> SessionAccess:
        return cls()

    @classmethod
    def owned(cls, session_id: str, token: str | None) -> SessionAccess:
        return cls(check_session_id(session_id), token or "")

    @classmethod
    def local(cls, session_id: str | None = None) -> SessionAccess:
        return cls(None if session_id is None else check_session_id(session_id), trusted=True)

    def admits(self, session: Session) -> bool:
        """Whether this caller may use `session`: trusted, or the token hashes to the one the
        session keeps (compared in constant time); a session without one admits no token."""
        if self.trusted:
            return True
        if session.token_hash is None or not self.token:
            return False
        return hmac.compare_digest(hash_token(self.token), session.token_hash)

    def open(self, stored: Session | None) -> OpenedSession:
        """The session to run a turn on given what the store holds under `session_id`.
        `NotFound` for a session that is unknown or not this caller's (the same answer,
        so a wrong token does not reveal that a session exists)."""
        if self.session_id is None:
            if self.trusted:
                return OpenedSession(Session(session_id=issue_session_id()), True, None)
            token = issue_token()
            session = Session(session_id=issue_session_id(), token_hash=hash_token(token))
            return OpenedSession(session, True, token)
        if stored is None and self.trusted:
            return OpenedSession(Session(session_id=self.session_id), True, None)
        return OpenedSession(self.check(stored), False, None)

    def check(self, stored: Session | None) -> Session:
        """`stored` when this caller may use it, else `NotFound` (as for no session)."""
        if stored is None or not self.admits(stored):
            raise NotFound(f"no session {self.session_id!r}")
        return stored


def as_access(session: SessionAccess | str | None) -> SessionAccess:
    """A typed access for an in-process caller's plain id (None: a new session): trusted."""
    return session if isinstance(session, SessionAccess) else SessionAccess.local(session)


@runtime_checkable
class SessionOwner(Protocol):
    """A chat agent that checks `SessionAccess` itself; the API hands it the caller's access
    instead of a bare id (an agent without it is only given new sessions)."""

    owns_sessions: bool

    def run_turn(
        self, session: SessionAccess | str | None, message: str
    ) -> AsyncIterator[TurnEvent]: ...
