"""Where admin overrides of parameters live, shared by every worker: an `OverrideStore`
(Redis when `REDIS_URL` is set, else SQLite under `var/`) holding the override values, a
version counter and the audit log, all changed in one atomic transaction."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any, Literal, Protocol, runtime_checkable

from app.config.settings import Settings

__all__ = [
    "SQLITE_FILE",
    "Action",
    "AuditEntry",
    "Mutation",
    "OverrideStore",
    "StoredOverrides",
    "decode_value",
    "encode_value",
    "open_override_store",
    "stamp",
]

Action = Literal["set", "reset"]
SQLITE_FILE = "params.sqlite3"


@dataclass(frozen=True)
class StoredOverrides:
    """The override layer as stored: raw values by parameter name, and its version."""

    values: Mapping[str, Any]
    version: int


@dataclass(frozen=True)
class AuditEntry:
    """One parameter change: who, when, which key, old and new value (secrets masked)."""

    actor: str
    key: str
    action: Action
    old: Any
    new: Any
    at: float = 0.0
    version: int = 0

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form with the time as ISO 8601 UTC."""
        doc = asdict(self)
        doc["at"] = datetime.fromtimestamp(self.at, UTC).isoformat(timespec="milliseconds")
        return doc

    def encode(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def decode(cls, raw: str | bytes) -> AuditEntry:
        return cls(**json.loads(raw))


Mutation = Callable[[Mapping[str, Any]], tuple[dict[str, Any], list[AuditEntry]]]
"""Given the stored values, the new values and the audit entries of the change (pure: a
store may call it again when another writer got in first)."""


@runtime_checkable
class OverrideStore(Protocol):
    """Persistence of the override layer shared by all workers of a deployment."""

    name: str

    def load(self) -> StoredOverrides:
        """Values and version, read consistently together."""
        ...

    def version(self) -> int:
        """The current version alone (the cheap per-request check)."""
        ...

    def transact(
        self, mutate: Mutation, *, audit_max: int
    ) -> tuple[StoredOverrides, list[AuditEntry]]:
        """Apply `mutate` atomically: new values, version + 1 and the audit entries stamped
        with time and version, then tell the other workers. Returns the new state and the
        entries; writes nothing when `mutate` returns no entries."""
        ...

    def audit(self, limit: int) -> list[AuditEntry]:
        """The newest `limit` audit entries, newest first."""
        ...

    def listen(self, on_change: Callable[[], object], stop: threading.Event) -> None:
        """Call `on_change` whenever a change may have happened, until `stop` is set."""
        ...

    def close(self) -> None:
        """Release connections."""
        ...


def encode_value(value: Any) -> str:
    """The stored text of one override value (JSON keeps int, float, bool and str apart)."""
    return json.dumps(value)


def decode_value(raw: str | bytes) -> Any:
    return json.loads(raw)


def stamp(entries: list[AuditEntry], version: int) -> list[AuditEntry]:
    """The entries of one change with its time and the version it produced."""
    now = time.time()
    return [
        AuditEntry(e.actor, e.key, e.action, e.old, e.new, at=now, version=version) for e in entries
    ]


def open_override_store(settings: Settings) -> OverrideStore:
    """Redis at `REDIS_URL` when set, else the SQLite file `var/params.sqlite3`."""
    if settings.redis_url:
        from app.config._override_redis import RedisOverrideStore

        return RedisOverrideStore.from_url(settings.redis_url)
    from app.config._override_sqlite import SqliteOverrideStore

    return SqliteOverrideStore(settings.var_dir / SQLITE_FILE)
