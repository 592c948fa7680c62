"""Whether text is valid Unicode: the one input rule every front end and the agent share
(a lone surrogate from a JSON escape or undecodable command-line bytes cannot be read)."""

from __future__ import annotations

__all__ = ["is_unicode_text"]


def is_unicode_text(text: str) -> bool:
    """False for text holding a code point UTF-8 cannot encode (a lone surrogate)."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
