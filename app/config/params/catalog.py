"""Parameters of catalog imports."""

from app.config.registry import REGISTRY

__all__ = [
    "IMPORT_DEFAULT_CURRENCY",
    "IMPORT_ERRORS_LISTED",
    "LIVE_CHECK_INTERVAL_MS",
    "LIVE_MAX_ITEMS",
    "LIVE_PUSH_TIMEOUT_S",
]

IMPORT_ERRORS_LISTED = REGISTRY.declare(
    "IMPORT_ERRORS_LISTED",
    int,
    1_000,
    group="catalog",
    minimum=0,
    maximum=1_000_000,
    description="Rejected rows an import report lists one by one; the rest are only counted, "
    "so a file of a million bad rows keeps the report (and memory) small.",
)
IMPORT_DEFAULT_CURRENCY = REGISTRY.declare(
    "IMPORT_DEFAULT_CURRENCY",
    str,
    "USD",
    group="catalog",
    description="ISO 4217 currency of imported prices that state none (no currency column, "
    "no code in the price, no --currency).",
)
LIVE_CHECK_INTERVAL_MS = REGISTRY.declare(
    "LIVE_CHECK_INTERVAL_MS",
    int,
    200,
    group="catalog",
    minimum=0,
    maximum=1_000,
    description="How often a serving process looks for live catalog changes another process "
    "made (one indexed SQLite read); a change is visible everywhere within this plus the time "
    "to apply it, so it stays under the 1 s promise.",
)
LIVE_MAX_ITEMS = REGISTRY.declare(
    "LIVE_MAX_ITEMS",
    int,
    10_000,
    group="catalog",
    minimum=1,
    maximum=1_000_000,
    description="Most offers one live upsert or delete may carry; a bigger change is an "
    "import followed by an index build.",
)
LIVE_PUSH_TIMEOUT_S = REGISTRY.declare(
    "LIVE_PUSH_TIMEOUT_S",
    float,
    10.0,
    group="catalog",
    minimum=0.1,
    maximum=600.0,
    description="Longest one push of acknowledged live changes to a remote vector or lexical "
    "store may take; past it the changes stay in the journal and are pushed again later (and "
    "no push is retried sooner than this after a failure).",
)
