"""Parameters of runtime parameter administration: how quickly every worker notices an
override written by another, and how much of the change history is kept."""

from app.config.registry import REGISTRY

__all__ = ["PARAMS_AUDIT_MAX", "PARAMS_CHECK_INTERVAL_MS", "PARAMS_POLL_INTERVAL_MS"]

PARAMS_CHECK_INTERVAL_MS = REGISTRY.declare(
    "PARAMS_CHECK_INTERVAL_MS",
    int,
    100,
    group="admin",
    minimum=0,
    maximum=60_000,
    description="At most this often a request checks the override version in the store "
    "(one GET), the fallback when a change notice is lost; 0 checks on every request.",
)
PARAMS_POLL_INTERVAL_MS = REGISTRY.declare(
    "PARAMS_POLL_INTERVAL_MS",
    int,
    500,
    group="admin",
    minimum=50,
    maximum=60_000,
    description="How often an idle worker checks the override version in the background "
    "(and how soon it resubscribes after losing the change channel).",
)
PARAMS_AUDIT_MAX = REGISTRY.declare(
    "PARAMS_AUDIT_MAX",
    int,
    10_000,
    group="admin",
    minimum=10,
    maximum=1_000_000,
    description="Parameter change records kept in the audit log; the oldest go first.",
)
