"""Shopper terms and specs ("16gb ram", "under 15 inch") and where an item states them:
shared by search, the picker, the summary and the agent's follow-ups."""

from app.tools.terms._specs import normalise, spec_nearness, spec_said, tokens
from app.tools.terms._terms import (
    has_words,
    jaccard,
    make_terms,
    mentions,
    negated_only,
    spec_where,
)
from app.tools.terms.picker_terms import (
    Spec,
    Stated,
    Term,
    find_specs,
    make_term,
    term_in,
    where_stated,
)

__all__ = [
    "Spec",
    "Stated",
    "Term",
    "find_specs",
    "has_words",
    "jaccard",
    "make_term",
    "make_terms",
    "mentions",
    "negated_only",
    "normalise",
    "spec_nearness",
    "spec_said",
    "spec_where",
    "term_in",
    "tokens",
    "where_stated",
]
