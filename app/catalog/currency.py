"""Currency codes and the static rate table (data/currency_rates.json) that turns a shop's
price into US dollars, the unit budgets and price filters compare in."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from app.errors import ConfigError

__all__ = ["RATES_FILE", "known_currencies", "to_usd", "usd_rates"]

RATES_FILE = Path(__file__).resolve().parents[2] / "data" / "currency_rates.json"


@lru_cache(maxsize=1)
def usd_rates() -> dict[str, float]:
    """US dollars per one unit of each ISO 4217 currency the table knows."""
    try:
        table = json.loads(RATES_FILE.read_text(encoding="utf-8"))["usd_per_unit"]
    except (OSError, ValueError, KeyError) as exc:
        raise ConfigError(f"cannot read the currency rate table {RATES_FILE}: {exc}") from exc
    return {str(code).upper(): float(rate) for code, rate in table.items()}


def known_currencies() -> tuple[str, ...]:
    """The ISO codes a price may be given in (those the rate table can convert)."""
    return tuple(sorted(usd_rates()))


def to_usd(amount: float | None, currency: str | None) -> float | None:
    """`amount` of `currency` in US dollars, rounded to the cent; None when either is unknown."""
    if amount is None or currency is None:
        return None
    rate = usd_rates().get(currency.upper())
    return None if rate is None else round(amount * rate, 2)
