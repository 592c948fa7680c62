"""One spelling for the connector and cable standards that shoppers and catalogs write many
ways ("USB Type-C", "usb c", "Type-C" -> usb-c, but not "HDMI Type C"; "Cat 6", "Cat.6",
"cat-6" -> cat6), so a request for one matches every title that names it and no neighbour."""

from __future__ import annotations

import re
from collections.abc import Callable

_STANDARDS = re.compile(
    r"(?P<usbc>usb[\s-]*(?:type[\s-]*)?c|(?<!hdmi )(?<!hdmi-)type[\s-]*c)"
    r"|cat(?:egory)?[\s.-]*(?P<cat>5e|6a|6e|7a|5|6|7|8)",
)
_BEFORE = re.compile(r"[a-z0-9]")


def _name(match: re.Match[str]) -> str:
    return "usb-c" if match.group("usbc") else "cat" + match.group("cat")


def _whole(text: str, match: re.Match[str]) -> bool:
    start, end = match.span()
    return not (start and _BEFORE.match(text, start - 1)) and not _BEFORE.match(text, end)


def _rewrite(low: str, replace: Callable[[re.Match[str]], str]) -> str:
    return _STANDARDS.sub(lambda m: replace(m) if _whole(low, m) else m.group(0), low)


def canonical_standards(low: str) -> str:
    """Lower-case `low` with every standard's spelling replaced by its one name."""
    return _rewrite(low, _name)


def with_standard_words(text: str) -> str:
    """`text`, lower-cased, with each standard's one-word name ("usbc", "cat6") added after its
    spelling, for lexical engines whose tokenizers drop one-letter words; every word stays."""
    return _rewrite(text.lower(), lambda m: f"{m.group(0)} {_name(m).replace('-', '')}")


def without_standards(low: str) -> str:
    """Lower-case `low` with every standard's spelling blanked out."""
    return _rewrite(low, lambda m: " ")


def standards_in(low: str) -> list[str]:
    """The one names of the standards lower-case `low` names, in order."""
    return [_name(m) for m in _STANDARDS.finditer(low) if _whole(low, m)]


def standard_at(low: str, pos: int) -> tuple[str, int] | None:
    """The standard whose spelling starts at `pos` of lower-case `low`, and where it ends."""
    match = _STANDARDS.match(low, pos)
    if match is None or not _whole(low, match):
        return None
    return _name(match), match.end()
