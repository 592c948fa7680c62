"""The override store on Redis: a hash of values, a version counter and a capped audit list,
changed together in a WATCH/MULTI transaction; a pub/sub message after each change tells
every worker to reload."""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any

import redis
from redis.client import PubSub
from redis.exceptions import RedisError, WatchError

from app.config.overrides import (
    AuditEntry,
    Mutation,
    StoredOverrides,
    decode_value,
    encode_value,
    stamp,
)
from app.config.params.admin import PARAMS_POLL_INTERVAL_MS
from app.config.params.breakers import BREAKER_REDIS_TIMEOUT_S
from app.errors import DependencyDown

PREFIX = "pickwise:params:"
BREAKER = "redis"

log = logging.getLogger(__name__)


class RedisOverrideStore:
    """Overrides under `prefix` in one Redis database; safe to share between threads."""

    name = "redis"

    def __init__(self, client: redis.Redis, *, prefix: str = PREFIX) -> None:
        self._redis = client
        self.values_key = prefix + "values"
        self.version_key = prefix + "version"
        self.audit_key = prefix + "audit"
        self.channel = prefix + "changed"

    @classmethod
    def from_url(cls, url: str, *, prefix: str = PREFIX) -> RedisOverrideStore:
        """A store over a lazily connecting client at `url`."""
        timeout = max(1.0, BREAKER_REDIS_TIMEOUT_S.get())
        client = redis.Redis.from_url(
            url, decode_responses=True, socket_timeout=timeout, socket_connect_timeout=timeout
        )
        return cls(client, prefix=prefix)

    def load(self) -> StoredOverrides:
        try:
            with self._redis.pipeline(transaction=True) as pipe:
                pipe.hgetall(self.values_key)
                pipe.get(self.version_key)
                raw, version = pipe.execute()
        except RedisError as exc:
            raise DependencyDown(BREAKER, f"reading parameter overrides: {exc}") from exc
        return StoredOverrides(_decode_values(raw), int(version or 0))

    def version(self) -> int:
        try:
            return int(self._redis.get(self.version_key) or 0)
        except RedisError as exc:
            raise DependencyDown(BREAKER, f"reading the parameter version: {exc}") from exc

    def transact(
        self, mutate: Mutation, *, audit_max: int
    ) -> tuple[StoredOverrides, list[AuditEntry]]:
        try:
            state, entries = self._transact(mutate, audit_max)
            if entries:
                self._redis.publish(self.channel, str(state.version))
        except RedisError as exc:
            raise DependencyDown(BREAKER, f"writing parameter overrides: {exc}") from exc
        return state, entries

    def audit(self, limit: int) -> list[AuditEntry]:
        try:
            rows = self._redis.lrange(self.audit_key, 0, max(0, limit - 1))
        except RedisError as exc:
            raise DependencyDown(BREAKER, f"reading the parameter audit: {exc}") from exc
        return [AuditEntry.decode(row) for row in rows]

    def listen(self, on_change: Callable[[], object], stop: threading.Event) -> None:
        """Wait for change messages; also call `on_change` after each quiet poll interval and
        after (re)subscribing, so a lost message delays a change by one interval at most."""
        pubsub: PubSub | None = None
        down = False
        while not stop.is_set():
            poll_s = PARAMS_POLL_INTERVAL_MS.get() / 1000
            try:
                if pubsub is None:
                    pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
                    pubsub.subscribe(self.channel)
                pubsub.get_message(timeout=poll_s)
                if down:
                    down = False
                    log.info("parameter change channel %s is back", self.channel)
            except RedisError as exc:
                if not down:
                    down = True
                    log.warning("parameter change channel %s lost: %s", self.channel, exc)
                _close(pubsub)
                pubsub = None
                stop.wait(poll_s)
            on_change()
        _close(pubsub)

    def close(self) -> None:
        self._redis.close()

    def _transact(
        self, mutate: Mutation, audit_max: int
    ) -> tuple[StoredOverrides, list[AuditEntry]]:
        with self._redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    pipe.watch(self.values_key, self.version_key)
                    current = _decode_values(pipe.hgetall(self.values_key))
                    version = int(pipe.get(self.version_key) or 0)
                    values, entries = mutate(current)
                    if not entries:
                        pipe.unwatch()
                        return StoredOverrides(current, version), []
                    entries = stamp(entries, version + 1)
                    pipe.multi()
                    pipe.delete(self.values_key)
                    if values:
                        encoded = {k: encode_value(v) for k, v in values.items()}
                        pipe.hset(self.values_key, mapping=encoded)  # type: ignore[arg-type]
                    pipe.incr(self.version_key)
                    pipe.lpush(self.audit_key, *(e.encode() for e in entries))
                    pipe.ltrim(self.audit_key, 0, audit_max - 1)
                    pipe.execute()
                    return StoredOverrides(values, version + 1), entries
                except WatchError:
                    continue


def _decode_values(raw: Mapping[Any, Any]) -> dict[str, Any]:
    return {str(name): decode_value(text) for name, text in raw.items()}


def _close(pubsub: PubSub | None) -> None:
    if pubsub is not None:
        with contextlib.suppress(RedisError):
            pubsub.close()
