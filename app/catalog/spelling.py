"""Spelling repair for shoppers' words: a word that is neither English nor common in the
catalog is read as the catalog word one edit away that most titles use ("hedphones" ->
"headphones"), else as the commonest English word one edit away ("somthing" -> "something").
Known words stay, so brands, model names and foods the catalog lacks do too."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from app.catalog.item import Item
from app.config.params.planner import (
    PLANNER_SPELL_MIN_ENGLISH_COUNT,
    PLANNER_SPELL_MIN_LENGTH,
    PLANNER_SPELL_MIN_TITLES,
)
from app.language import lexicon

__all__ = ["Respelling", "Speller", "english_words"]

_TOKEN = re.compile(r"[a-z0-9]+")
_WRITTEN = re.compile(r"[A-Za-z0-9]+")
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_LONGEST = 24
"""Longer words are left as written: no English or catalog word is that long, and the edits
of a long run of letters would cost memory and time for nothing."""
_CONTRACTIONS = lexicon.word_set("spelling_contractions")  # fmt: skip


@dataclass(frozen=True)
class Respelling:
    """One word of a message and the word it was read as."""

    written: str
    read_as: str

    def __str__(self) -> str:
        return f"{self.written} -> {self.read_as}"


@lru_cache(maxsize=1)
def english_words() -> Mapping[str, int]:
    """The English words bundled with pyspellchecker (about 160,000) and their counts in its
    corpus."""
    from spellchecker import SpellChecker

    return dict(SpellChecker(language="en").word_frequency.dictionary)


class Speller:
    """Reads misspelt words as catalog or English words; built once per index from its
    items."""

    def __init__(
        self, titles: Mapping[str, int], used: Mapping[str, int], english: Mapping[str, int]
    ) -> None:
        self._titles: Counter[str] = Counter(titles)
        self._used: Counter[str] = Counter(used)
        self._english = english

    @classmethod
    def from_items(cls, items: Iterable[Item], english: Mapping[str, int] | None = None) -> Speller:
        """Title, brand and category words as targets, counted by item; every word of the
        items' text beside the English word list as the words left alone."""
        titles: Counter[str] = Counter()
        used: Counter[str] = Counter()
        for item in items:
            named = _words(item.title, item.brand, item.category)
            titles.update(named)
            used.update(named | _words(item.description))
        words = english_words() if english is None else english
        return cls(titles, used, {**dict.fromkeys(_CONTRACTIONS, 0), **words})

    def learn(self, item: Item) -> None:
        """Count a new item's words as `from_items` does (a live upsert between builds)."""
        named = _words(item.title, item.brand, item.category)
        self._titles.update(named)
        self._used.update(named | _words(item.description))

    def word(self, word: str) -> str | None:
        """The word `word` is a slip of, or None when it is known or too far off."""
        low = word.lower()
        floor = PLANNER_SPELL_MIN_TITLES.get()
        if not PLANNER_SPELL_MIN_LENGTH.get() <= len(low) <= _LONGEST or not low.isalpha():
            return None
        if self._is_known(low, floor):
            return None
        edits = _one_edit(low)
        plural = low.endswith("s")
        in_titles = [(self._title_uses(w, plural), w) for w in edits]
        best = max((c for c in in_titles if c[0] >= floor), default=None)
        if best is None:
            common = PLANNER_SPELL_MIN_ENGLISH_COUNT.get()
            in_english = [(self._english.get(w, 0), w) for w in edits]
            best = max((c for c in in_english if c[0] >= common), default=None)
        return best[1] if best else None

    def text(self, text: str) -> tuple[str, tuple[Respelling, ...]]:
        """`text` with its misspelt words replaced (in lower case), and what was replaced."""
        found: dict[str, Respelling] = {}

        def repair(match: re.Match[str]) -> str:
            written = match.group().lower()
            read_as = self.word(written)
            if read_as is None:
                return match.group()
            found.setdefault(written, Respelling(written, read_as))
            return read_as

        repaired = _WRITTEN.sub(repair, text)
        return repaired, tuple(found.values())

    def _title_uses(self, word: str, plural: bool) -> int:
        """Titles that use `word`; for a plural, those that use its singular as well."""
        uses = self._titles.get(word, 0)
        return uses + self._titles.get(word[:-1], 0) if plural and word.endswith("s") else uses

    def _is_known(self, word: str, floor: int) -> bool:
        """English, or catalog text at least as common as a word read as a correction."""
        forms = (word, word[:-1]) if word.endswith("s") else (word,)
        return any(w in self._english or self._used.get(w, 0) >= floor for w in forms)


def _words(*texts: str | None) -> set[str]:
    return {w for text in texts if text for w in _TOKEN.findall(text.lower())}


def _one_edit(word: str) -> set[str]:
    """Every word one deletion, swap of neighbours, replacement or insertion from `word`
    that keeps its first letter (slips there are rare, and brand prefixes are not slips)."""
    splits = [(word[:i], word[i:]) for i in range(1, len(word) + 1)]
    deleted = {a + b[1:] for a, b in splits if b}
    swapped = {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    replaced = {a + c + b[1:] for a, b in splits if b for c in _LETTERS}
    inserted = {a + c + b for a, b in splits for c in _LETTERS}
    return (deleted | swapped | replaced | inserted) - {word}
