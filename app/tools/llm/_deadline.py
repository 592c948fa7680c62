"""The turn's deadline as the model calls meet it: how long the next call may wait, and what
a call the deadline cut after a long wait (a hung model) charges to the roles' breakers."""

from __future__ import annotations

from app.config.params.llm import LLM_HANG_OPENS_BREAKERS, LLM_TIMEOUT_S
from app.errors import DependencyDown
from app.recall.breakers import BREAKERS
from app.telemetry import observe_llm_failure
from app.tools.llm.llm import Role, breaker_of, current_deadline, role_available

__all__ = ["budget_of", "cut_by_deadline", "deadline_reason"]

_MIN_CALL_S = 0.05
"""A call with less than this left before the turn's deadline is not started."""
_HANG_SHARE = 0.5
"""A call cut by the turn's deadline after waiting this share of it means the model hung."""


def budget_of(role: Role) -> tuple[float, bool]:
    """The timeout of the next call of `role` and whether the turn's deadline cut it; a
    deadline already spent fails the call without sending it, which counts on the role's
    breaker only when a hung model call of this turn spent it (once per role and turn)."""
    own = LLM_TIMEOUT_S.get()
    deadline = current_deadline()
    if deadline is None:
        return own, False
    left = deadline.left()
    if left < _MIN_CALL_S:
        observe_llm_failure(role, "deadline")
        failure = DependencyDown(
            breaker_of(role), deadline_reason(deadline.seconds), kind="deadline"
        )
        if deadline.hung and role_available(role) and deadline.charge(role):
            raise _charged(role, failure, counted=False)
        raise failure
    return min(own, left), left < own


def deadline_reason(seconds: float) -> str:
    return f"hit the turn deadline (LLM_TURN_DEADLINE_S={seconds:g}s)"


def cut_by_deadline(role: Role, failure: DependencyDown, waited_s: float) -> DependencyDown:
    """A call the turn's deadline cut. When it waited at least `_HANG_SHARE` of the deadline
    the model hung: the turn is marked so its other roles, whose calls now go unsent, are
    charged too, and (`LLM_HANG_OPENS_BREAKERS`) this role's breaker opens at once."""
    deadline = current_deadline()
    if deadline is None or waited_s < deadline.seconds * _HANG_SHARE:
        return failure
    deadline.hung = True
    deadline.charge(role)
    return _charged(role, failure, counted=True)


def _charged(role: Role, failure: DependencyDown, *, counted: bool) -> DependencyDown:
    """`failure` charged to the breaker of `role` (`counted`: its breaker saw the call
    already), opening it at once under `LLM_HANG_OPENS_BREAKERS`; the reason says so."""
    name = breaker_of(role)
    if failure.reason.endswith("circuit opened"):
        return failure
    if LLM_HANG_OPENS_BREAKERS.get():
        BREAKERS.trip(name)
        opened = True
    else:
        opened = False if counted else BREAKERS.record_failure(name, failure)
    if not opened:
        return failure
    return DependencyDown(name, f"{failure.reason}; circuit opened", kind=failure.kind)
