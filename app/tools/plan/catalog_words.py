"""The catalog's own product vocabulary (its profile's kinds and brands) as the rules read it:
set once per process by the runtime that opened the index, beside the lexicon's nouns."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from app.catalog.profile_kinds import CatalogVocabulary

__all__ = [
    "CatalogVocabulary",
    "catalog_vocabulary",
    "current_vocabulary",
    "use_catalog_vocabulary",
]

_EMPTY = CatalogVocabulary()
_held: list[CatalogVocabulary] = [_EMPTY]
"""The vocabulary in use: one per process, as the planner's lexicon is (the rules are plain
functions every tool calls; the runtime opens one index)."""


def current_vocabulary() -> CatalogVocabulary:
    """The catalog vocabulary the rules read now (empty until a runtime sets one)."""
    return _held[0]


def use_catalog_vocabulary(vocabulary: CatalogVocabulary | None) -> CatalogVocabulary:
    """Make `vocabulary` (None: none) the one the rules read; returns the one it replaces,
    for the caller to put back when it closes."""
    previous = _held[0]
    _held[0] = vocabulary or _EMPTY
    return previous


@contextmanager
def catalog_vocabulary(vocabulary: CatalogVocabulary | None) -> Iterator[CatalogVocabulary]:
    """`use_catalog_vocabulary` for a block, the previous one put back after it."""
    previous = use_catalog_vocabulary(vocabulary)
    try:
        yield current_vocabulary()
    finally:
        use_catalog_vocabulary(previous)
