"""Budget rules: the price ceiling a shopper states, in the currency written (a bare amount in
the catalog's own). A number needs a currency or a price cue ("under", "or less"), and a bare
number followed by a unit or noun is refused, so "under 16 inches" or "up to 10 people" never
become budgets."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from app.catalog.currency import RATES_FILE, usd_rates
from app.config.params.planner import PLANNER_AROUND_SLACK
from app.errors import ConfigError
from app.language import lexicon
from app.language.lexicon import currency_patterns
from app.tools.plan._text_rules import STOP_WORDS, WORD, SpanMask
from app.tools.plan.catalog_words import current_vocabulary

_CURRENCY_TABLE: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(rf"^(?:{pattern})$"), code) for pattern, code in currency_patterns()
)
"""Currency as written (lower-cased, spaces squeezed) to its ISO code; first match wins."""

_PREFIX = r"(?:" + lexicon.alternation("currency_prefixes") + r")"
_SUFFIX = r"(?:" + lexicon.alternation("currency_suffixes") + r")"
_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+"
_AMOUNT = (
    rf"(?<![\w.,$€£¥₹₩])(?P<pre@>{_PREFIX})?(?P<num@>{_NUMBER})(?P<k@>\s?k)?"
    rf"(?![\w])(?:\s?(?P<suf@>{_SUFFIX})(?![a-z]))?"
)


def _amount(i: int) -> str:
    """The amount pattern with its groups numbered `i` (a range has two amounts)."""
    return _AMOUNT.replace("@", str(i))


_STRONG_CUE = lexicon.alternation("budget_strong_cues")
_WEAK_CUE = lexicon.alternation("budget_weak_cues")
_APPROX = lexicon.alternation("budget_approx_cues")
_SUFFIX_CUE = lexicon.alternation("budget_suffix_cues")
_FLOOR_CUE = r"(?<!no\s)(?<!not\s)\b(?:" + lexicon.alternation("budget_floor_cues") + r")"
_NOT_A_PRICE_AFTER = re.compile(r"\s*(?:" + lexicon.alternation("not_a_price_after") + r")\b")

_RANGE = re.compile(
    rf"(?:(?P<cue>{_STRONG_CUE})\s+)?(?:(?P<between>between|from)\s+)?"
    + _amount(1)
    + r"\s*(?P<sep>-|to|and)\s*"
    + _amount(2)
)
_CUED = re.compile(
    r"\b(?:(?:the\s+|whose\s+|a\s+|my\s+)?price\s+(?:(?:is|should\s+be|must\s+be)\s+)?)?"
    rf"(?:(?P<strong>{_STRONG_CUE})|(?P<weak>{_WEAK_CUE}))\s*(?::\s*)?"
    rf"(?:(?P<approx>{_APPROX})\s*)?" + _amount(1)
)
_APPROX_ONLY = re.compile(rf"(?<![\w])(?P<approx>{_APPROX})\s*" + _amount(1))
_SUFFIXED = re.compile(_amount(1) + rf"\s*(?P<tail>{_SUFFIX_CUE}|or\s+so)(?![a-z])")
_FLOOR = re.compile(rf"{_FLOOR_CUE}\s+" + _amount(1))
_BARE_CURRENCY = re.compile(_amount(1))
_POUND = re.compile(r"pounds?")
_SOFT_BEFORE = re.compile(r"(?:" + lexicon.alternation("soft_budget_before") + r")[\s,]*$")
_CLEAR = re.compile(r"\b(?:" + lexicon.alternation("budget_clear_phrases") + r")\b")


@dataclass(frozen=True)
class BudgetMention:
    """One stated price ceiling: the amount as written, its currency, and where it is."""

    amount: float
    currency: str
    budget_usd: float
    evidence: str
    start: int
    end: int
    cued: bool
    soft: bool
    floor_usd: float | None = None
    """The lower end in USD when the shopper gave a range ("between $300 and $600")."""
    target_usd: float | None = None
    """The amount in USD when it was said as approximate ("around $1500"): a price to be
    near, not only a limit."""
    bare: bool = False
    """A range of bare numbers ("between 800 and 1200"): a price only where the catalog
    prices the product so (`plausible_price`)."""


@dataclass(frozen=True)
class FloorMention:
    """One stated lowest price on its own ("over $300"), in USD, and where it is."""

    floor_usd: float
    start: int
    bare: bool = False
    """A bare number ("over 300"): a price only where the catalog prices the product so."""


@dataclass(frozen=True)
class BudgetFindings:
    """Every budget mention and lone price floor of one message and, if any, where the
    shopper dropped the budget."""

    mentions: tuple[BudgetMention, ...] = ()
    cleared_at: int | None = None
    floors: tuple[FloorMention, ...] = ()


def pick_mention(mentions: list[BudgetMention] | tuple[BudgetMention, ...]) -> BudgetMention:
    """The last firm, cued mention wins; softer or uncued ones only when nothing better."""
    ranked = sorted(mentions, key=lambda m: (m.cued, not m.soft, m.start))
    return ranked[-1]


def currency_code(written: str | None) -> str | None:
    """The ISO code of a currency as written ('€', 'euros', 'C$'); None when unknown."""
    if not written:
        return None
    key = re.sub(r"\s+", " ", written.strip().lower())
    for pattern, code in _CURRENCY_TABLE:
        if pattern.match(key):
            return code
    return None


_CHEAP = re.compile(r"(?<!not )(?<!no )\b(?:" + lexicon.alternation("cheap_words") + r")\b")


_CHEAPEST = re.compile(r"(?<!not )(?<!no )\b(?:" + lexicon.alternation("cheapest_words") + r")\b")


def claim_price_wishes(low: str, mask: SpanMask) -> tuple[bool, bool]:
    """Whether lower-case `low` asks for a low price without naming one ("a cheap tablet", "not
    too expensive"; not "not cheap") and for the cheapest ("lowest price"), claiming each
    wish's words in `mask`: "not too expensive" excludes nothing, "low cost" is no search word.
    Words a budget already claimed ("cheaper than $50") are no wish."""
    cheapest = _claim_all(_CHEAPEST, low, mask)  # "cheapest" is in both lists: narrower first
    cheap = _claim_all(_CHEAP, low, mask)
    return cheap or cheapest, cheapest


_STOCK_WISH = re.compile(r"\b(?:" + lexicon.alternation("stock_wishes") + r")\b")
_STOCK_INDIFFERENT = re.compile(r"\b(?:" + lexicon.alternation("stock_indifferent") + r")\b")


def claim_stock_wish(low: str, mask: SpanMask) -> bool | None:
    """True when lower-case `low` asks for the product in stock now ("in stock", "available
    now", "not sold out"), False when it says stock does not matter ("doesn't have to be in
    stock"), None when neither; the words are claimed in `mask`, no search word or negation."""
    indifferent = _claim_all(_STOCK_INDIFFERENT, low, mask)
    wish = _claim_all(_STOCK_WISH, low, mask)
    return False if indifferent else (True if wish else None)


def _claim_all(pattern: re.Pattern[str], low: str, mask: SpanMask) -> bool:
    """Claim every match of `pattern` in `low` that no earlier rule took; whether any was."""
    hits = [m for m in pattern.finditer(low) if mask.is_free(m.start(), m.end())]
    for m in hits:
        mask.take(m.start(), m.end())
    return bool(hits)


def find_budget(low: str, original: str, mask: SpanMask) -> BudgetFindings:
    """All budget mentions in `low` (claimed in `mask`) and where the budget was dropped."""
    cleared_at: int | None = None
    for m in _CLEAR.finditer(low):
        mask.take(m.start(), m.end())
        cleared_at = m.start()
    found: list[BudgetMention] = []
    for m in _RANGE.finditer(low):
        mention = _range_mention(m, low, original, mask)
        if mention is not None:
            found.append(mention)
    for m in _CUED.finditer(low):
        mention = _cued_mention(m, low, original, mask)
        if mention is not None:
            found.append(mention)
    for m in _APPROX_ONLY.finditer(low):
        bare = _currency_of(m, 1) is None
        if (bare and not _bare_number_ok(low, m.end())) or not mask.is_free(m.start(), m.end()):
            continue
        mention = _mention(m, 1, low, original, mask, cued=True, approx=True)
        found.append(replace(mention, bare=bare))  # "around 300": a price where one may be
    for m in _SUFFIXED.finditer(low):
        if not mask.is_free(m.start(), m.end()) or _is_pound(m, 1):
            continue
        if _currency_of(m, 1) is None and not _bare_number_ok(low, m.end()):
            continue
        approx = m.group("tail").startswith("or") and m.group("tail").endswith("so")
        found.append(_mention(m, 1, low, original, mask, cued=True, approx=approx))
    floors: list[FloorMention] = []
    for m in _FLOOR.finditer(low):
        currency = _currency_of(m, 1)
        if currency is None and not _bare_number_ok(low, m.end()):
            continue
        if not mask.is_free(m.start(), m.end()) or _NOT_A_PRICE_AFTER.match(low, m.end()):
            continue
        mask.take(m.start(), m.end())
        if _number(m, 1) <= 0 or (currency is None and m.group(0).startswith("from")):
            continue  # "from 2020" is a year as often as a price
        usd = _usd(_number(m, 1), _or_catalogs(currency))
        floors.append(FloorMention(usd, m.start(), bare=currency is None))
    for m in _BARE_CURRENCY.finditer(low):
        if _currency_of(m, 1) is None or not mask.is_free(m.start(), m.end()):
            continue
        if _NOT_A_PRICE_AFTER.match(low, m.end()):
            continue
        found.append(_mention(m, 1, low, original, mask, cued=False, approx=False))
    found = sorted((x for x in found if x.amount > 0), key=lambda x: x.start)
    return BudgetFindings(tuple(found), cleared_at, tuple(floors))


def _range_mention(
    m: re.Match[str], low: str, original: str, mask: SpanMask
) -> BudgetMention | None:
    if not mask.is_free(m.start(), m.end()):
        return None
    currency = _currency_of(m, 2) or _currency_of(m, 1)
    bare = currency is None and m.group("cue") is None
    if bare and m.group("between") != "between":
        return None
    if currency is None and not _bare_number_ok(low, _number_end(m, 2)):
        return None
    if m.group("sep") == "and" and m.group("between") is None:
        return None
    lower, upper = sorted((_number(m, 1), _number(m, 2)))
    if upper <= 0:
        return None
    mention = _build(upper, _or_catalogs(currency), m, low, original, mask, cued=True, approx=False)
    mention = replace(mention, bare=bare)
    if lower <= 0 or m.group("cue") is not None:
        return mention
    floor = round(lower * mention.budget_usd / upper, 2)
    return replace(mention, floor_usd=floor)


def _cued_mention(
    m: re.Match[str], low: str, original: str, mask: SpanMask
) -> BudgetMention | None:
    if not mask.is_free(m.start(), m.end()):
        return None
    pounds_ok = m.group("strong") is not None and not re.match(r"\s*(?:of\b|\()", low[m.end() :])
    currency = _currency_of(m, 1, pounds_ok=pounds_ok and _bare_number_ok(low, m.end()))
    if currency is None and (
        m.group("strong") is None or not _bare_number_ok(low, _number_end(m, 1))
    ):
        return None
    if m.group("strong") is None and _NOT_A_PRICE_AFTER.match(low, m.end()):
        return None
    approx = m.group("approx") is not None
    return _build(
        _number(m, 1), _or_catalogs(currency), m, low, original, mask, cued=True, approx=approx
    )


def _mention(
    m: re.Match[str], i: int, low: str, original: str, mask: SpanMask, *, cued: bool, approx: bool
) -> BudgetMention:
    currency = _or_catalogs(_currency_of(m, i))
    return _build(_number(m, i), currency, m, low, original, mask, cued=cued, approx=approx)


def _build(
    amount: float,
    currency: str,
    m: re.Match[str],
    low: str,
    original: str,
    mask: SpanMask,
    *,
    cued: bool,
    approx: bool,
) -> BudgetMention:
    mask.take(m.start(), m.end())
    headroom = 1.0 + PLANNER_AROUND_SLACK.get() if approx else 1.0
    soft = bool(_SOFT_BEFORE.search(low, max(0, m.start() - 20), m.start()))
    return BudgetMention(
        amount=amount,
        currency=currency,
        budget_usd=_usd(amount * headroom, currency),
        target_usd=_usd(amount, currency) if approx else None,
        evidence=original[m.start() : m.end()].strip(),
        start=m.start(),
        end=m.end(),
        cued=cued,
        soft=soft,
    )


def _or_catalogs(currency: str | None) -> str:
    """The currency written, else the one the catalog in use is priced in (USD by default)."""
    return currency or current_vocabulary().currency


def _usd(amount: float, currency: str) -> float:
    """`amount` of `currency` in US dollars by the static rate table (at least one cent)."""
    rate = usd_rates().get(currency)
    if rate is None:
        raise ConfigError(f"no rate for {currency} in {RATES_FILE}")
    return max(round(amount * rate, 2), 0.01)


def _number(m: re.Match[str], i: int) -> float:
    value = float(m.group(f"num{i}").replace(",", ""))
    return value * 1000 if m.group(f"k{i}") else value


def _number_end(m: re.Match[str], i: int) -> int:
    """Where amount `i` ends before any currency word ("1k" ends after the k)."""
    return m.end(f"k{i}") if m.group(f"k{i}") else m.end(f"num{i}")


def _currency_of(m: re.Match[str], i: int, *, pounds_ok: bool = False) -> str | None:
    """The currency of amount `i`; a bare "pound(s)" is a weight unless `pounds_ok`."""
    if _is_pound(m, i) and not pounds_ok:
        return None
    return currency_code(m.group(f"pre{i}")) or currency_code(m.group(f"suf{i}"))


def _is_pound(m: re.Match[str], i: int) -> bool:
    """True for "5 pounds" with no other currency mark: usually a weight ("a 5 pound bag")."""
    suffix = m.group(f"suf{i}")
    return not m.group(f"pre{i}") and suffix is not None and bool(_POUND.fullmatch(suffix))


def _bare_number_ok(low: str, end: int) -> bool:
    """A number without currency is a price only when no unit or noun follows it."""
    rest = low[end:]
    if re.match(r"\s*(?:in\b|x\b|[\"'%/*x]|-\s*\w)", rest):
        return False
    nxt = WORD.search(rest)
    if nxt is None or re.match(r"\s*[,;:!?)]|\.(?!\d)", rest):
        return True
    return nxt.start() > 0 and nxt.group(0) in STOP_WORDS
