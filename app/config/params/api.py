"""Parameters of the HTTP API: the session id cap, the SSE keep-alive, the health probe
timeout and admission control; the message cap is the agent's `AGENT_MESSAGE_MAX_CHARS`."""

from app.config.registry import REGISTRY

__all__ = [
    "API_MAX_TURNS_IN_FLIGHT",
    "API_RETRY_AFTER_S",
    "API_WARM_UP",
    "CARDS_MAX_IDS",
    "FACETS_TOP",
    "HEALTH_PROBE_TIMEOUT_S",
    "SESSION_ID_MAX_CHARS",
    "SSE_KEEPALIVE_S",
]

API_WARM_UP = REGISTRY.declare(
    "API_WARM_UP",
    bool,
    True,
    group="api",
    description=(
        "Run one offline turn before `pickwise serve` takes requests, so the first shopper "
        "does not pay for loading models, index shards and vocabularies."
    ),
)
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
CARDS_MAX_IDS = REGISTRY.declare(
    "CARDS_MAX_IDS",
    int,
    12,
    group="api",
    minimum=1,
    maximum=100,
    description="Most item ids one GET /v1/cards asks for (the chat page's cards and compare).",
)
API_MAX_TURNS_IN_FLIGHT = REGISTRY.declare(
    "API_MAX_TURNS_IN_FLIGHT",
    int,
    8,
    group="api",
    minimum=1,
    maximum=10_000,
    description="Chat turns one worker runs at once; more are refused at once with 429. "
    "A turn is CPU-bound (in a thread pool of this many threads, off the event loop): about "
    "4 per core the worker may use. The Redis pools and that pool are sized from it at "
    "start-up.",
)
API_RETRY_AFTER_S = REGISTRY.declare(
    "API_RETRY_AFTER_S",
    int,
    1,
    group="api",
    minimum=1,
    maximum=3600,
    description="Seconds a refused (429) client is told to wait in `Retry-After`.",
)
FACETS_TOP = REGISTRY.declare(
    "FACETS_TOP",
    int,
    50,
    group="api",
    minimum=1,
    maximum=500,
    description="Categories, brands and values per attribute GET /v1/catalog/facets and "
    "`pickwise catalog facets` list when the caller asks no `top` (most frequent first).",
)
