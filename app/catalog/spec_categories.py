"""Categories for Icecat items whose title names none, read off their spec sheets.

A sheet that states its product type ("All-in-One PC") says it outright. Otherwise the spec
fields an item fills say what it is (a display diagonal, a panel type and a refresh rate
make a monitor), so an item takes the category most of its nearest categorised neighbours
share, by cosine over the sets of fields they fill, and nothing when they disagree or none
is near enough.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import scipy.sparse as sparse

from app.config.params.index import (
    SPEC_CATEGORY_MIN_SIMILARITY,
    SPEC_CATEGORY_NEIGHBOURS,
    SPEC_CATEGORY_VOTES,
)

__all__ = [
    "LeaveOneOut",
    "SpecRecipe",
    "infer_categories",
    "leave_one_out",
    "sheet_categories",
    "sheet_labels",
    "spec_fields",
    "stated_type",
]

_CHUNK = 2048
"""Rows compared at once: bounds the dense similarity block to a few tens of MB."""
_TYPE_FIELD = "attr_t_product_type"
_SIZE_NOTE = re.compile(r"\([^)]*[<>=][^)]*\)")
_LETTERS = re.compile(r"[a-z]{2}")


@dataclass(frozen=True)
class SpecRecipe:
    """How many neighbours vote, how many votes a category needs, and how near the nearest
    neighbour must be."""

    neighbours: int = 5
    votes: int = 4
    min_similarity: float = 0.6

    @classmethod
    def current(cls) -> SpecRecipe:
        """The recipe the parameter registry holds now."""
        return cls(
            SPEC_CATEGORY_NEIGHBOURS.get(),
            SPEC_CATEGORY_VOTES.get(),
            SPEC_CATEGORY_MIN_SIMILARITY.get(),
        )

    def fingerprint(self) -> str:
        """A text form of the recipe, part of the index version."""
        return (
            f"spec-categories:stated-type:k={self.neighbours}:votes={self.votes}"
            f":sim={self.min_similarity}"
        )


class LeaveOneOut(NamedTuple):
    """How the recipe does on the categorised items, each hidden in turn: the share it
    infers a category for, and the share of those inferred right."""

    items: int
    coverage: float
    accuracy: float


def spec_fields(row: Mapping[str, object]) -> frozenset[str]:
    """The spec fields an Icecat row fills: its `attr_*` keys with a value."""
    return frozenset(k for k, v in row.items() if k.startswith("attr_") and v not in (None, ""))


def stated_type(row: Mapping[str, object]) -> str | None:
    """The product type an Icecat sheet states, as a lower-case category ("All-in-One PC" ->
    "all-in-one pc", "Mini PC (<= 3L)" -> "mini pc"); None when absent or not words."""
    value = row.get(_TYPE_FIELD)
    if not isinstance(value, str):
        return None
    text = _SIZE_NOTE.sub(" ", value.lower()).replace("(", " ").replace(")", " ")
    text = " ".join(text.split())
    return text if _LETTERS.search(text) else None


def sheet_labels(titled: Sequence[str | None], stated: Sequence[str | None]) -> list[str | None]:
    """Each item's known category before any vote: its title's, else its sheet's type."""
    return [title or typed for title, typed in zip(titled, stated, strict=True)]


def sheet_categories(
    fields: Sequence[frozenset[str]],
    stated: Sequence[str | None],
    titled: Sequence[str | None],
    recipe: SpecRecipe,
) -> list[str | None]:
    """For each item whose title names no category, the type its sheet states, else the one
    its neighbours agree on (titled and typed items vote); None for titled items."""
    voted = infer_categories(fields, sheet_labels(titled, stated), recipe)
    return [
        None if title else typed or vote
        for title, typed, vote in zip(titled, stated, voted, strict=True)
    ]


def infer_categories(
    fields: Sequence[frozenset[str]], categories: Sequence[str | None], recipe: SpecRecipe
) -> list[str | None]:
    """For each item without a category and with spec fields, the category its neighbours
    agree on, else None; items with a category get None (theirs is kept)."""
    labelled = [i for i, c in enumerate(categories) if c]
    wanted = [i for i, c in enumerate(categories) if not c and fields[i]]
    out: list[str | None] = [None] * len(categories)
    verdicts = _votes(fields, categories, labelled, wanted, recipe)
    for row, category in zip(wanted, verdicts, strict=True):
        out[row] = category
    return out


def leave_one_out(
    fields: Sequence[frozenset[str]], categories: Sequence[str | None], recipe: SpecRecipe
) -> LeaveOneOut:
    """Infer each categorised item's category from the others and compare."""
    labelled = [i for i, c in enumerate(categories) if c and fields[i]]
    inferred = _votes(fields, categories, labelled, labelled, recipe, hide_self=True)
    made = [(row, c) for row, c in zip(labelled, inferred, strict=True) if c is not None]
    right = sum(categories[row] == c for row, c in made)
    return LeaveOneOut(
        len(labelled),
        len(made) / len(labelled) if labelled else 0.0,
        right / len(made) if made else 0.0,
    )


def _votes(
    fields: Sequence[frozenset[str]],
    categories: Sequence[str | None],
    labelled: Sequence[int],
    wanted: Sequence[int],
    recipe: SpecRecipe,
    *,
    hide_self: bool = False,
) -> list[str | None]:
    """The neighbours' verdict for each of `wanted`, voting among `labelled`."""
    if not labelled or not wanted:
        return [None] * len(wanted)
    matrix = _unit_rows(fields)
    pool = matrix[list(labelled)].T.tocsc()
    names = [categories[i] for i in labelled]
    column = {row: j for j, row in enumerate(labelled)} if hide_self else {}
    out: list[str | None] = []
    for start in range(0, len(wanted), _CHUNK):
        rows = list(wanted[start : start + _CHUNK])
        block = np.asarray((matrix[rows] @ pool).todense())
        for offset, row in enumerate(rows):
            if row in column:
                block[offset, column[row]] = -1.0
            out.append(_verdict(block[offset], names, recipe))
    return out


def _verdict(similarity: np.ndarray, names: Sequence[str | None], recipe: SpecRecipe) -> str | None:
    k = min(recipe.neighbours, similarity.size)
    top = np.argpartition(-similarity, k - 1)[:k]
    top = top[np.lexsort((top, -similarity[top]))]
    if similarity[top[0]] < recipe.min_similarity:
        return None
    category, votes = Counter(names[j] for j in top).most_common(1)[0]
    return category if votes >= recipe.votes else None


def _unit_rows(fields: Sequence[frozenset[str]]) -> sparse.csr_matrix:
    """One L2-normalised binary row per item over the spec-field vocabulary."""
    vocabulary: dict[str, int] = {}
    columns: list[int] = []
    pointers = [0]
    for filled in fields:
        columns.extend(vocabulary.setdefault(name, len(vocabulary)) for name in sorted(filled))
        pointers.append(len(columns))
    counts = np.diff(pointers).astype(np.float32)
    values = np.repeat(1.0 / np.sqrt(np.maximum(counts, 1.0)), counts.astype(int))
    shape = (len(fields), max(len(vocabulary), 1))
    return sparse.csr_matrix((values.astype(np.float32), columns, pointers), shape=shape)
