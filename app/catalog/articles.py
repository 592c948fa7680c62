"""The indefinite article a generated sentence puts before a product noun, as it is spoken:
"an ssd", "a usb hub", "an armchair"; a plural takes none ("earbuds"). The letter and
spelling facts it reads are vocabulary (`article_*` lists in data/lexicon/spelling.tsv)."""

from __future__ import annotations

import re

from app.catalog.product_nouns import singular
from app.language import lexicon

__all__ = ["with_article"]

_VOWEL_NAMED = lexicon.word_set("article_vowel_named_letters")
_ONSETS = lexicon.word_set("article_word_onsets")
_CONSONANT_STARTS = lexicon.words("article_consonant_starts")
_VOWELS = "aeiou"
_ARTICLES = frozenset(("a", "an", "the"))
_HEAD_ENDS = lexicon.word_set("article_head_ends")


def with_article(phrase: str) -> str:
    """The phrase after "a" or "an"; a plural (its noun before any "with", "for": "monitors
    with 4k") or a phrase with its own article as it is ("earbuds", "the blue one")."""
    text = phrase.strip()
    words = text.lower().split()
    name = words[: next((i for i, w in enumerate(words) if i and w in _HEAD_ENDS), len(words))]
    if not words or words[0] in _ARTICLES or singular(name[-1]) != name[-1]:
        return text
    return f"{'an' if _vowel_sound(words[0]) else 'a'} {text}"


def _vowel_sound(word: str) -> bool:
    """Whether the word is spoken starting with a vowel: "armchair", "8-port", and a spelled
    abbreviation whose first letter's name is ("ssd", "hdmi"; not "usb" nor "tv")."""
    if word[0].isdigit():
        return re.match(r"(?:8|11|18|8\d\d?)(?!\d)", word) is not None
    letters = re.match(r"[a-z]+", word)
    if letters is None:
        return False
    head = letters.group(0)
    if _spelled(head):
        return head[0] in _VOWEL_NAMED
    return head[0] in _VOWELS and not head.startswith(_CONSONANT_STARTS)


def _spelled(head: str) -> bool:
    """Whether a word is read letter by letter: one letter, no vowel after its first letter
    ("usb", "tv"), or a consonant start no English word has ("ss", "hd"; not "pr")."""
    rest = head[1:]
    if not any(c in _VOWELS or c == "y" for c in rest):
        return True
    return head[0] not in _VOWELS and rest[0] not in _VOWELS + "y" and head[:2] not in _ONSETS
