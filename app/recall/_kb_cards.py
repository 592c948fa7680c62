"""Builds category cards from catalog items: merges labels that differ only in case,
separators or plural (flattened list labels also in word order), summarises each
category, and drops categories with too few items."""

from __future__ import annotations

import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from app.catalog.ditto import has_list_label
from app.catalog.item import Item
from app.recall._kb_model import CardSummary, CategoryCard, PriceStats
from app.recall._kb_text import (
    Vocabulary,
    label_key,
    singular,
    slug,
    surface_forms,
    title_specs,
    title_terms,
    title_vocabulary,
    words,
)
from app.recall.filters import brand_key

TOP_BRANDS = 5
TOP_TERMS = 8
TOP_SPECS = 5
MIN_SHARE = 0.05


@dataclass
class _Group:
    """Labels being merged into one card, with their items."""

    labels: Counter[str] = field(default_factory=Counter)
    items: list[Item] = field(default_factory=list)

    def absorb(self, other: _Group) -> None:
        self.labels.update(other.labels)
        self.items.extend(other.items)

    @property
    def list_labels_only(self) -> bool:
        return all(has_list_label(i) for i in self.items)


def build_cards(items: Iterable[Item], *, min_items: int) -> list[CategoryCard]:
    """One card per merged category with at least `min_items` items, largest first."""
    catalog = list(items)
    vocabulary = title_vocabulary(i.title for i in catalog)
    groups = _merge_list_labels(_group_by_key(catalog, vocabulary))
    document_terms = Counter(t for i in catalog for t in title_terms(i.title))
    kept = [g for g in groups if len(g.items) >= min_items]
    cards = [_card(g, vocabulary, document_terms, len(catalog)) for g in kept]
    cards.sort(key=lambda c: (-c.summary.item_count, c.card_id))
    return _unique_ids(cards)


def _group_by_key(items: Sequence[Item], vocabulary: Vocabulary) -> list[_Group]:
    groups: dict[tuple[str, ...], _Group] = defaultdict(_Group)
    for item in items:
        if not item.category:
            continue
        key = label_key(item.category, vocabulary)
        if key:
            group = groups[key]
            group.labels[item.category] += 1
            group.items.append(item)
    return list(groups.values())


def _merge_list_labels(groups: list[_Group]) -> list[_Group]:
    """Merge groups of list labels only whose words are equal as sets: list labels are
    flattened ('cases bags' is 'Cases & Bags'), while other labels are noun phrases where
    order matters ('label printer' is not 'printer label')."""
    by_words: dict[frozenset[str], _Group] = {}
    out: list[_Group] = []
    for group in groups:
        if not group.list_labels_only:
            out.append(group)
            continue
        bag = frozenset(w for label in group.labels for w in words(label))
        twin = by_words.get(bag)
        if twin is None:
            by_words[bag] = group
            out.append(group)
        else:
            twin.absorb(group)
    return out


def _card(
    group: _Group, vocabulary: Vocabulary, document_terms: Counter[str], catalog_size: int
) -> CategoryCard:
    category = min(
        group.labels,
        key=lambda label: (
            not _singular_head(label, vocabulary),
            -group.labels[label],
            len(label),
            label,
        ),
    )
    labels = tuple(sorted(group.labels, key=lambda label: (-group.labels[label], label)))
    aliases = list(dict.fromkeys(f for label in labels for f in surface_forms(label, vocabulary)))
    own_words = {w for alias in aliases for w in words(alias)}
    brands = _top_brands(group.items)
    brand_words = {w for b in brands for w in words(b)}
    summary = CardSummary(
        item_count=len(group.items),
        platforms=dict(sorted(Counter(i.platform for i in group.items).items())),
        price=_price_stats(group.items),
        top_brands=tuple(brands[:TOP_BRANDS]),
        top_terms=_top_terms(
            group.items, document_terms, catalog_size, exclude=own_words | brand_words
        ),
        specs=_top_specs(group.items),
    )
    return CategoryCard(
        card_id=slug(category),
        category=category,
        labels=labels,
        aliases=tuple(aliases),
        summary=summary,
    )


def _singular_head(label: str, vocabulary: Vocabulary) -> bool:
    """True when the label's last word is singular ('mouse', not 'mice')."""
    tokens = words(label)
    return bool(tokens) and singular(tokens[-1], vocabulary) == tokens[-1]


def _price_stats(items: Sequence[Item]) -> PriceStats | None:
    prices = sorted(i.price_usd for i in items if i.price_usd is not None)
    if not prices:
        return None
    return PriceStats(
        priced=len(prices),
        min=prices[0],
        median=round(statistics.median(prices), 2),
        max=prices[-1],
    )


def _top_brands(items: Sequence[Item]) -> list[str]:
    """Brands by item count; each shown in its most frequent spelling."""
    counts: Counter[str] = Counter()
    spellings: dict[str, Counter[str]] = defaultdict(Counter)
    for item in items:
        key = brand_key(item.brand)
        if key and item.brand:
            counts[key] += 1
            spellings[key][item.brand.strip()] += 1
    ranked = sorted(counts, key=lambda k: (-counts[k], k))
    return [spellings[k].most_common(1)[0][0] for k in ranked]


def _floor(items: Sequence[Item]) -> int:
    """Fewest items a term or spec must appear in to count as typical of a category."""
    return max(2, math.ceil(MIN_SHARE * len(items)))


def _top_terms(
    items: Sequence[Item], document_terms: Counter[str], catalog_size: int, *, exclude: set[str]
) -> tuple[str, ...]:
    """Title terms frequent in the category and rare in the catalog (share × idf)."""
    local = Counter(t for i in items for t in title_terms(i.title))
    floor = _floor(items)
    scored = [
        (n / len(items) * math.log(catalog_size / document_terms[t]), t)
        for t, n in local.items()
        if n >= floor and t not in exclude
    ]
    scored.sort(key=lambda pair: (-pair[0], pair[1]))
    return tuple(t for _, t in scored[:TOP_TERMS])


def _top_specs(items: Sequence[Item]) -> tuple[str, ...]:
    """The numeric specs most often found in the category's titles."""
    counts = Counter(s for i in items for s in title_specs(i.title))
    floor = _floor(items)
    ranked = sorted((s for s, n in counts.items() if n >= floor), key=lambda s: (-counts[s], s))
    return tuple(ranked[:TOP_SPECS])


def _unique_ids(cards: list[CategoryCard]) -> list[CategoryCard]:
    """Suffix repeated card ids (two categories with the same slug) with -2, -3, …"""
    seen: Counter[str] = Counter()
    out = []
    for card in cards:
        seen[card.card_id] += 1
        n = seen[card.card_id]
        out.append(card if n == 1 else card.model_copy(update={"card_id": f"{card.card_id}-{n}"}))
    return out
