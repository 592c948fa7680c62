"""Makers' product lines that say what a product is when its title names no product ("Samsung
Galaxy Tab S6 Lite" is a tablet, "Lenovo ThinkPad T14" a laptop): vocabulary, in
`data/lexicon/title_heads.tsv` (`product_lines`)."""

from __future__ import annotations

import re

from app.catalog.text import add_once_after
from app.language import lexicon

__all__ = ["line_kind", "with_line_kind"]

_KINDS = lexicon.word_map("product_lines")
_PATTERN = re.compile(
    r"(?<![\w-])(?:" + "|".join(re.escape(line) for line in _KINDS) + r")(?![\w-])",
    re.IGNORECASE,
)


def line_kind(low: str) -> str | None:
    """The kind the first product line `low` names says ("tablet" for "galaxy tab"), or None."""
    found = _PATTERN.search(low)
    return _KINDS[found.group(0).lower()] if found else None


def with_line_kind(low: str) -> str:
    """`low` with the kind added once after the first product line it names ("samsung galaxy
    tab tablet s6 lite"), so a title that names no product reads as the product it is."""
    return add_once_after(_PATTERN, low, lambda m: _KINDS[m.group(0).lower()])
