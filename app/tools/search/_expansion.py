"""Local query rewrites for a search that came back too thin, without an LLM: the quoted
phrase, the longest segment, the query with question and stop words removed, and the query
with the product under a name shops also list it as."""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.catalog.product_nouns import listed_as, singular
from app.tools.search._product import names_product
from app.tools.search._relevance import ScoredHit, on_topic

_QUOTED = re.compile(r'"([^"]+)"|“([^”]+)”|«([^»]+)»')
_WORD = re.compile(r"[0-9a-z]+(?:['’.\-+/][0-9a-z]+)*")
_SEGMENT_BREAK = re.compile(
    r"[,;:!?()\[\]]|\s(?:and|or|but|with|without|for|that|which|who|because|so|to|in|on)\s",
    re.IGNORECASE,
)

_QUESTION_TEXT = (
    "what which where when who whom whose why how is are was were am can could would should "
    "will shall may might must do does did have has had any anything something there here "
    "please recommend suggest show find get give need want wanted looking look search buy "
    "purchase shopping shop tell help know think like good best great nice decent cheap "
    "some one hey hi hello thanks thank needs wants looks finds recommendations ideas "
    "options chance maybe possibly honestly"
)
_STOP_TEXT = (
    "a an the of for to in on at by from with without about into onto over under than then "
    "and or but nor so if as that this these those it its it's i i'm me my mine we us our "
    "you your yours he she him her they them their be been being very really just also too "
    "much many more most less least such own same other else only even ever still yet again "
    "around up down out off"
)
QUESTION_WORDS = frozenset(_QUESTION_TEXT.split())
STOP_WORDS = frozenset(_STOP_TEXT.split())


def content_words(text: str) -> list[str]:
    """The words of `text` minus question and stop words, lower-cased, in order."""
    words = _WORD.findall(text.lower())
    return [w for w in words if w not in STOP_WORDS and w not in QUESTION_WORDS]


def expansion_variants(query: str, *, limit: int) -> list[str]:
    """Up to `limit` rewrites of `query`, most specific first, none equal to the query."""
    if limit <= 0:
        return []
    original = " ".join(_WORD.findall(query.lower()))
    candidates = [*_quoted(query), _longest_segment(query), " ".join(content_words(query))]
    variants: list[str] = []
    for candidate in candidates:
        text = " ".join(candidate.split())
        if text and text != original and text not in variants:
            variants.append(text)
    return variants[:limit]


def _quoted(query: str) -> list[str]:
    phrases = [next(g for g in m.groups() if g) for m in _QUOTED.finditer(query)]
    return [" ".join(content_words(p)) or p.strip().lower() for p in phrases]


def _longest_segment(query: str) -> str:
    """The segment (between punctuation and connectives) with the most content words."""
    segments = [content_words(s) for s in _SEGMENT_BREAK.split(query)]
    best = max(segments, key=len, default=[])
    return " ".join(best) if len(segments) > 1 else ""


def listed_as_queries(query: str, product: str | None) -> list[tuple[str, str]]:
    """(query, name): the query with a product it names under each name a shop may list it
    as ("lamp bedroom" -> "light bedroom", light): the planned product's names, or without
    one those of any phrase of the query; the name alone where the query does not say it."""
    words = [singular(w) for w in _WORD.findall(query.lower())]
    asked = [product.lower()] if product else _spans(words)
    out: dict[str, str] = {}
    for phrase in asked:
        said = [singular(w) for w in phrase.split()]
        for name in listed_as(phrase):
            out.setdefault(_swapped(words, said, name) or name, name)
    return list(out.items())


def _spans(words: list[str]) -> list[str]:
    """The query's two-word then one-word spans, as phrases."""
    pairs = [" ".join(words[i : i + 2]) for i in range(len(words) - 1)]
    return [*pairs, *words]


def _swapped(words: list[str], phrase: list[str], name: str) -> str | None:
    """The words with the phrase replaced by `name`, None when the phrase is absent."""
    n = len(phrase)
    at = next((i for i in range(len(words)) if words[i : i + n] == phrase), None)
    if at is None:
        return None
    return " ".join([*words[:at], name, *words[at + n :]])


def listed_hits(
    asked: Sequence[tuple[str, str]], found: Sequence[Sequence[ScoredHit]]
) -> list[ScoredHit]:
    """The on-topic hits of each listed-as recall (`found`, one per (query, name) asked)
    that say the name searched, each once, nearest to its query first."""
    hits: dict[str, ScoredHit] = {}
    for (query, name), kept in zip(asked, found, strict=True):
        for hit in on_topic(kept):
            if names_product(hit.item, name, query):
                hits.setdefault(hit.item_id, hit)
    return sorted(hits.values(), key=lambda h: -(h.relevance or 0.0))
