"""The picker's reading of a shopper's terms and specs ("16gb ram", "under 15 inch") and
where an item states them: the public surface the agent's follow-ups and answers use."""

from __future__ import annotations

from app.tools.terms._specs import Spec, find_specs
from app.tools.terms._terms import Stated, Term, make_term, term_in, where_stated

__all__ = ["Spec", "Stated", "Term", "find_specs", "make_term", "term_in", "where_stated"]
