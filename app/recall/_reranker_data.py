"""Builds the reranker's (query, title, label) pairs from real data and splits them by group.

Sources: the catalog's category names against titles, with dense-mined hard negatives from
unrelated categories, "<term> <category>" queries, accessory titles against the product they
fit, and any labelled examples the catalog brings. The held-out slice is whole groups.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from app.catalog.item import Item, MatchLabel
from app.catalog.labels import EvaluationSet, LabelledExample
from app.catalog.product_nouns import (
    accessory_targets,
    category_key,
    head,
    is_broad,
    names_as_product,
    normalise_query,
    query_variants,
    tokens,
)
from app.language import lexicon
from app.recall._reranker_mining import VectorTable, heldout_groups, similar_text_groups
from app.recall._reranker_sources import CategoryOf, TypedItem, typed_items
from app.recall.reranker_config import RerankerTrainConfig

Embed = Callable[[Sequence[str]], np.ndarray]
_MINING_DEPTH = 64
_TERM_STOP = lexicon.word_set("reranker_term_stop")


@dataclass(frozen=True)
class Pair:
    """One training example: does `title` answer `query`? `group` decides the split."""

    query: str
    title: str
    label: float
    source: str
    group: str
    item_id: str


@dataclass(frozen=True)
class PairSet:
    """Training pairs and the held-out pairs of groups never seen in training."""

    train: tuple[Pair, ...]
    heldout: tuple[Pair, ...]

    def counts(self) -> dict[str, dict[str, int]]:
        """Pairs per source: positives and negatives in train and held-out."""
        out: dict[str, Counter[str]] = defaultdict(Counter)
        for part, pairs in (("train", self.train), ("heldout", self.heldout)):
            for pair in pairs:
                out[pair.source][f"{part}_{'pos' if pair.label >= 0.5 else 'neg'}"] += 1
        keys = ("train_pos", "train_neg", "heldout_pos", "heldout_neg")
        return {source: {k: out[source][k] for k in keys} for source in sorted(out)}


@dataclass(frozen=True)
class DataInputs:
    """Everything pair building reads: catalog items and how to read their category,
    same-product labels, index vectors, the embedder for category names and queries, the
    evaluation set to keep out and the labelled examples the catalog brings."""

    items: Mapping[str, Item]
    category_of: CategoryOf
    matches: Sequence[MatchLabel]
    vectors: VectorTable
    embed: Embed
    evaluation: EvaluationSet
    examples: Sequence[LabelledExample]


class _Builder:
    """Shared state of one build: the seeded RNG, groups, and what must never pair up."""

    def __init__(self, inputs: DataInputs, config: RerankerTrainConfig) -> None:
        self.inputs = inputs
        self.config = config
        self.rng = random.Random(config.seed)
        self.pairs: list[Pair] = []
        typed = typed_items(
            inputs.items.values(),
            inputs.evaluation,
            min_items=config.min_category_items,
            category_of=inputs.category_of,
        )
        self.typed = sorted(
            (t for t in typed if t.item_id in inputs.vectors), key=lambda t: t.item_id
        )
        self.by_category: dict[str, list[TypedItem]] = defaultdict(list)
        for item in self.typed:
            self.by_category[item.category].append(item)
        self.categories = sorted(self.by_category)
        names = sorted(
            set(self.categories) | _listed_categories(inputs.items.values(), inputs.category_of)
        )
        groups = similar_text_groups(
            names,
            inputs.embed(names),
            config.synonym_threshold,
            by_words=True,
            same_head_threshold=config.same_head_threshold,
        )
        self.group = {c: f"cat:{groups[c]}" for c in names}
        self.typed_group = np.array([self.group[t.category] for t in self.typed])
        self.same_product = {
            frozenset((m.left_id, m.right_id)) for m in inputs.matches if m.same_product
        }

    def allowed_query(self, query: str) -> str | None:
        """The query, or a variant of it, that is not an evaluation query; None if none is."""
        for variant in (query, *query_variants(query)):
            if self.inputs.evaluation.allows_query(variant):
                return variant
        return None

    def may_pair(self, anchor: TypedItem, other: TypedItem) -> bool:
        """A negative must be another product, not the anchor relisted under another name,
        and must not name the anchor's product type as what it is."""
        if normalise_query(anchor.title) == normalise_query(other.title):
            return False
        if frozenset((anchor.item_id, other.item_id)) in self.same_product:
            return False
        word = head(anchor.category)
        return word is None or not names_as_product(other.title, word)

    def outside(self, group: str) -> list[TypedItem]:
        """Typed items of every other group: the pool negatives are drawn from."""
        return [self.typed[i] for i in np.flatnonzero(self.typed_group != group)]

    def add(
        self, query: str, item_id: str, title: str, label: float, source: str, group: str
    ) -> None:
        self.pairs.append(Pair(query, title, label, source, group, item_id))

    def hard_negatives(
        self, anchors: Sequence[TypedItem], pool: Sequence[TypedItem], per_anchor: int
    ) -> list[list[TypedItem]]:
        """For each anchor, its nearest pool items by index vector, none used twice."""
        ranked = self.inputs.vectors.ranked(
            [a.item_id for a in anchors], [p.item_id for p in pool], limit=_MINING_DEPTH
        )
        used: set[str] = set()
        out: list[list[TypedItem]] = []
        for anchor, row in zip(anchors, ranked, strict=True):
            picked: list[TypedItem] = []
            for index in row:
                if len(picked) == per_anchor:
                    break
                other = pool[int(index)]
                if other.item_id not in used and self.may_pair(anchor, other):
                    picked.append(other)
                    used.add(other.item_id)
            out.append(picked)
        return out


def _listed_categories(items: Iterable[Item], category_of: CategoryOf) -> set[str]:
    """Every narrow category name in the catalog, typed or not: they all inform the groups."""
    return {
        name
        for item in items
        if (name := (category_of(item) or "").strip().lower()) and not is_broad(name)
    }


def _category_pairs(b: _Builder) -> None:
    config = b.config
    for category in b.categories:
        members = b.by_category[category]
        positives = b.rng.sample(members, min(config.max_positives_per_category, len(members)))
        group = b.group[category]
        pool = b.outside(group)
        hard = b.hard_negatives(positives, pool, config.hard_negatives)
        for anchor, negatives in zip(positives, hard, strict=True):
            wanted = category
            if b.rng.random() < config.query_variant_rate and query_variants(category):
                wanted = b.rng.choice(query_variants(category))
            query = b.allowed_query(wanted)
            if query is None:
                continue
            source = f"{anchor.source}-category"
            b.add(query, anchor.item_id, anchor.title, 1.0, source, group)
            easy = [b.rng.choice(pool) for _ in range(config.easy_negatives)]
            for other in [*negatives, *easy]:
                if b.may_pair(anchor, other):
                    b.add(query, other.item_id, other.title, 0.0, source, group)


def _modifier_terms(members: Sequence[TypedItem], category: str) -> list[tuple[str, int]]:
    """Words common in a category's titles that are not the category's own words."""
    own = set(tokens(category)) | set(category_key(category))
    df: Counter[str] = Counter()
    for member in members:
        df.update(
            {t for t in tokens(member.title) if t.isalpha() and len(t) >= 3} - own - _TERM_STOP
        )
    return sorted(((t, n) for t, n in df.items() if n >= 3), key=lambda tn: (-tn[1], tn[0]))


def _modifier_pairs(b: _Builder) -> None:
    """ "gaming keyboard" against gaming keyboards (yes), gaming mice (no) and, for a brand
    term, keyboards of another brand (no)."""
    config = b.config
    with_term: dict[str, list[TypedItem]] = defaultdict(list)
    for item in b.typed:
        for term in set(tokens(item.title)):
            with_term[term].append(item)
    for category in b.categories:
        members, group = b.by_category[category], b.group[category]
        found = 0
        for term, _ in _modifier_terms(members, category):
            if found == config.modifier_terms_per_category:
                break
            outside = [t for t in with_term[term] if b.group[t.category] != group]
            query = b.allowed_query(f"{term} {category}")
            if not outside or query is None:
                continue
            found += 1
            inside = [m for m in members if term in tokens(m.title)]
            positives = b.rng.sample(inside, min(config.modifier_pairs, len(inside)))
            order = b.inputs.vectors.centroid_ranked(
                [p.item_id for p in positives], [o.item_id for o in outside]
            )
            ranked = (outside[int(i)] for i in order)
            fitting = (o for o in ranked if b.may_pair(positives[0], o))
            negatives = [o for _, o in zip(range(config.modifier_pairs), fitting, strict=False)]
            other_brand = [
                m
                for m in members
                if m.brand
                and term not in tokens(m.brand)
                and any(term in tokens(p.brand or "") for p in positives)
            ]
            negatives += b.rng.sample(
                other_brand, min(max(1, config.modifier_pairs // 2), len(other_brand))
            )
            for item in positives:
                b.add(
                    query,
                    item.item_id,
                    item.title,
                    1.0,
                    f"{item.source}-modifier",
                    group,
                )
            for item in negatives:
                b.add(
                    query,
                    item.item_id,
                    item.title,
                    0.0,
                    f"{positives[0].source}-modifier",
                    group,
                )


def _accessory_pairs(b: _Builder) -> None:
    """Accessory titles against the product they fit ("laptops" vs "sleeve for 15in laptops":
    no), each balanced by a real product of that type (yes)."""
    by_head: dict[str, list[TypedItem]] = defaultdict(list)
    for item in b.typed:
        word = head(item.category)
        if word is not None:
            by_head[word].append(item)
    group_of_head: dict[str, str] = {}
    for category in b.categories:
        word = head(category)
        if word is not None and (word not in group_of_head or category_key(category) == {word}):
            group_of_head[word] = b.group[category]
    typed_head = {t.item_id: head(t.category) for t in b.typed}
    single = {next(iter(category_key(c))) for c in b.group if len(category_key(c)) == 1}
    known = frozenset(word for word in by_head if word in single)
    found: list[tuple[str, str, Item]] = []
    for listed in sorted(b.inputs.items.values(), key=lambda i: i.item_id):
        if listed.item_id in b.inputs.evaluation.item_ids:
            continue
        for surface, word in accessory_targets(listed.title, known):
            if typed_head.get(listed.item_id) != word:
                found.append((surface, word, listed))
    b.rng.shuffle(found)
    for surface, word, accessory in found[: b.config.accessory_pairs]:
        query = b.allowed_query(surface)
        if query is None:
            continue
        group = group_of_head[word]
        b.add(query, accessory.item_id, accessory.title, 0.0, "accessory", group)
        product = b.rng.choice(by_head[word])
        b.add(query, product.item_id, product.title, 1.0, "accessory", group)


def _labelled_pairs(b: _Builder) -> None:
    """Labelled examples (ESCI's scheme): E is yes; C and I are no; S (a substitute, not the
    thing asked for) is left out. Each exact product also gets hard negatives: labelled
    products of unrelated queries."""
    examples = b.inputs.examples
    queries = sorted({e.query for e in examples})
    if not queries:
        return
    groups = similar_text_groups(  # near-duplicate queries share a group
        queries, b.inputs.embed(queries), b.config.same_head_threshold, by_words=False
    )
    by_name = {normalise_query(c): b.group[c] for c in b.categories}
    group = {q: by_name.get(q, f"esci:{groups[q]}") for q in queries}
    labelled = defaultdict(set)
    for e in examples:
        labelled[e.query].add(e.item_id)
    exact = [e for e in examples if e.label == "E" and e.item_id in b.inputs.vectors]
    for e in examples:
        if e.label in ("E", "C", "I"):
            b.add(
                e.query,
                e.item_id,
                e.title,
                1.0 if e.label == "E" else 0.0,
                e.source,
                group[e.query],
            )
    for query in queries:
        anchors = [e for e in exact if e.query == query]
        pool = [
            e for e in exact if group[e.query] != group[query] and e.item_id not in labelled[query]
        ]
        pool = list({e.item_id: e for e in pool}.values())
        if not anchors or not pool:
            continue
        ranked = b.inputs.vectors.ranked(
            [a.item_id for a in anchors], [p.item_id for p in pool], limit=_MINING_DEPTH
        )
        used: set[str] = set()
        for anchor, row in zip(anchors, ranked, strict=True):
            picked = [pool[int(i)] for i in row if pool[int(i)].item_id not in used]
            for other in picked[: b.config.esci_negatives]:
                used.add(other.item_id)
                b.add(query, other.item_id, other.title, 0.0, anchor.source, group[query])


def _deduplicated(pairs: Iterable[Pair]) -> list[Pair]:
    """One pair per (query, title); a pair labelled both ways is dropped as contradictory."""
    labels: dict[tuple[str, str], set[float]] = defaultdict(set)
    first: dict[tuple[str, str], Pair] = {}
    for pair in pairs:
        key = (normalise_query(pair.query), normalise_query(pair.title))
        labels[key].add(pair.label)
        first.setdefault(key, pair)
    return [pair for key, pair in first.items() if len(labels[key]) == 1]


def build_pairs(inputs: DataInputs, config: RerankerTrainConfig) -> PairSet:
    """All pairs of the recipe, deterministic for a seed, split into train and held-out."""
    builder = _Builder(inputs, config)
    _category_pairs(builder)
    _modifier_pairs(builder)
    _accessory_pairs(builder)
    _labelled_pairs(builder)
    pairs = _deduplicated(builder.pairs)
    held = heldout_groups((p.group for p in pairs), config.heldout_fraction, config.seed)
    train = [p for p in pairs if p.group not in held]
    heldout = [p for p in pairs if p.group in held]
    rng = random.Random(config.seed + 1)
    rng.shuffle(train)
    if config.max_train_pairs is not None:
        train = train[: config.max_train_pairs]
    if config.max_heldout_pairs is not None and len(heldout) > config.max_heldout_pairs:
        heldout = rng.sample(heldout, config.max_heldout_pairs)
    return PairSet(tuple(train), tuple(heldout))
