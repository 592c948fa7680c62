"""Parameters of catalog imports."""

from app.config.registry import REGISTRY

__all__ = ["IMPORT_DEFAULT_CURRENCY", "IMPORT_ERRORS_LISTED"]

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
