"""The one exception hierarchy of Pickwise.

Every error the package raises on purpose derives from `PickwiseError`, so callers
can tell our failures from bugs. The tree, by what the caller should do about it:

    PickwiseError
    ├── ConfigError          fix the configuration or build what is missing; never retried
    │   └── IndexMissing     no search index has been built for this configuration
    ├── InvalidRequest       the input was wrong; answer 4xx / a structured tool error
    │   └── ParamValidationError   a parameter value is outside its declared type or bounds
    ├── NotFound             a named thing (session, item, parameter) does not exist
    ├── AuthError            admin credentials missing (401) or wrong (403)
    ├── DependencyDown       a remote dependency failed or its breaker is open; do not retry now
    │   └── BadReply         it answered, but with nothing usable (not JSON, wrong shape, empty)
    └── Overloaded           this process is at capacity (429); retry after `retry_after_s`
"""

from __future__ import annotations

__all__ = [
    "AuthError",
    "BadReply",
    "ConfigError",
    "DependencyDown",
    "IndexMissing",
    "InvalidRequest",
    "NotFound",
    "ParamValidationError",
    "PickwiseError",
]


class PickwiseError(Exception):
    """Base of every error Pickwise raises deliberately."""

    code = "error"


class ConfigError(PickwiseError):
    """The configuration is wrong or incomplete: a missing file, model or setting."""

    code = "config_error"


class IndexMissing(ConfigError):
    """No search index exists for the current configuration; run `pickwise index build`."""

    code = "index_missing"


class InvalidRequest(PickwiseError, ValueError):
    """The caller sent something invalid; the message says what and how to fix it."""

    code = "invalid_request"


class ParamValidationError(InvalidRequest):
    """A runtime parameter value does not fit its declared type, bounds or choices."""

    code = "invalid_param"


class NotFound(PickwiseError, KeyError):
    """A named object does not exist."""

    code = "not_found"

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "not found"


class AuthError(PickwiseError):
    """Admin authentication failed; `status` is 401 (no token) or 403 (wrong token)."""

    code = "unauthorized"

    def __init__(self, message: str, *, status: int = 401) -> None:
        super().__init__(message)
        self.status = status


class DependencyDown(PickwiseError):
    """A remote dependency (vector server, Redis, remote model, LLM…) is failing or its
    circuit breaker is open. Callers should not retry right away and should say so."""

    code = "dependency_down"

    def __init__(self, name: str, reason: str = "", *, kind: str = "") -> None:
        self.name = name
        self.reason = reason
        self.kind = kind
        """A short, stable failure class for metrics ("timeout", "malformed", ...); may be ""."""
        super().__init__(f"{name} is unavailable" + (f": {reason}" if reason else ""))


class BadReply(DependencyDown):
    """The dependency answered, but with something unusable: a body that is not JSON, the
    wrong shape, nothing in it, or output that does not validate. It counts on the
    dependency's breaker like an outage."""


class Overloaded(PickwiseError):
    """This process has no room for the work right now (turns in flight, a local pool or a
    busy event loop); nothing remote failed, so no breaker counts it. Retry later."""

    code = "overloaded"

    def __init__(self, message: str, *, retry_after_s: int = 1) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s
