"""Keeps this process's registry in step with the shared override store: a background thread
reloads on every change notice (and every poll interval), and requests check the version
as a throttled fallback. Callers keep reading parameters with `.get()` as always."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Mapping
from typing import Any

import app.config.params  # noqa: F401  (declares every group, so no stored override looks unknown)
from app.config.overrides import SQLITE_FILE, OverrideStore, open_override_store
from app.config.params.admin import PARAMS_CHECK_INTERVAL_MS
from app.config.registry import REGISTRY, ParamRegistry
from app.config.settings import Settings
from app.errors import NotFound, ParamValidationError

__all__ = ["OverrideSync", "apply_stored_overrides", "usable"]

log = logging.getLogger(__name__)

_JOIN_S = 5.0


class OverrideSync:
    """Applies the store's override layer to `registry` whenever its version changes."""

    def __init__(self, store: OverrideStore, registry: ParamRegistry = REGISTRY) -> None:
        self.store = store
        self.registry = registry
        self.failures = 0
        self.reloads = 0
        self._lock = threading.Lock()
        self._checked_at = float("-inf")
        self._down = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def refresh(self) -> bool:
        """Reload when the stored version differs from the applied one; True when it did.
        A store that cannot be reached keeps the layer in force (logged once per outage)."""
        self._checked_at = time.monotonic()
        try:
            if self.store.version() == self.registry.version:
                self._recovered()
                return False
            with self._lock:
                state = self.store.load()
                if state.version == self.registry.version:
                    return False
                self.registry.apply_overrides(
                    usable(state.values, self.registry), version=state.version
                )
                self.reloads += 1
        except Exception as exc:
            self.failures += 1
            if not self._down:
                self._down = True
                log.warning("parameter overrides not refreshed from %s: %s", self.store.name, exc)
            return False
        self._recovered()
        log.info("parameter overrides at version %d", state.version)
        return True

    def due(self) -> bool:
        """Whether the per-request check is due (PARAMS_CHECK_INTERVAL_MS since the last)."""
        interval_s = PARAMS_CHECK_INTERVAL_MS.get() / 1000
        return time.monotonic() - self._checked_at >= interval_s

    async def refresh_if_due(self) -> None:
        """The per-request fallback, off the event loop."""
        if self.due():
            self._checked_at = time.monotonic()
            await asyncio.to_thread(self.refresh)

    def start(self) -> None:
        """Load the layer now and follow changes in a daemon thread until `stop()`."""
        self.refresh()
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(
            target=self._follow, name="pickwise-params-sync", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        """End the thread (within one poll interval) and close the store."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=_JOIN_S)
        self.store.close()

    def _follow(self) -> None:
        try:
            self.store.listen(self.refresh, self._stop)
        except Exception:
            log.exception("parameter override listener stopped")

    def _recovered(self) -> None:
        if self._down:
            self._down = False
            log.info("parameter override store %s is reachable again", self.store.name)


def usable(values: Mapping[str, Any], registry: ParamRegistry) -> dict[str, Any]:
    """The stored values this code can apply: unknown names (another release) and values
    outside today's bounds are skipped with a warning rather than blocking every update."""
    kept: dict[str, Any] = {}
    for name, raw in values.items():
        try:
            kept[name] = registry.param(name).coerce(raw)
        except NotFound:
            log.warning("ignoring the stored override of %s: no such parameter here", name)
        except ParamValidationError as exc:
            reason = "invalid value" if registry.param(name).secret else str(exc)
            log.warning("ignoring the stored override of %s: %s", name, reason)
    return kept


def apply_stored_overrides(settings: Settings, registry: ParamRegistry = REGISTRY) -> bool:
    """Apply the stored override layer once, for a process without the admin sync (a CLI
    command), so it runs with the values `pickwise params set` stored; True when it did.
    An unreachable store leaves the defaults in force (logged); no store file, nothing."""
    if not settings.redis_url and not (settings.var_dir / SQLITE_FILE).is_file():
        return False
    store = open_override_store(settings)
    try:
        return OverrideSync(store, registry).refresh()
    finally:
        store.close()
