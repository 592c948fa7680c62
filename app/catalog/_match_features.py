"""The pair features of the product matcher: codes, title similarity, quantities, brand, price.

Each item is read once into a `Profile`; `pair_features` compares two profiles into a short
named vector that the logistic model in `_match_model` weighs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from app.catalog._match_stats import MatchStats
from app.catalog._match_text import (
    bare_numbers,
    colours,
    editions,
    lower_text,
    model_field_codes,
    quantities,
    squash,
    title_codes,
    words,
)
from app.catalog.item import Item

FEATURES: tuple[str, ...] = (
    "model_exact",
    "model_conflict",
    "code_exact",
    "code_extends",
    "code_inside",
    "code_conflict",
    "trigram_jaccard",
    "idf_containment",
    "quantity_conflict",
    "number_conflict",
    "brand_same",
    "brand_conflict",
    "colour_conflict",
    "edition_one_sided",
    "price_log_ratio",
)
# 1024 MB is sold as 1 GB; 12.1 MP as 12 MP.
_TOLERANCE = {"bytes": 0.025, "megapixel": 0.05}
_MAX_PRICE_LOG_RATIO = 3.0


@dataclass(frozen=True)
class Profile:
    """What the matcher compares of one item, computed once."""

    item_id: str
    codes: frozenset[str]
    joined_codes: frozenset[str]
    model_key: str
    idfs: dict[str, float]
    trigrams: frozenset[str]
    quantities: dict[str, set[float]]
    numbers: frozenset[str]
    colours: frozenset[str]
    editions: tuple[frozenset[str], ...]
    brand: str | None
    squashed_title: str
    price: float | None

    @property
    def brand_head(self) -> str:
        """The brand's first word ("encore" of "Encore Software"), or ""."""
        return self.brand.split()[0] if self.brand else ""


def specific_codes(
    item: Item, stats: MatchStats, max_code_df: int
) -> tuple[frozenset[str], frozenset[str]]:
    """The item's codes rare enough in the catalog to name a product (model-number field,
    title codes, EANs), and its title codes joined with a split-off tail."""
    codes, joined = title_codes(lower_text(item.title))
    codes |= model_field_codes(item.model_number) | set(item.ean)
    return (
        frozenset(c for c in codes if stats.code_count(c) <= max_code_df),
        frozenset(c for c in joined if stats.code_count(c) <= max_code_df),
    )


def profile(item: Item, stats: MatchStats, max_code_df: int) -> Profile:
    """Read one item: its specific codes, title word IDFs, quantities, numbers, brand…"""
    text = lower_text(item.title)
    tokens = words(text)
    codes, joined = specific_codes(item, stats, max_code_df)
    idfs = {t: stats.idf(t) for t in set(tokens)}
    squashed = squash(text)
    return Profile(
        item_id=item.item_id,
        codes=codes,
        joined_codes=joined,
        model_key=model_key(item, stats, max_code_df),
        idfs=idfs,
        trigrams=frozenset(squashed[i : i + 3] for i in range(max(len(squashed) - 2, 0))),
        quantities=quantities(text),
        numbers=frozenset(bare_numbers(text)),
        colours=frozenset(colours(tokens)),
        editions=editions(tokens),
        brand=_brand(item, stats, text),
        squashed_title=squashed,
        price=item.price_usd,
    )


def model_key(item: Item, stats: MatchStats, max_code_df: int) -> str:
    """The squashed model-number field when it has a digit and names few items, else ""."""
    key = squash(item.model_number or "")
    if len(key) < 3 or not any(ch.isdigit() for ch in key):
        return ""
    return key if stats.model_count(key) <= max_code_df else ""


def _brand(item: Item, stats: MatchStats, text: str) -> str | None:
    """The brand as lower-case words: the brand field, else a known brand opening the title."""
    if item.brand and squash(item.brand):
        return " ".join(words(lower_text(item.brand)))
    head = text.split()
    for size in (3, 2, 1):
        if squash(" ".join(head[:size])) in stats.brands:
            return " ".join(words(" ".join(head[:size])))
    return None


def pair_features(a: Profile, b: Profile) -> np.ndarray:
    """The `FEATURES` vector of one pair of profiles (symmetric in a and b)."""
    return np.array(
        [
            *_code_features(a, b),
            *_text_features(a, b),
            *_spec_features(a, b),
            *_brand_relation(a, b),
            bool(a.colours and b.colours and not a.colours & b.colours),
            _edition_one_sided(a, b),
            _price_log_ratio(a.price, b.price),
        ],
        dtype=np.float64,
    )


def _code_features(a: Profile, b: Profile) -> tuple[bool, bool, bool, bool, bool, bool]:
    """Model fields equal, or different with neither named by the other side ("dt101g2/16gb"
    vs "dt101g2/32gb"); a code shared; one code extending or containing another; and codes
    on both sides that nothing on the other side explains."""
    model_exact = bool(a.model_key) and a.model_key == b.model_key
    model_conflict = (
        bool(a.model_key and b.model_key)
        and not model_exact
        and a.model_key not in b.codes | b.joined_codes
        and b.model_key not in a.codes | a.joined_codes
    )
    exact = bool(a.codes & (b.codes | b.joined_codes) or b.codes & a.joined_codes)
    extends = inside = False
    if not exact:
        for x in a.codes:
            for y in b.codes:
                short, long = (x, y) if len(x) <= len(y) else (y, x)
                if len(short) >= 4 and short in long:
                    extends = extends or long.startswith(short)
                    inside = inside or not long.startswith(short)
    a_loose = _unrelated(a.codes, b.codes | b.joined_codes)
    b_loose = _unrelated(b.codes, a.codes | a.joined_codes)
    return model_exact, model_conflict, exact, extends, inside, bool(a_loose and b_loose)


def _unrelated(codes: frozenset[str], others: frozenset[str]) -> list[str]:
    """Codes with no equal, containing or contained code among `others`."""
    return [c for c in codes if not any(_related(c, o) for o in others)]


def _related(x: str, y: str) -> bool:
    if x == y:
        return True
    short, long = (x, y) if len(x) <= len(y) else (y, x)
    return len(short) >= 4 and short in long


def _text_features(a: Profile, b: Profile) -> tuple[float, float]:
    """Trigram Jaccard of the squashed titles, and how much of the shorter title (by IDF mass
    of its words) the other one contains: a short title inside a long one still scores 1."""
    union = len(a.trigrams | b.trigrams)
    trigram = len(a.trigrams & b.trigrams) / union if union else 0.0
    shared = a.idfs.keys() & b.idfs.keys()
    smaller = min(math.fsum(a.idfs.values()), math.fsum(b.idfs.values()))
    return trigram, math.fsum(a.idfs[w] for w in shared) / smaller if smaller else 0.0


def _spec_features(a: Profile, b: Profile) -> tuple[bool, bool]:
    """A quantity stated differently on both sides ("16gb" vs "32gb"); no number in common."""
    conflict = False
    for family in a.quantities.keys() & b.quantities.keys():
        tolerance = _TOLERANCE.get(family, 0.01)
        left, right = a.quantities[family], b.quantities[family]
        if not any(abs(x - y) <= tolerance * max(x, y) for x in left for y in right):
            conflict = True
    return conflict, bool(a.numbers and b.numbers and not a.numbers & b.numbers)


def _edition_one_sided(a: Profile, b: Profile) -> bool:
    """An upgrade or academic edition on one side only."""
    return any(bool(x) != bool(y) for x, y in zip(a.editions, b.editions, strict=True))


def _brand_relation(a: Profile, b: Profile) -> tuple[bool, bool]:
    """(same brand, different brands); brands match on their first word or in the title."""
    if a.brand and b.brand:
        same = (
            a.brand_head == b.brand_head
            or squash(a.brand) in b.squashed_title
            or squash(b.brand) in a.squashed_title
        )
        return same, not same
    known = a if a.brand else b if b.brand else None
    if known is None:
        return False, False
    other = b if known is a else a
    return squash(known.brand or "") in other.squashed_title, False


def _price_log_ratio(left: float | None, right: float | None) -> float:
    if not left or not right:
        return 0.0
    return min(abs(math.log(left) - math.log(right)), _MAX_PRICE_LOG_RATIO)
