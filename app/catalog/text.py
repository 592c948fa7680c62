"""Text normalisation shared by the catalog loaders: markup, symbols, spacing and display case.

The source datasets mix HTML, trademark signs and tokenised lower-case text (ditto); these
helpers make them readable and comparable without guessing at content.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from functools import lru_cache

from app.language import lexicon

__all__ = [
    "add_once_after",
    "clean_text",
    "display_case",
    "is_whole_words",
    "match_key",
    "replace_whole_words",
    "tidy_ditto_spacing",
]

_TAG = re.compile(r"<[A-Za-z/!][^<>]*>")
_MARKS_BEFORE_WORD = re.compile(r"[®™©]+(?=\w)")
_MARKS = re.compile(r"[®™©]+")
_SPACE_BEFORE_CLOSER = re.compile(r"(?<=\S) +(?=[,)!?](?:\s|$))")

# Ditto text is tokenised ("2.0 cu . ft .", "( mac )", "v8 .0"). Only joins that cannot change
# meaning are made: a lone " . " is left alone where it may start a name (".net", ".mac").
_OPEN_PAREN_SPACE = re.compile(r"\(\s+")
_DECIMAL_SPACE = re.compile(r"(?<=\d) \.(?=\d)")
_PERCENT_SPACE = re.compile(r"(?<=\d) %")
_INCH_MARK = re.compile(r"(?<=\d) ''(?=\s|$)")
_COLON_SPACE = re.compile(r"(?<=[a-z]) :(?= )")
_ABBREVIATION_DOT = re.compile(
    r"\b(" + lexicon.alternation("text_abbreviation_dot") + r") \.(?=\s|$)"
)
_TRAILING_DOT = re.compile(r"(?<=\w) \.$")

_WORD_CHAR = re.compile(r"[a-z0-9]")


def is_whole_words(low: str, match: re.Match[str]) -> bool:
    """True when `match` in lower-case `low` neither starts nor ends inside a word."""
    start, end = match.span()
    return not (start and _WORD_CHAR.match(low, start - 1)) and not _WORD_CHAR.match(low, end)


def replace_whole_words(
    pattern: re.Pattern[str], low: str, replace: Callable[[re.Match[str]], str]
) -> str:
    """Lower-case `low` with every match of `pattern` that is whole words replaced."""
    return pattern.sub(lambda m: replace(m) if is_whole_words(low, m) else m.group(0), low)


def add_once_after(pattern: re.Pattern[str], low: str, word: Callable[[re.Match[str]], str]) -> str:
    """Lower-case `low` with `word(match)` added after the first whole-word match giving each
    word, for lexical engines that should find one name for many spellings; every word stays."""
    seen: set[str] = set()

    def add(match: re.Match[str]) -> str:
        name = word(match)
        if name in seen:
            return match.group(0)
        seen.add(name)
        return f"{match.group(0)} {name}"

    return replace_whole_words(pattern, low, add)


# Display casing of lower-cased ditto text.


_SMALL_WORDS = lexicon.word_set("text_small_words")
_UNITS = lexicon.word_set("text_units")
_ACRONYMS = lexicon.word_set("text_acronyms")
_SPECIAL_CASE = lexicon.word_map("text_special_case")
_VOWELS = frozenset("aeiouy")
_VOWELLESS_WORDS = lexicon.word_set("text_vowelless_words")
_ALPHA_RUN = re.compile(r"[a-z]+")
_DIGIT = re.compile(r"\d")


def clean_text(text: object) -> str:
    """Plain text from a raw field: tags and entities removed, ®/™/© dropped, spaces collapsed.

    Non-strings (None, NaN from pandas) become "". A tag becomes a space so words stay apart.
    """
    if not isinstance(text, str) or not text:
        return ""
    out = text
    if "<" in out or "&" in out:
        out = _TAG.sub(" ", html.unescape(_TAG.sub(" ", out)))
    if _MARKS.search(out):
        out = _MARKS.sub("", _MARKS_BEFORE_WORD.sub(" ", out))
    out = " ".join(out.split())
    return _SPACE_BEFORE_CLOSER.sub("", out)


def tidy_ditto_spacing(text: str) -> str:
    """Undo the tokeniser's stray spaces in ditto text where the join is unambiguous.

    "2.0 cu . ft ." -> "2.0 cu. ft.", "( mac )" -> "(mac)", "v8 .0" -> "v8.0", "17 ''" -> '17"';
    "visual basic . net" keeps its dot where it is.
    """
    out = " ".join(text.split())
    if "( " in out:
        out = _OPEN_PAREN_SPACE.sub("(", out)
    if " ," in out or " )" in out or " !" in out or " ?" in out:
        out = _SPACE_BEFORE_CLOSER.sub("", out)
    if " ." in out:
        out = _DECIMAL_SPACE.sub(".", out)
        out = _ABBREVIATION_DOT.sub(r"\1.", out)
        out = _TRAILING_DOT.sub(".", out)
    if " %" in out:
        out = _PERCENT_SPACE.sub("%", out)
    if " ''" in out:
        out = _INCH_MARK.sub('"', out)
    if " :" in out:
        out = _COLON_SPACE.sub(":", out)
    return out


def _case_word(word: str, *, first: bool, leads_compound: bool = False) -> str:
    """Display case of one alphabetic run from lower-cased text; a single letter is upper-cased
    only where it leads a hyphenated word ("d-link" -> "D-Link"), never alone ("96 x 96")."""
    if word in _SPECIAL_CASE:
        return _SPECIAL_CASE[word]
    if word in _ACRONYMS:
        return word.upper()
    if word in _UNITS or len(word) == 1:
        return word.upper() if first and (word == "a" or leads_compound) else word
    if word in _SMALL_WORDS and not first:
        return word
    if len(word) <= 4 and not (_VOWELS & set(word)) and word not in _VOWELLESS_WORDS:
        return word.upper()
    return word[0].upper() + word[1:]


@lru_cache(maxsize=1 << 16)
def _case_token(token: str, *, first: bool) -> str:
    """Display case of one whitespace token; tokens with digits or capitals stay as they are."""
    if not token.islower() or _DIGIT.search(token):
        return token
    runs = list(_ALPHA_RUN.finditer(token))
    if not runs:
        return token
    if len(runs) > 1 and all(len(m.group()) == 1 for m in runs):
        return token  # "w/o", "a/v": abbreviations written with slashes stay lower case
    out: list[str] = []
    end = 0
    for index, match in enumerate(runs):
        word = match.group()
        tail_of_apostrophe = match.start() > 0 and token[match.start() - 1] == "'"
        leads_compound = index == 0 and token[match.end() : match.end() + 1] == "-"
        cased = (
            word
            if tail_of_apostrophe
            else _case_word(
                word, first=index == 0 and (first or leads_compound), leads_compound=leads_compound
            )
        )
        out.append(token[end : match.start()])
        out.append(cased)
        end = match.end()
    out.append(token[end:])
    return "".join(out)


def display_case(text: str) -> str:
    """Title-case lower-cased ditto text for display: "sony cyber-shot dsc-w120 7.2 mp camera"
    -> "Sony Cyber-Shot dsc-w120 7.2 mp Camera". Model numbers, units and mixed-case text
    are kept; known acronyms go upper case ("hp" -> "HP", "usb" -> "USB")."""
    tokens = text.split()
    return " ".join(_case_token(tok, first=i == 0) for i, tok in enumerate(tokens))


def match_key(text: str) -> str:
    """Comparison form of already-cleaned text (an Item's title or brand): case-folded, with
    single spaces."""
    return " ".join(text.casefold().split())
