"""Parameters of the HTTP API: the session id cap, the SSE keep-alive and the health probe
timeout; the message cap is the agent's `AGENT_MESSAGE_MAX_CHARS`."""

from app.config.registry import REGISTRY

__all__ = ["HEALTH_PROBE_TIMEOUT_S", "SESSION_ID_MAX_CHARS", "SSE_KEEPALIVE_S"]

SESSION_ID_MAX_CHARS = REGISTRY.declare(
    "SESSION_ID_MAX_CHARS",
    int,
    64,
    group="api",
    minimum=8,
    maximum=256,
    description="Longest session id the API accepts (letters, digits, '-' and '_').",
)
SSE_KEEPALIVE_S = REGISTRY.declare(
    "SSE_KEEPALIVE_S",
    float,
    15.0,
    group="api",
    minimum=0.01,
    maximum=600.0,
    description="Quiet seconds in a chat stream after which a comment line keeps proxies open.",
)
HEALTH_PROBE_TIMEOUT_S = REGISTRY.declare(
    "HEALTH_PROBE_TIMEOUT_S",
    float,
    2.0,
    group="api",
    minimum=0.05,
    maximum=60.0,
    description="How long /healthz waits for one dependency to answer before calling it down.",
)
