"""One name for the connector, cable, network and memory standards and the processor tiers
that shoppers and catalogs write many ways ("USB Type-C", "usb c", "Type-C" -> usb-c, but
not "HDMI Type C"; "Cat 6", "Cat.6" -> cat6; "Wi-Fi 6", "802.11ax" -> wifi6; "USB 3.0", "USB
3.2 Gen 1" -> usb-3.0; "DDR4-SDRAM", "PC4-19200" -> ddr4; "Intel Core i7-9700", "i7" ->
core-i7; "AMD Ryzen 5 3500U" -> ryzen-5), so a request for one matches every title naming
it."""

from __future__ import annotations

import hashlib
import re

from app.catalog.text import add_once_after, is_whole_words, replace_whole_words
from app.language import lexicon

__all__ = [
    "PROCESSOR_TIERS",
    "TIERS_OF_LINE",
    "canonical_standards",
    "model_after",
    "newer_than",
    "standard_at",
    "standard_labels",
    "standard_words",
    "standards_fingerprint",
    "standards_in",
    "with_standard_words",
    "without_standards",
]

_STANDARDS = re.compile(
    lexicon.alternation("standards_standards"),
)
_WIFI_GENERATIONS = lexicon.word_map("standards_wifi_generations")
_USB_RATES = {
    "2.0": "usb-2.0",
    "3.0": "usb-3.0",
    "3.1gen1": "usb-3.0",
    "3.2gen1": "usb-3.0",
    "3.1gen2": "usb-3.2-gen2",
    "3.2gen2": "usb-3.2-gen2",
    "3.2gen2x2": "usb-3.2-gen2x2",
}
"""USB data rates by the name shoppers use most: 5 Gbit/s was USB 3.0, then USB 3.1 Gen 1 and
USB 3.2 Gen 1; 10 Gbit/s is 3.1 or 3.2 Gen 2. A bare "USB 3.1" or "3.2" names no one rate."""
_GENERATIONS = lexicon.word_groups("standards_generations")
"""Lines of standards, oldest first, each backward compatible: a faster USB port, a later
Wi-Fi or a higher cable category serves wherever an older one was asked."""
_GENERATION = {
    name: (line, rank) for line, names in enumerate(_GENERATIONS) for rank, name in enumerate(names)
}
_NOT_WORD = re.compile(r"[^a-z0-9]")
_MODEL_NUMBER = re.compile(
    r"[\s-]?(?P<model>\d{3,5}[a-z]{0,2}\d?)(?![\w-])(?!\s+(?:xtx?|ti|super)\b)"
)
"""A processor's model number; one a graphics suffix follows is a card's ("6700 xt")."""
_ONE_NAME = re.compile(
    r"(?<![\w.-])(?:usb-c|cat(?P<cat>5e|6a|6e|7a|[5-8])|wifi(?P<wifi>6e|[4-7])"
    r"|usb-(?P<usb>2\.0|3\.0|3\.2-gen2x2|3\.2-gen2)|ddr(?P<ddr>[2-5])"
    r"|core-i(?P<core>[3579])|ryzen-(?P<ryzen>[3579]))(?![\w-]|\.\d)"
)
_DOCUMENT_FORM = "each name once, after its first spelling"


def _name(match: re.Match[str]) -> str:
    if match.group("usbc"):
        return "usb-c"
    if match.group("cat"):
        return "cat" + match.group("cat")
    if match.group("usbv"):
        return _USB_RATES[re.sub(r"[\s-]", "", match.group("usbv"))]
    if match.group("ddr") or match.group("pc"):
        return "ddr" + (match.group("ddr") or match.group("pc"))
    if match.group("core"):
        return "core-i" + match.group("core")
    if match.group("ryzen"):
        return "ryzen-" + match.group("ryzen")
    return "wifi" + (match.group("wifi") or _WIFI_GENERATIONS[match.group("dot11")])


def _word(match: re.Match[str]) -> str:
    """The one-word form of a standard's name, for lexical engines ("usbc", "usb30")."""
    return _NOT_WORD.sub("", _name(match))


def canonical_standards(low: str) -> str:
    """Lower-case `low` with every standard's spelling replaced by its one name."""
    return replace_whole_words(_STANDARDS, low, _name)


def standard_words(text: str, *, repeat: int = 1) -> str:
    """`text`, lower-cased, with each standard's spelling replaced by its one-word name
    ("usbc", "wifi6") `repeat` times: a lexical query for the standard, weighted, not for
    the words that spell it."""
    return replace_whole_words(_STANDARDS, text.lower(), lambda m: " ".join([_word(m)] * repeat))


def with_standard_words(text: str) -> str:
    """`text`, lower-cased, with each standard's one-word name ("usbc", "cat6") added once,
    after its first spelling, for lexical engines whose tokenizers drop one-letter words;
    every word stays."""
    return add_once_after(_STANDARDS, text.lower(), _word)


def without_standards(low: str) -> str:
    """Lower-case `low` with every standard's spelling blanked out."""
    return replace_whole_words(_STANDARDS, low, lambda m: " ")


def standards_in(low: str) -> list[str]:
    """The one names of the standards lower-case `low` names, in order."""
    return [_name(m) for m in _STANDARDS.finditer(low) if is_whole_words(low, m)]


def standard_at(low: str, pos: int) -> tuple[str, int] | None:
    """The standard whose spelling starts at `pos` of lower-case `low`, and where it ends."""
    match = _STANDARDS.match(low, pos)
    if match is None or not is_whole_words(low, match):
        return None
    return _name(match), match.end()


PROCESSOR_TIERS = ("core-i", "ryzen-")
"""How the one names of processor tiers begin ("core-i7", "ryzen-5")."""
_CORE_TIERS = tuple(f"core-i{n}" for n in "3579")
_RYZEN_TIERS = tuple(f"ryzen-{n}" for n in "3579")
TIERS_OF_LINE = {
    "intel": _CORE_TIERS,
    "core": _CORE_TIERS,
    "amd": _RYZEN_TIERS,
    "ryzen": _RYZEN_TIERS,
}
"""The tiers' one names by the words of their maker and line, which the one name replaces in
a title ("Intel Core i7" -> core-i7 still says intel core)."""


def model_after(low: str, name: str, end: int) -> tuple[str, int] | None:
    """The model number right after processor tier `name` ending at `end` of lower-case `low`
    ("i7-1165g7" -> 1165g7, "core i5 4200u" -> 4200u), and where it ends; None after other
    standards or where none follows (a year after a space is none: "core i7 2020 laptop", nor
    a graphics card's number: "core i5 6700 xt")."""
    if not name.startswith(PROCESSOR_TIERS):
        return None
    match = _MODEL_NUMBER.match(low, end)
    if match is None:
        return None
    model = match.group("model")
    if not match.group(0).startswith("-") and model.isdigit() and 1990 <= int(model) < 2040:
        return None
    return model, match.end()


def newer_than(name: str, asked: str) -> int | None:
    """How many generations standard `name` is ahead of `asked` on the same line (usb-3.2-gen2
    is 1 ahead of usb-3.0), or None when it is not ahead of it."""
    mine, theirs = _GENERATION.get(name), _GENERATION.get(asked)
    if mine is None or theirs is None or mine[0] != theirs[0] or mine[1] <= theirs[1]:
        return None
    return mine[1] - theirs[1]


def standard_labels(text: str) -> str:
    """`text` with each standard's one name written as people write it ("usb-c" -> USB-C,
    "wifi6e" -> Wi-Fi 6E, "core-i7" -> Core i7), for what the shopper reads."""
    return _ONE_NAME.sub(_label, text)


def _label(match: re.Match[str]) -> str:
    if match.group("cat"):
        return "Cat " + match.group("cat")
    if match.group("wifi"):
        return "Wi-Fi " + match.group("wifi").upper()
    if match.group("usb"):
        return "USB " + match.group("usb").replace("-gen", " Gen ")
    if match.group("ddr"):
        return "DDR" + match.group("ddr")
    if match.group("core"):
        return "Core i" + match.group("core")
    if match.group("ryzen"):
        return "Ryzen " + match.group("ryzen")
    return "USB-C"


def standards_fingerprint() -> str:
    """A short hash of the spellings and names, for index versions built with them."""
    tables = repr(sorted(_WIFI_GENERATIONS.items())) + repr(sorted(_USB_RATES.items()))
    spec = _STANDARDS.pattern + tables + _DOCUMENT_FORM
    return hashlib.sha256(spec.encode()).hexdigest()[:8]
