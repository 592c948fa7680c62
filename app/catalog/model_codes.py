"""Model codes a shopper types ("rtx 2060", "tn-2110", "galaxy s10", "xbox 360") and whether
an item writes them: a code names one model, so a near code ("RTX 2070") is another product.
Quantities ("1080p", "32gb"), sizes ("20x20", "12-pack") and ordinals ("10th") are no codes."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.catalog._match_text import is_code, squash
from app.catalog.item import Item
from app.catalog.specs import without_quantities
from app.catalog.spelling import english_words
from app.language import lexicon

__all__ = [
    "CodeSpan",
    "ModelCode",
    "code_spans",
    "is_model_pair",
    "named_codes",
    "query_codes",
    "written_codes",
]

_TOKEN = re.compile(r"[a-z0-9]+(?:[-_./][a-z0-9]+)*")
_SERIES_CODE = re.compile(r"^[a-z]{1,3}\d{2,3}$")
"""A short series mark with its number: "s10", "g502", "rg11"."""
_NUMBER_CODE = re.compile(r"^\d{3,5}$")
_RARE_WORD = 1_000
"""A series word before a bare number is no common English word ("rtx", "xbox", "rx"), so
"need 300" or "purple 190" are no model numbers; "model" and "series" always are."""
_SERIES_WORDS = lexicon.word_set("model_codes_series_words")
_NUMBERED_LINES = lexicon.word_set("model_codes_numbered_lines")
"""Product lines whose models are a short number after the line's name ("iphone 12")."""
_SHORT_NUMBER = re.compile(r"^\d{1,2}$")
_SIZE_WORDS = lexicon.word_set("model_codes_size_words")
"""Words a number or code after them sizes, not names: "size-12", "mens 501"."""
_DIMENSION = re.compile(r"^x\d+$|^\d+x\d+")


@dataclass(frozen=True)
class ModelCode:
    """One code of a request: as typed ("rtx 2060"), and the squashed spellings a title may
    write it in ("2060", "rtx2060")."""

    text: str
    spellings: frozenset[str]


@dataclass(frozen=True)
class CodeSpan:
    """A code and where it stands in the lower-cased request, its series word included."""

    code: ModelCode
    start: int
    end: int


def query_codes(query: str) -> tuple[ModelCode, ...]:
    """The model codes of `query`, each once (`code_spans`)."""
    codes: dict[str, ModelCode] = {}
    for span in code_spans(query.lower()):
        codes.setdefault(span.code.text, span.code)
    return tuple(codes.values())


def code_spans(low: str) -> list[CodeSpan]:
    """Where lower-case `low` names a model code: a model-like token ("tn-2110",
    "xr50x90j"), a short series mark ("s10"), or a bare number of 3-5 digits after its
    series word ("rtx 2060") or of 1-2 digits after a numbered line ("iphone 12");
    quantities are blanked first, so "1080p" or "32gb" name none."""
    blank = without_quantities(low)
    found = list(_TOKEN.finditer(blank))
    spans: list[CodeSpan] = []
    for at, match in enumerate(found):
        token, plain = match.group(), squash(match.group())
        before = found[at - 1] if at else None
        if not _stands_alone(blank, match):
            continue
        series = before.group() if before is not None else ""
        start = before.start() if before is not None else match.start()
        if _NUMBER_CODE.match(token) and series and _series_word(series):
            code = ModelCode(f"{series} {token}", frozenset({plain, series + plain}))
            spans.append(CodeSpan(code, start, match.end()))
        elif _SHORT_NUMBER.match(token) and series in _NUMBERED_LINES:
            # only as one word with its line: "12" alone would match any title's "12 inch"
            code = ModelCode(f"{series} {token}", frozenset({series + plain}))
            spans.append(CodeSpan(code, start, match.end()))
        elif _SERIES_CODE.match(token) or _long_code(token):
            spans.append(CodeSpan(ModelCode(token, frozenset({plain})), *match.span()))
    return spans


def is_model_pair(word: str, number: str) -> bool:
    """Whether `number` after `word` names a model with it ("rtx 2060", "pixel 6"), so the
    number is no count, amount or stray digit."""
    pair = f"{word} {number}"
    return any(code.text == pair for code in query_codes(pair))


def _stands_alone(low: str, match: re.Match[str]) -> bool:
    """No decimal, percent or dimension: "3.0", "100%", the "x60" of 50"x60"."""
    after = low[match.end() : match.end() + 1]
    before = low[match.start() - 1 : match.start()] if match.start() else " "
    token = match.group()
    alone = before.isspace() or before in "(,"
    return alone and "." not in token and after != "%" and not _DIMENSION.match(token)


def _series_word(word: str) -> bool:
    """Whether a number after `word` is that series' model ("rtx", "xbox", "model")."""
    if word in _SERIES_WORDS:
        return True
    return (
        word not in _SIZE_WORDS
        and word.isalpha()
        and len(word) >= 2
        and english_words().get(word, 0) < _RARE_WORD
    )


def _long_code(token: str) -> bool:
    """A model-like token with two digits or more ("tn-2110", "i7-9750h", "xr50x90j")."""
    digits = sum(ch.isdigit() for ch in token)
    sized = any(token.startswith(w) for w in _SIZE_WORDS)
    return digits >= 2 and not sized and not token.replace("-", "").isdigit() and is_code(token)


def named_codes(item: Item, codes: Sequence[ModelCode]) -> int:
    """How many of `codes` the item's title, model number or description writes, with or
    without separators ("TN-2110", "TN 2110", "TN2110")."""
    if not codes:
        return 0
    written = written_codes(
        " ".join(p for p in (item.title, item.model_number, item.description) if p)
    )
    return sum(1 for code in codes if code.spellings & written)


def written_codes(text: str) -> set[str]:
    """Every token of `text` and every two adjacent ones, squashed to letters and digits:
    the forms a model code may be written in ("TN-2110", "TN 2110", "tn_2110" -> tn2110)."""
    words = [squash(t) for t in _TOKEN.findall(text.lower())]
    return set(words) | {a + b for a, b in itertools.pairwise(words)}
