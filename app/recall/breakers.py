"""Circuit breakers for remote dependencies and `guarded()` to await a call through one:
failures and open breakers become `DependencyDown(name)`, our own errors pass uncounted, and
a timeout while our own event loop stalled is `Overloaded` (local), not a remote failure.
Embedded engines get no breaker; their errors are configuration errors."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Literal, TypeVar, cast

import pybreaker

from app.config.params import breakers as params
from app.config.params.api import API_RETRY_AFTER_S
from app.config.params.search import VECTOR_QUERY_TIMEOUT_S
from app.config.registry import Param
from app.errors import DependencyDown, NotFound, Overloaded, PickwiseError
from app.recall.loop_lag import loop_lag

__all__ = [
    "BREAKERS",
    "SPECS",
    "BreakerRegistry",
    "BreakerSpec",
    "BreakerState",
    "BreakerStateName",
    "guarded",
    "is_excluded",
]

T = TypeVar("T")
BreakerStateName = Literal["closed", "open", "half-open"]

log = logging.getLogger(__name__)

_NOT_A_FAILURE: tuple[type[BaseException], ...] = (
    PickwiseError,  # bad input, configuration, not found: ours, not the dependency's
    TypeError,
    AttributeError,
    NameError,
    AssertionError,
    NotImplementedError,
    asyncio.CancelledError,
    KeyboardInterrupt,
    SystemExit,
    GeneratorExit,
)


def is_excluded(exc: BaseException) -> bool:
    """True for errors that say nothing about the dependency's health: ours, or cancellation."""
    if isinstance(exc, DependencyDown):
        return False
    return isinstance(exc, _NOT_A_FAILURE)


@dataclass(frozen=True)
class BreakerSpec:
    """Where one breaker reads its threshold, reset time and per-call timeout."""

    fail_max: Param[int]
    reset_s: Param[float]
    timeout_s: Param[float]


SPECS: Mapping[str, BreakerSpec] = {
    "qdrant": BreakerSpec(
        params.BREAKER_QDRANT_FAIL_MAX, params.BREAKER_QDRANT_RESET_S, VECTOR_QUERY_TIMEOUT_S
    ),
    "redis": BreakerSpec(
        params.BREAKER_REDIS_FAIL_MAX, params.BREAKER_REDIS_RESET_S, params.BREAKER_REDIS_TIMEOUT_S
    ),
    "redis_cache": BreakerSpec(
        params.BREAKER_REDIS_CACHE_FAIL_MAX,
        params.BREAKER_REDIS_CACHE_RESET_S,
        params.BREAKER_REDIS_CACHE_TIMEOUT_S,
    ),
    "redis_sessions": BreakerSpec(
        params.BREAKER_REDIS_SESSIONS_FAIL_MAX,
        params.BREAKER_REDIS_SESSIONS_RESET_S,
        params.BREAKER_REDIS_SESSIONS_TIMEOUT_S,
    ),
    "embedder": BreakerSpec(
        params.BREAKER_EMBEDDER_FAIL_MAX,
        params.BREAKER_EMBEDDER_RESET_S,
        params.BREAKER_EMBEDDER_TIMEOUT_S,
    ),
    "opensearch": BreakerSpec(
        params.BREAKER_OPENSEARCH_FAIL_MAX,
        params.BREAKER_OPENSEARCH_RESET_S,
        params.BREAKER_OPENSEARCH_TIMEOUT_S,
    ),
    "llm_planner": BreakerSpec(
        params.BREAKER_LLM_PLANNER_FAIL_MAX,
        params.BREAKER_LLM_PLANNER_RESET_S,
        params.BREAKER_LLM_PLANNER_TIMEOUT_S,
    ),
    "llm_agent": BreakerSpec(
        params.BREAKER_LLM_AGENT_FAIL_MAX,
        params.BREAKER_LLM_AGENT_RESET_S,
        params.BREAKER_LLM_AGENT_TIMEOUT_S,
    ),
    "reranker": BreakerSpec(
        params.BREAKER_RERANKER_FAIL_MAX,
        params.BREAKER_RERANKER_RESET_S,
        params.BREAKER_RERANKER_TIMEOUT_S,
    ),
}


@dataclass(frozen=True)
class BreakerState:
    """A breaker as the health endpoint and metrics report it."""

    name: str
    state: BreakerStateName
    failures: int
    fail_max: int
    reset_s: float


class _StateLog(pybreaker.CircuitBreakerListener):
    """Logs transitions, so an outage shows up once in the log and not once per request."""

    def state_change(
        self,
        cb: pybreaker.CircuitBreaker,
        old_state: pybreaker.CircuitBreakerState | None,
        new_state: pybreaker.CircuitBreakerState,
    ) -> None:
        old = old_state.name if old_state is not None else "none"
        level = logging.WARNING if new_state.name == pybreaker.STATE_OPEN else logging.INFO
        log.log(level, "circuit breaker %s: %s -> %s", cb.name, old, new_state.name)


class BreakerRegistry:
    """The breakers of one process, created on first use and synced with their parameters."""

    def __init__(self, specs: Mapping[str, BreakerSpec] = SPECS) -> None:
        self._specs = dict(specs)
        self._breakers: dict[str, pybreaker.CircuitBreaker] = {}
        self._lock = threading.Lock()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._specs)

    def breaker(self, name: str) -> pybreaker.CircuitBreaker:
        """The breaker of `name`, with the threshold and reset time in force right now."""
        spec = self._spec(name)
        with self._lock:
            breaker = self._breakers.get(name)
            if breaker is None:
                breaker = pybreaker.CircuitBreaker(
                    fail_max=spec.fail_max.get(),
                    reset_timeout=spec.reset_s.get(),
                    exclude=[is_excluded],
                    listeners=[_StateLog()],
                    name=name,
                )
                self._breakers[name] = breaker
        breaker.fail_max = spec.fail_max.get()
        breaker.reset_timeout = spec.reset_s.get()
        return breaker

    def timeout_s(self, name: str) -> float:
        """The per-call timeout of `name` in force right now."""
        return self._spec(name).timeout_s.get()

    def state(self, name: str) -> BreakerState:
        """State, consecutive failures and settings of one breaker."""
        breaker = self.breaker(name)
        return BreakerState(
            name=name,
            state=cast(BreakerStateName, breaker.current_state),
            failures=breaker.fail_counter,
            fail_max=breaker.fail_max,
            reset_s=breaker.reset_timeout,
        )

    def states(self) -> list[BreakerState]:
        """Every known breaker, used or not, in declaration order."""
        return [self.state(name) for name in self._specs]

    def record_failure(self, name: str, failure: DependencyDown) -> bool:
        """Count `failure` on `name` without a call (a failure seen elsewhere, e.g. a turn
        deadline spent waiting on that dependency); True when the breaker is open after."""
        breaker = self.breaker(name)
        with contextlib.suppress(DependencyDown, pybreaker.CircuitBreakerError), breaker.calling():
            raise failure
        return self.state(name).state == "open"

    def trip(self, name: str) -> None:
        """Open `name` now, until its reset time (a dependency known to hang)."""
        self.breaker(name).open()

    def reset(self) -> None:
        """Close every breaker and clear its counts (admin action, tests)."""
        with self._lock:
            breakers = list(self._breakers.values())
        for breaker in breakers:
            breaker.close()

    def _spec(self, name: str) -> BreakerSpec:
        try:
            return self._specs[name]
        except KeyError:
            known = list(self._specs)
            raise NotFound(f"no circuit breaker named {name!r}; known: {known}") from None


BREAKERS = BreakerRegistry()
"""The process-wide breakers; `guarded()` uses them unless given another registry."""


async def guarded(
    name: str,
    call: Callable[[], Awaitable[T]],
    *,
    timed: bool = True,
    registry: BreakerRegistry | None = None,
) -> T:
    """Await `call()` through the breaker `name`, within its per-call timeout unless `timed`
    is False; a failure or an open breaker raises `DependencyDown(name)`. Time during which
    our own event loop stalled does not count: see `_within`."""
    breakers = registry or BREAKERS
    breaker = breakers.breaker(name)
    limit = breakers.timeout_s(name) if timed else None
    failure: BaseException | None = None
    try:
        with breaker.calling():
            try:
                return await _within(name, call, limit)
            except Overloaded:
                raise
            except BaseException as exc:
                failure = exc
                raise
    except pybreaker.CircuitBreakerError as exc:
        if failure is None:
            raise DependencyDown(name, "circuit open") from exc
        raise DependencyDown(name, f"{_describe(failure)}; circuit opened") from failure
    except DependencyDown:
        raise
    except BaseException as exc:
        if is_excluded(exc):
            raise
        raise DependencyDown(name, _describe(exc)) from exc


async def _within(name: str, call: Callable[[], Awaitable[T]], limit: float | None) -> T:
    """`call()` within `limit` seconds of a responsive event loop. A window in which the loop
    stalled (`LOCAL_TIMEOUT_LAG_RATIO` of it) is granted again, up to
    `LOCAL_TIMEOUT_EXTENSIONS` times, then the call is `Overloaded` (local, uncounted); a
    window without a stall is a plain timeout (the dependency's)."""
    if limit is None:
        return await call()
    lag = loop_lag()
    task = asyncio.ensure_future(call())
    try:
        for _ in range(1 + params.LOCAL_TIMEOUT_EXTENSIONS.get()):
            window = time.monotonic()
            done, _ = await asyncio.wait({task}, timeout=limit)
            if done:
                return task.result()
            stalled = lag.worst_since(window)
            if stalled < limit * params.LOCAL_TIMEOUT_LAG_RATIO.get():
                raise TimeoutError()
        raise Overloaded(
            f"{name}: no answer while this process was too busy to wait for it "
            f"(event loop stalled {stalled:.2f}s of {limit:g}s)",
            retry_after_s=API_RETRY_AFTER_S.get(),
        )
    finally:
        if not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, DependencyDown):
        return exc.reason or str(exc)
    if isinstance(exc, TimeoutError) and not str(exc):
        return "timed out"
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
