"""The deterministic post-filters of item_search, applied in a fixed order (relevance floor,
lowered once a hit of the recall reaches it, brand exclude, session hard excludes, target
model number) and then dedup; each stage counts the hits it removed, so a hit two stages
would remove is counted by the first."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields

from app.catalog.item import Item
from app.catalog.model_codes import written_codes
from app.recall.filters import brand_key
from app.tools.search._args import SearchScope
from app.tools.search._relevance import RelevanceFloor, ScoredHit

_NOT_ALNUM = re.compile(r"[^a-z0-9]+")


@dataclass
class Removed:
    """How many hits each post-filter stage removed, and how many duplicates were dropped."""

    relevance_floor: int = 0
    brand_exclude: int = 0
    session_exclude: int = 0
    model_number: int = 0
    duplicates: int = 0

    def as_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def word_pattern(term: str) -> re.Pattern[str]:
    """`term` as a case-insensitive whole word or phrase (no letter or digit on either side)."""
    words = r"\s+".join(re.escape(w) for w in term.split())
    return re.compile(rf"(?<![0-9a-z]){words}(?![0-9a-z])", re.IGNORECASE)


def squash(text: str) -> str:
    """Lower-case letters and digits only: how model numbers are compared."""
    return _NOT_ALNUM.sub("", text.lower())


class ItemMatchers:
    """The item tests of one scope: requested brand, excluded brands, excluded terms, model."""

    def __init__(self, scope: SearchScope) -> None:
        self.brand = brand_key(scope.brand)
        self.brand_label = scope.brand
        self.excluded_brands = {k: b for b in scope.brand_exclude if (k := brand_key(b))}
        self._brand_starts = [(b, _title_start(b)) for b in scope.brand_exclude]
        self._terms = [(t, word_pattern(t)) for t in scope.exclude_terms if t.strip()]
        self.model = squash(scope.model_number) if scope.model_number else None

    def excluded_brand(self, item: Item) -> str | None:
        """The excluded brand this item is of: its brand field, or, when it has none, the
        brand its title starts with (brand-less listings lead with the maker)."""
        key = brand_key(item.brand)
        if key is not None:
            return self.excluded_brands.get(key)
        for label, starts in self._brand_starts:
            if starts.match(item.title):
                return label
        return None

    def wrong_brand(self, item: Item) -> bool:
        """True when a brand was requested and this item's brand field is not it."""
        return self.brand is not None and brand_key(item.brand) != self.brand

    def exclude_term(self, item: Item) -> str | None:
        """The first session exclude term found in the title, brand or category."""
        for term, pattern in self._terms:
            for text in (item.title, item.brand, item.category):
                if text and pattern.search(text):
                    return term
        return None

    def model_matches(self, item: Item) -> bool:
        """True without a target model, else when the item's model number or a title token
        (or two adjacent ones) equals it, ignoring case and separators."""
        if not self.model:
            return True
        if item.model_number and squash(item.model_number) == self.model:
            return True
        return self.model in written_codes(item.title)


def apply_postfilters(
    hits: Iterable[ScoredHit], matchers: ItemMatchers
) -> tuple[list[ScoredHit], Removed]:
    """Hits that pass every stage in order, and what each stage removed."""
    removed = Removed()
    kept = []
    hits = list(hits)
    floor = RelevanceFloor.current().for_hits([(h.relevance, h.lexical) for h in hits])
    for hit in hits:
        if not floor.passes(hit.relevance, hit.lexical):
            removed.relevance_floor += 1
        elif matchers.excluded_brand(hit.item) is not None:
            removed.brand_exclude += 1
        elif matchers.exclude_term(hit.item) is not None:
            removed.session_exclude += 1
        elif not matchers.model_matches(hit.item):
            removed.model_number += 1
        else:
            kept.append(hit)
    return kept, removed


def signature(item: Item) -> str:
    """The content signature of a listing: normalised title and brand."""
    return _signature(item.title, item.brand)


@functools.lru_cache(maxsize=65_536)
def _signature(title: str, brand: str | None) -> str:
    words = " ".join(_NOT_ALNUM.sub(" ", title.lower()).split())
    return f"{words}|{brand_key(brand) or ''}"


def dedupe(hits: Sequence[ScoredHit]) -> tuple[list[ScoredHit], int]:
    """The first hit of every item id and of every content signature, and how many went."""
    seen_ids: set[str] = set()
    seen_signatures: set[str] = set()
    kept = []
    for hit in hits:
        sig = signature(hit.item)
        if hit.item_id in seen_ids or sig in seen_signatures:
            continue
        seen_ids.add(hit.item_id)
        seen_signatures.add(sig)
        kept.append(hit)
    return kept, len(hits) - len(kept)


def _title_start(brand: str) -> re.Pattern[str]:
    words = r"\s+".join(re.escape(w) for w in brand.split())
    return re.compile(rf"\s*{words}(?![0-9a-z])", re.IGNORECASE)
