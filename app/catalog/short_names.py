"""Short names shoppers use for products that catalogs often spell out ("ssd" for "internal solid
state drive", "hdd" for "hard disk drive", "nas" for "network attached storage", "adf" for an
"automatic document feeder"), so a request in either form finds and credits titles in the
other."""

from __future__ import annotations

import hashlib
import re

from app.catalog.text import add_once_after, replace_whole_words

__all__ = ["short_names_fingerprint", "to_short_names", "with_short_names"]

_LONG_FORMS: dict[str, str] = {
    r"solid[\s-]*state[\s-]*(?:drive|disk)": "ssd",
    r"hard[\s-]*disk[\s-]*drive": "hdd",
    r"network[\s-]*attached[\s-]*storage": "nas",
    r"uninterruptible[\s-]*power[\s-]*supply": "ups",
    r"auto(?:matic)?[\s-]*(?:document[\s-]*)?feeder": "adf",
}
_PATTERN = re.compile(
    "|".join(f"(?P<n{i}>{form})" for i, form in enumerate(_LONG_FORMS)),
    re.IGNORECASE,
)
_SHORT = list(_LONG_FORMS.values())


def _short(match: re.Match[str]) -> str:
    return _SHORT[int(str(match.lastgroup)[1:])]


def to_short_names(low: str) -> str:
    """`low` with each long form, in any case, replaced by its short name ("solid state
    drive" -> "ssd"): one text for comparing a request with a title."""
    return replace_whole_words(_PATTERN, low, _short)


def with_short_names(low: str) -> str:
    """Lower-case `low` with the short name added once after the first long form that spells
    it, for lexical engines; every word stays."""
    return add_once_after(_PATTERN, low, _short)


def short_names_fingerprint() -> str:
    """A short hash of the table, for index versions built with it."""
    return hashlib.sha256(repr(sorted(_LONG_FORMS.items())).encode()).hexdigest()[:8]
