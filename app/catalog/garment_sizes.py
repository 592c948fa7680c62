"""Garment sizes, smallest first, each by its names: a letter code ("m", "xl", "2xl") and the
words shops and shoppers write ("medium", "extra large"). Vocabulary in
`data/lexicon/amounts.tsv` (`clothing_sizes`)."""

from __future__ import annotations

from app.language import lexicon

__all__ = ["SIZE_NAMES", "is_size_code", "names_of_size", "size_word", "stepped_size"]

_GROUPS = lexicon.word_groups("clothing_sizes")
_GROUP_OF = {name: group for group in _GROUPS for name in group}
SIZE_NAMES = frozenset(_GROUP_OF)
"""Every name of every garment size."""


def names_of_size(name: str) -> tuple[str, ...]:
    """Every name of the size `name` names ("l" -> l, large), or none."""
    return _GROUP_OF.get(name, ())


def is_size_code(name: str) -> bool:
    """Whether `name` is a size's letter code ("l", "xl", "2xl"), which is a size only beside
    the word size, where a lone letter elsewhere is a word's ("men's", "i'm")."""
    return name in _GROUP_OF and len(name) <= 4 and " " not in name


def size_word(name: str) -> str | None:
    """The word of the size `name` names ("m" -> medium), its code where it has none
    ("xl"); None for no size."""
    group = _GROUP_OF.get(name)
    if group is None:
        return None
    return next((n for n in group if n.isalpha() and len(n) > 3), group[0])


def stepped_size(name: str, step: int) -> str | None:
    """The word of the size `step` sizes up (down when negative) from `name`, or None when
    `name` is no size or none is there."""
    group = _GROUP_OF.get(name)
    if group is None:
        return None
    at = _GROUPS.index(group) + step
    return size_word(_GROUPS[at][0]) if 0 <= at < len(_GROUPS) else None
