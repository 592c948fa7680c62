"""Currency codes and the static rate table (data/currency_rates.json) that turns a shop's
price into US dollars, the unit budgets and price filters compare in."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from app.errors import ConfigError

__all__ = [
    "RATES_FILE",
    "known_currencies",
    "listed_price",
    "money",
    "to_usd",
    "usd",
    "usd_rates",
]

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


def money(amount: float, currency: str | None) -> str:
    """An amount as a shopper reads it: "$49.14" in dollars (or no currency known), else
    the ISO code before it ("INR 3,999", "EUR 12.50"): whole amounts without cents."""
    code = (currency or "USD").upper()
    if code == "USD":
        return usd(amount)
    digits = f"{amount:,.0f}" if float(round(amount, 2)).is_integer() else f"{amount:,.2f}"
    return f"{code} {digits}"


def usd(amount: float) -> str:
    """Dollars as every answer writes them: "$1,249.00", cents always shown."""
    return f"${amount:,.2f}"


def listed_price(price: float | None, currency: str | None, price_usd: float | None) -> str:
    """A listing's price in the shop's currency, with dollars beside it when that is another
    ("INR 3,999 ≈ $49.14"): the shopper sees what the shop asks."""
    if price is None or currency is None or currency.upper() == "USD":
        return "no listed price" if price_usd is None else usd(price_usd)
    beside = "" if price_usd is None else f" ≈ {usd(price_usd)}"
    return f"{money(price, currency)}{beside}"
