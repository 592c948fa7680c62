"""What the product matcher reads in a title: words, model-like codes, quantities and colours.

Pure text functions over lower-cased titles; corpus statistics live in `_match_stats`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from app.language import lexicon

# A compound token keeps its inner dots, dashes and slashes: "kx-tg4500b", "ls-wx1.0", "3.5-5.6".
_COMPOUND = re.compile(r"[a-z0-9]+(?:[.\-/][a-z0-9]+)*")
_WORD = re.compile(r"\d+(?:\.\d+)?|[a-z0-9]+")
_NON_ALNUM = re.compile(r"[^a-z0-9]+")
_HAS_DIGIT = re.compile(r"\d")
_HAS_LETTER = re.compile(r"[a-z]")
_MODEL_FIELD_SPLIT = re.compile(r"[\s/#,;]+")

# fmt: off
_UNIT_FAMILIES: dict[str, tuple[str, float]] = {
    "kb": ("bytes", 1e-6), "mb": ("bytes", 1e-3), "gb": ("bytes", 1.0), "tb": ("bytes", 1e3),
    "in": ("inch", 1.0), "inch": ("inch", 1.0), "inches": ("inch", 1.0), '"': ("inch", 1.0),
    "ft": ("feet", 1.0), "feet": ("feet", 1.0), "foot": ("feet", 1.0),
    "mm": ("mm", 1.0), "cm": ("mm", 10.0), "mp": ("megapixel", 1.0),
    "megapixel": ("megapixel", 1.0), "mhz": ("hertz", 1e-3), "ghz": ("hertz", 1.0),
    "w": ("watt", 1.0), "watt": ("watt", 1.0), "watts": ("watt", 1.0), "mah": ("mah", 1.0),
    "x": ("times", 1.0), "oz": ("ounce", 1.0), "lb": ("pound", 1.0), "lbs": ("pound", 1.0),
    "pk": ("count", 1.0), "pack": ("count", 1.0), "count": ("count", 1.0), "ct": ("count", 1.0),
    "pc": ("count", 1.0), "pcs": ("count", 1.0), "pages": ("pages", 1.0), "ppm": ("ppm", 1.0),
    "dpi": ("dpi", 1.0), "rpm": ("rpm", 1.0), "mbps": ("mbps", 1.0), "v": ("volt", 1.0),
    "users": ("users", 1.0), "user": ("users", 1.0),
}
# fmt: on
# Written apart from the number these are words ("v. 3.0", "2 x 500 gb"), not units; and
# "in" before a number is a preposition ("2 in 1").
_ATTACHED_ONLY = lexicon.words("match_text_attached_only")


def _alternation(units: Iterable[str]) -> str:
    ordered = sorted(units, key=len, reverse=True)
    return "|".join(r"in(?!\s*\d)" if u == "in" else re.escape(u) for u in ordered)


_UNIT_NAMES = _alternation(_UNIT_FAMILIES)
_SPACED_UNITS = _alternation(u for u in _UNIT_FAMILIES if u not in _ATTACHED_ONLY)
_QUANTITY = re.compile(
    rf"(?<![a-z0-9.])(\d+(?:\.\d+)?)(?:\s*-?\s*({_SPACED_UNITS})|({_UNIT_NAMES}))(?![a-z0-9])"
)
_NUMBER_SUFFIXES = lexicon.alternation("match_text_number_suffixes")
_QUANTITY_TOKEN = re.compile(
    rf"^\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)?-?(?:{_UNIT_NAMES}|{_NUMBER_SUFFIXES})?$"
)
# "3-button", "16-channel", "2-in-1", "10/100", "210x297mm": descriptions, not model numbers.
_DESCRIPTOR_TOKEN = re.compile(
    r"^\d{1,3}(?:\.\d+)?-?[a-z]{3,}$|^\d+(?:\.\d+)?(?:[x/-]\d+(?:\.\d+)?)+-?[a-z]{0,3}$"
    r"|^\d+-in-\d+$|^\d{1,3}[a-z]{1,2}$"
)
_BARE_NUMBER = re.compile(r"(?<![a-z0-9.\-])(\d+(?:\.\d+)?)(?![a-z0-9\-]|\.\d)")
_VERSION = re.compile(r"(?<![a-z0-9.])(?:v|ver|version)\.?\s?(\d+(?:\.\d+)?)(?![a-z0-9])")
_ORDINAL = re.compile(
    r"(?<![a-z0-9.])(\d+)(?:" + lexicon.alternation("match_text_ordinal") + r")(?![a-z0-9])"
)
# "cs3", "x5", "dp5": short series or version marks that tell editions apart.
_SERIES_MARK = re.compile(r"(?<![a-z0-9.\-])([a-z]{1,3}\d{1,2})(?![a-z0-9])")

# Editions sold apart from the full product: a title naming one is a different offer.
EDITION_GROUPS: tuple[frozenset[str], ...] = tuple(
    frozenset(group) for group in lexicon.word_groups("match_text_edition_groups")
)

# fmt: off
COLOURS = lexicon.word_set("match_text_colours")
# fmt: on
_SAME_COLOUR = lexicon.word_map("match_text_same_colour")


def lower_text(text: str | None) -> str:
    """Lower-cased text with inch marks kept readable as `"` and a listing's "new-" dropped."""
    out = (text or "").lower().replace("''", '"')
    return out[4:] if out.startswith("new-") else out


def words(text: str) -> list[str]:
    """Alphanumeric words of lower-cased text; decimals stay whole ("15.6")."""
    return _WORD.findall(text)


def squash(text: str) -> str:
    """Text with everything but letters and digits removed: "KX-TG4500B" -> "kxtg4500b"."""
    return _NON_ALNUM.sub("", text.lower())


def is_code(token: str) -> bool:
    """A model-like token: letters and digits (not a quantity like "16gb"), or 5+ digits."""
    plain = squash(token)
    if len(plain) < 4 or not _HAS_DIGIT.search(plain):
        return False
    if not _HAS_LETTER.search(plain):
        return (
            len(plain) >= 5
            and "." not in token
            and "/" not in token
            and ("-" not in token or len(plain) >= 7)
        )
    return not (_QUANTITY_TOKEN.match(token) or _DESCRIPTOR_TOKEN.match(token))


def title_codes(text: str) -> tuple[set[str], set[str]]:
    """Squashed model-like codes written in a lower-cased title, and those codes joined with
    the short tail the source split off ("ls-wx1.0 tl r1" -> "lswx10tlr1")."""
    tokens = _COMPOUND.findall(text)
    codes: set[str] = set()
    joined_codes: set[str] = set()
    for i, token in enumerate(tokens):
        if not is_code(token):
            continue
        codes.add(squash(token))
        joined = squash(token)
        for tail in tokens[i + 1 : i + 3]:
            if len(tail) > 3 or not tail.isalnum() or tail.isdigit() or tail in _UNIT_FAMILIES:
                break
            joined += tail
            joined_codes.add(joined)
    return codes, joined_codes


def model_field_codes(model_number: str | None) -> set[str]:
    """Codes of a model-number field: the whole field squashed when it is one token
    ("dt101g2/16gb" stays whole, its "dt101g2" is no match), else each code-like word."""
    text = lower_text(model_number).strip()
    if not text:
        return set()
    if " " not in text and is_code(squash(text)):
        return {squash(text)}
    return {squash(part) for part in _MODEL_FIELD_SPLIT.split(text) if is_code(part)}


def quantities(text: str) -> dict[str, set[float]]:
    """Unit family -> values stated in lower-cased text, in the family's base unit."""
    found: dict[str, set[float]] = {}
    for number, spaced, attached in _QUANTITY.findall(text):
        family, scale = _UNIT_FAMILIES[spaced or attached]
        found.setdefault(family, set()).add(round(float(number) * scale, 3))
    return found


def bare_numbers(text: str) -> set[str]:
    """Stand-alone numbers of lower-cased text, canonical ("3.0" -> "3"), quantities excluded;
    versions ("v2.0"), ordinals ("7th") and series marks ("cs3") count as numbers too."""
    stripped = _QUANTITY.sub(" ", text)
    found = {_canonical_number(n) for n in _BARE_NUMBER.findall(stripped)}
    found |= {_canonical_number(n) for n in _VERSION.findall(stripped)}
    found |= {_canonical_number(n) for n in _ORDINAL.findall(stripped)}
    found |= {m for m in _SERIES_MARK.findall(stripped) if not _QUANTITY_TOKEN.match(m)}
    return found


def editions(tokens: Iterable[str]) -> tuple[frozenset[str], ...]:
    """Per `EDITION_GROUPS` group, the edition words among the tokens."""
    present = set(tokens)
    return tuple(frozenset(group & present) for group in EDITION_GROUPS)


def colours(tokens: Iterable[str]) -> set[str]:
    """Colour words among the tokens, synonyms folded."""
    return {_SAME_COLOUR.get(t, t) for t in tokens if t in COLOURS}


def _canonical_number(number: str) -> str:
    value = float(number)
    return str(int(value)) if value.is_integer() else f"{value:g}"
