"""Hits that name the model code a search asks for ("rtx 2060") go first: a near code the
embedding finds close ("RTX 2070") is another product, however alike the titles read."""

from __future__ import annotations

from collections.abc import Sequence

from app.catalog.model_codes import ModelCode, named_codes, query_codes
from app.tools.search._relevance import ScoredHit


def codes_first(hits: Sequence[ScoredHit], codes: Sequence[ModelCode]) -> list[ScoredHit]:
    """The hits naming the most of `codes` first, each group in its own order; `hits` as they
    are when there is no code or no hit names one."""
    if not codes:
        return list(hits)
    named = [named_codes(h.item, codes) for h in hits]
    if not any(named):
        return list(hits)
    order = sorted(range(len(hits)), key=lambda i: -named[i])
    return [hits[i] for i in order]


def codes_ahead(hits: Sequence[ScoredHit], query: str) -> tuple[list[ScoredHit], str | None]:
    """The hits naming the query's model codes first, with a note when that moved any."""
    codes = query_codes(query)
    ordered = codes_first(hits, codes)
    if ordered == list(hits):
        return ordered, None
    return ordered, f"put first the hits that name {', '.join(c.text for c in codes)}"
