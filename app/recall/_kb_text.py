"""Text helpers of the category KB: category-label keys, singular/plural forms, title terms
and numeric specs. Plurals are resolved against the catalog's own title vocabulary, so a
label merges with another only when the catalog spells both forms."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping

import bm25s.stopwords

from app.catalog.specs import quantities

STOPWORDS = frozenset(bm25s.stopwords.STOPWORDS_EN)
_IRREGULAR_SINGULAR = {"mice": "mouse", "styli": "stylus"}
_IRREGULAR_PLURAL = {v: k for k, v in _IRREGULAR_SINGULAR.items()}
_SEPARATORS = re.compile(r"[\s&/,:;()\-]+")
_WORD = re.compile(r"[a-z0-9][a-z0-9'+.]*")
_TERM = re.compile(r"(?<![a-z0-9])[a-z]{3,}(?![a-z0-9])")
_KEY_DROP = frozenset({"and"})
_PLURAL_EVIDENCE = 20

Vocabulary = Mapping[str, int]


def words(text: str) -> list[str]:
    """Lower-case words of `text`, split on spaces and label separators (& / , - :)."""
    return [w for w in _SEPARATORS.split(text.lower()) if w and _WORD.fullmatch(w)]


def title_vocabulary(titles: Iterable[str]) -> Counter[str]:
    """How many titles contain each lower-case word: the evidence for singular forms."""
    counts: Counter[str] = Counter()
    for title in titles:
        counts.update(set(words(title)))
    return counts


def singular(word: str, vocabulary: Vocabulary) -> str:
    """The singular of `word`: an irregular form, else the `-s`/`-es`/`-ies` stem the titles
    use most, unless the titles hardly know it (lens stays, not 'len'; windows stays)."""
    if word in _IRREGULAR_SINGULAR:
        return _IRREGULAR_SINGULAR[word]
    if len(word) <= 3 or not word.endswith("s") or word.endswith(("ss", "us", "is")):
        return word
    candidates = [word[:-1]]
    if word.endswith("es"):
        candidates.append(word[:-2])
    if word.endswith("ies"):
        candidates.append(word[:-3] + "y")
    best = max(candidates, key=lambda c: (vocabulary.get(c, 0), -candidates.index(c)))
    seen = vocabulary.get(best, 0)
    return best if seen > 0 and seen * _PLURAL_EVIDENCE >= vocabulary.get(word, 0) else word


def plural(word: str) -> str:
    """The regular English plural of a singular `word` (mouse → mice, battery → batteries)."""
    if word in _IRREGULAR_PLURAL:
        return _IRREGULAR_PLURAL[word]
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and len(word) > 1 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def label_key(label: str, vocabulary: Vocabulary) -> tuple[str, ...]:
    """The merge key of a category label: its singular words in order, without 'and', so
    case, separators and plurals do not split one category ('label printer' stays apart
    from 'printer label')."""
    return tuple(singular(w, vocabulary) for w in words(label) if w not in _KEY_DROP)


def surface_forms(label: str, vocabulary: Vocabulary) -> list[str]:
    """What a shopper may type for `label`: the label in lower case, its phrase with every
    word singular, and with the last word plural (when it is a word, not '9v')."""
    tokens = words(label)
    if not tokens:
        return []
    single = [singular(w, vocabulary) for w in tokens]
    forms = [" ".join(label.lower().split()), " ".join(single)]
    if single[-1].isalpha():
        forms.append(" ".join([*single[:-1], plural(single[-1])]))
    return list(dict.fromkeys(forms))


def title_terms(text: str) -> set[str]:
    """The alphabetic terms (three letters or more, no stop words) of one title."""
    return {t for t in _TERM.findall(text.lower()) if t not in STOPWORDS}


def title_specs(text: str) -> set[str]:
    """Numeric specs in a title as the catalog's spec reader finds them, written for a card:
    '16 GB' → '16gb', '15.6"' → '15.6 inch', '2.40 GHz' → '2.4ghz'."""
    return {_spec_label(q.value, q.unit) for q in quantities(text.lower())}


def _spec_label(value: float, unit: str) -> str:
    number = str(int(value)) if value == int(value) else f"{value:g}"
    return f"{number} inch" if unit == "inch" else f"{number}{unit}"


def slug(text: str) -> str:
    """A stable identifier for a card: lower-case words joined by '-'."""
    return "-".join(words(text)) or "category"
