"""Shared text machinery of the rule planner: normalisation, word tokens, claimed spans.
Rules read a lower-cased copy with the shopper's offsets, so evidence is an exact slice."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from app.language import lexicon
from app.language.lexicon import filler_words, number_words

_SAME_LENGTH = str.maketrans(
    {"’": "'", "‘": "'", "`": "'", "´": "'", "“": '"', "”": '"', "–": "-", "—": "-", "\u00a0": " "}
)

WORD = re.compile(
    r"[a-z0-9](?:[a-z0-9'+#]|[-/](?=[a-z0-9])|(?<=\d)\.(?=\d)|(?<=\d),(?=\d{3}(?!\d)))*"
)
"""A word: letters and digits joined by inner hyphens, slashes, apostrophes; "7.5" and
"20,000" are one."""


def word_set(text: str) -> frozenset[str]:
    """The whitespace-separated words of `text`, as a set (for hand-written word lists)."""
    return frozenset(text.split())


STOP_WORDS = filler_words()
"""Function words and request filler that never become keywords."""

COUNTED_FILLERS = lexicon.word_set("filler_counted")
"""No keyword alone, but a count keeps them ("a 4 person tent", "3 pairs")."""


SIZE_LABELS = frozenset({"size", "sizes"})
"""Words that label a size ("size 9", "size small", "queen size"): alone they find nothing,
and the size they start ends the noun phrase before them ("a top size small")."""
NUMBER_WORDS = {word: str(value) for word, value in number_words("count").items()}
"""Counts shoppers spell out ("three foot", "two usb ports"); "one" is left out, being as
often a pronoun."""


SETUP_WORDS = {"2": "dual", "3": "triple", "4": "quad"}
"""The words catalogs use for two, three or four of a thing ("dual monitors", "Dual USB")."""

_SCREEN_COUNT = re.compile(
    r"\b(two|2|three|3|four|4) (" + lexicon.alternation("text_screen_count") + r")\b", re.IGNORECASE
)


def screen_setups(text: str) -> str:
    """`text` with a count of screens in the word catalogs use for such setups ("for two
    monitors" -> "for dual monitors", "4 screens" -> "quad screens")."""
    return _SCREEN_COUNT.sub(
        lambda m: f"{SETUP_WORDS[NUMBER_WORDS.get(m.group(1).lower(), m.group(1))]} {m.group(2)}",
        text,
    )


_DP = re.compile(r"(?<![\w.-])dp(?![\w-])", re.IGNORECASE)
_CONNECTOR_CONTEXT = re.compile(
    r"\b(?:" + lexicon.alternation("text_connector_context") + r")\b",
    re.IGNORECASE,
)


def connector_names(text: str) -> str:
    """`text` with "dp" spelt "displayport" where it names a connector, beside a cable,
    adapter, port, screen or another connector ("an hdmi to dp cable"), as catalogs spell
    it; alone it is as often a brand (DP Audio)."""
    if not _CONNECTOR_CONTEXT.search(text):
        return text
    return _DP.sub("displayport", text)


_SPLIT_COMPOUNDS = re.compile(
    r"(?<![\w.])(?:" + lexicon.alternation("text_split_compounds") + r")(?![\w.])",
    re.IGNORECASE,
)


def normalize(text: str) -> str:
    """Same-length normalisation: typographic quotes and dashes to ASCII, no-break spaces,
    and the hyphenated words catalogs write that shoppers split ("2 in 1", "built in",
    "plug and play", "dual band", "over ear", "flat screen tv", "male to female", "high
    power"), so none
    of their words reads as a product or is dropped as a function word."""
    return _SPLIT_COMPOUNDS.sub(
        lambda m: m.group(0).replace(" ", "-"), text.translate(_SAME_LENGTH)
    )


_SPLIT_WORDS = re.compile(
    r"\b(?:" + lexicon.alternation("text_split_words") + r")\b", re.IGNORECASE
)


def joined_words(text: str) -> str:
    """Product words shoppers split that catalogs write as one ("blue tooth" -> bluetooth,
    "ear buds" -> earbuds, "key board", "head set", "web cam"): split, the second half reads
    as a product of its own ("tooth speaker") or as no product at all."""
    return _SPLIT_WORDS.sub(lambda m: re.sub(r"[\s-]", "", m.group(0)), text)


_GLUED_NUMBER = re.compile(
    r"\b(" + lexicon.alternation("text_glued_number") + r")(?=\d)", re.IGNORECASE
)


def unglued_numbers(text: str) -> str:
    """`text` with a function word typed against the number after it set apart ("with128gb"
    -> "with 128gb", "for10th" -> "for 10th"), so the amount reads as one."""
    return _GLUED_NUMBER.sub(r"\1 ", text)


def lower_same_length(text: str) -> str:
    """Lower-case `text` character by character so every offset still matches the original."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(low if len(low := ch.lower()) == 1 else ch for ch in text)


@dataclass(frozen=True)
class Token:
    """One word of the lower-cased text with its offsets."""

    text: str
    start: int
    end: int


Allowed = Callable[[Token], bool]
"""Whether a rule may still read a word (no earlier rule claimed it)."""


def tokens(low: str, start: int = 0, end: int | None = None) -> list[Token]:
    """The words of `low[start:end]` with absolute offsets."""
    stop = len(low) if end is None else end
    return [Token(m.group(0), m.start(), m.end()) for m in WORD.finditer(low, start, stop)]


@dataclass
class SpanMask:
    """Character spans already claimed by a rule; later rules leave them alone."""

    spans: list[tuple[int, int]] = field(default_factory=list)

    def is_free(self, start: int, end: int) -> bool:
        """True when no claimed span overlaps `[start, end)`."""
        return all(end <= s or start >= e for s, e in self.spans)

    def take(self, start: int, end: int) -> None:
        """Claim `[start, end)`."""
        if end > start:
            self.spans.append((start, end))

    def release(self, start: int, end: int) -> None:
        """Give back a span `take` claimed: a reading found wanting leaves its words free."""
        self.spans = [span for span in self.spans if span != (start, end)]

    def first_taken_after(self, pos: int) -> int | None:
        """Start of the first claimed span beginning at or after `pos`."""
        starts = [s for s, _ in self.spans if s >= pos]
        return min(starts) if starts else None


def clause_end(low: str, pos: int) -> int:
    """Offset of the next sentence or clause break (. ; : ! ? newline) at or after `pos`."""
    m = re.compile(r"[.;:!?\n]\s|[;!?\n]|\.$").search(low, pos)
    return m.start() if m else len(low)


def clause_start(low: str, pos: int) -> int:
    """Offset just after the previous clause break (. , ; : ! ? newline) before `pos`."""
    best = 0
    for m in re.finditer(r"[.,;:!?\n()]", low[:pos]):
        best = m.end()
    return best
