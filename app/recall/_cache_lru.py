"""`TtlLru`: a small thread-safe LRU map whose entries also expire, used for L1 and memos."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

V = TypeVar("V")


class TtlLru(Generic[V]):
    """Keys map to values until their TTL passes or they become the least recently used
    entry beyond `max_entries`; expired entries are dropped when they are next looked at."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._data: OrderedDict[str, tuple[float, V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> V | None:
        """The live value of `key`, marked as most recently used; None if absent or expired."""
        with self._lock:
            entry = self._data.get(key)
            if entry is None:
                return None
            expires_at, value = entry
            if self._clock() >= expires_at:
                del self._data[key]
                return None
            self._data.move_to_end(key)
            return value

    def put(self, key: str, value: V, *, ttl_s: float, max_entries: int) -> None:
        """Store `value` for `ttl_s` seconds, evicting the least recently used beyond the cap."""
        with self._lock:
            self._data[key] = (self._clock() + ttl_s, value)
            self._data.move_to_end(key)
            while len(self._data) > max(max_entries, 0):
                self._data.popitem(last=False)

    def delete(self, key: str) -> None:
        """Forget `key` if present."""
        with self._lock:
            self._data.pop(key, None)

    def clear(self) -> None:
        """Forget everything."""
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._data)
