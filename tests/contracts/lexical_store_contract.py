"""The behaviour every `LexicalStore` backend must show, checked against a BM25 reference.

Backend test classes inherit `LexicalStoreContract` and provide a `make_store` fixture: a
function that indexes the given items in a fresh store. The reference scores the same tokens
(`lexical_tokens(bm25_text(item))`) with Lucene's BM25 in float64; filters are checked against
`SearchFilters.matches`, as for the vector stores. A backend whose engine scores BM25 its own
way (osmem-server, the in-memory OpenSearch stand-in, ignores k1/b and weighs term frequency
differently from Lucene) sets `exact_scores = False`: its hits must then be exactly the
matching set, with the best `k` drawn from it, but not in the reference's order.
"""

from __future__ import annotations

import functools
import math
import random
from collections import Counter
from collections.abc import Callable, Sequence

import pytest

from app.catalog.item import PLATFORMS, Item
from app.config.params.index import BM25_B, BM25_K1
from app.recall.bm25 import bm25_text, lexical_tokens, query_tokens
from app.recall.filters import SearchFilters
from app.recall.lexical_store import LexicalChange, LexicalHit, LexicalStore
from app.recall.vector_store import item_payload
from tests.contracts.vector_store_contract import FILTER_CASES, random_filters

StoreMaker = Callable[[Sequence[Item]], LexicalStore]

SIZE = 320
SCORE_TOLERANCE = 0.02
"""Relative: OpenSearch keeps document lengths lossily (one byte), bm25s exactly."""

_BRANDS = ("Sony", "SONY", "Logitech", "Apple", "Samsung", "Anker", "  Belkin ", "Bose", None)
_NOUNS = ("headphones", "keyboard", "charger", "speaker", "cable", "webcam", "mouse", "monitor")
_WORDS = (
    *("wireless", "bluetooth", "black", "white", "compact", "travel", "gaming", "office"),
    *("ergonomic", "noise", "cancelling", "fast", "charging", "braided", "premium"),
    *("portable", "studio", "mechanical", "silent", "backlit", "ultra", "slim"),
)
_PRICES = (0.0, 10.0, 25.0, 49.99, 100.0, 250.0)
_RATINGS = (1.0, 3.5, 4.0, 5.0)
QUERIES = (
    "wireless headphones",
    "usb-c charger fast charging",
    "black gaming mouse",
    "mechanical keyboard backlit",
    "portable speaker",
    "sony headphones noise cancelling",
    "braided cable",
    "studio monitor",
    "ergonomic office mouse silent",
    "webcam",
    "premium travel charger",
    "logitech keyboard",
)


@functools.cache
def catalog(n: int = SIZE, seed: int = 5) -> tuple[Item, ...]:
    """Synthetic items: titles of a brand, a noun and a few words, descriptions of varying
    length (so length normalisation matters), gaps in price, rating and brand."""
    rng = random.Random(seed)
    items = []
    for i in range(n):
        brand = rng.choice(_BRANDS)
        roll = rng.random()
        price = (
            None
            if roll < 0.15
            else rng.choice(_PRICES)
            if roll < 0.35
            else round(rng.uniform(1, 900), 2)
        )
        rating = (
            None if rng.random() < 0.5 else rng.choice((*_RATINGS, round(rng.uniform(0, 5), 2)))
        )
        words = rng.sample(_WORDS, rng.randint(1, 4))
        items.append(
            Item(
                item_id=f"{PLATFORMS[i % len(PLATFORMS)]}:{20_000 + i}",
                platform=PLATFORMS[i % len(PLATFORMS)],
                title=" ".join([brand or "Generic", *words, rng.choice(_NOUNS), f"m{i}x"]),
                brand=brand,
                description=" ".join(rng.choices(_WORDS, k=rng.randint(0, 12))),
                price_usd=price,
                rating=rating,
                source="synthetic",
            )
        )
    return tuple(items)


def reference(items: Sequence[Item], query: str, filters: SearchFilters) -> dict[str, float]:
    """Lucene BM25 (k1, b of the registry) of every item passing `filters` with a positive
    score; statistics over all `items`, as both backends keep them."""
    docs = {i.item_id: Counter(lexical_tokens(bm25_text(i))) for i in items}
    n = len(docs)
    avg = sum(sum(c.values()) for c in docs.values()) / n
    df = Counter(t for c in docs.values() for t in c)
    k1, b = BM25_K1.get(), BM25_B.get()
    found = {}
    for item in items:
        if not filters.matches(item_payload(item)):
            continue
        terms = docs[item.item_id]
        length = sum(terms.values())
        score = 0.0
        for token in query_tokens(query):
            tf = terms.get(token, 0)
            if tf:
                idf = math.log(1 + (n - df[token] + 0.5) / (df[token] + 0.5))
                score += idf * tf / (tf + k1 * (1 - b + b * length / avg))
        if score > 0:
            found[item.item_id] = score
    return found


def top(hits: Sequence[LexicalHit], k: int) -> list[LexicalHit]:
    return sorted(hits, key=lambda h: (-h.score, h.item_id))[:k]


def assert_top_like(hits: Sequence[LexicalHit], expected: dict[str, float], k: int) -> None:
    """The best `k` hits are the reference's best `k`, up to near ties at the cut."""
    best = top(hits, k)
    assert len(best) == min(k, len(expected))
    ranked = sorted(expected.values(), reverse=True)
    for rank, hit in enumerate(best):
        assert hit.item_id in expected, f"{hit.item_id} should not match"
        assert hit.score == pytest.approx(expected[hit.item_id], rel=SCORE_TOLERANCE)
        assert expected[hit.item_id] >= ranked[rank] * (1 - 2 * SCORE_TOLERANCE), f"rank {rank}"


class LexicalStoreContract:
    """Index, search with filters, update and delete: what every backend must do."""

    exact_scores = True
    """Whether the engine's BM25 is Lucene's with the registry's k1 and b (see the module)."""

    def assert_top(self, hits: Sequence[LexicalHit], expected: dict[str, float], k: int) -> None:
        if self.exact_scores:
            assert_top_like(hits, expected, k)
            return
        best = top(hits, k)
        assert len(best) == min(k, len(expected))
        assert {h.item_id for h in best} <= set(expected)

    @pytest.fixture
    def make_store(self) -> StoreMaker:
        raise NotImplementedError("backend test classes provide make_store")

    @pytest.fixture
    def store(self, make_store: StoreMaker) -> LexicalStore:
        return make_store(catalog())

    def test_is_a_lexical_store_holding_every_item(self, store: LexicalStore) -> None:
        assert isinstance(store, LexicalStore)
        assert store.name
        assert isinstance(store.remote, bool)
        assert store.count() == SIZE

    def test_unique_title_word_finds_its_item_first(self, store: LexicalStore) -> None:
        for item in catalog()[::40]:
            unique = item.title.split()[-1]
            hits = store.search(unique, SearchFilters(), top_k=3)
            assert top(hits, 1)[0].item_id == item.item_id

    @pytest.mark.parametrize("query", QUERIES[:6])
    def test_ranks_like_the_reference(self, store: LexicalStore, query: str) -> None:
        expected = reference(catalog(), query, SearchFilters())
        assert len(expected) > 10
        self.assert_top(store.search(query, SearchFilters(), top_k=10), expected, 10)

    @pytest.mark.parametrize("case", list(FILTER_CASES))
    def test_each_filter_keeps_exactly_the_matching_hits(
        self, store: LexicalStore, case: str
    ) -> None:
        filters = FILTER_CASES[case]
        for query in QUERIES[:4]:
            expected = reference(catalog(), query, filters)
            hits = store.search(query, filters, top_k=SIZE)
            assert {h.item_id for h in hits} == set(expected)
            self.assert_top(hits, expected, 5)

    def test_random_filter_mixes(self, store: LexicalStore) -> None:
        rng = random.Random(3)
        for _ in range(12):
            filters = random_filters(rng)
            query = rng.choice(QUERIES)
            expected = reference(catalog(), query, filters)
            hits = store.search(query, filters, top_k=8)
            self.assert_top(hits, expected, 8)

    def test_stop_words_only_find_nothing(self, store: LexicalStore) -> None:
        assert store.search("the and of", SearchFilters(), top_k=5) == []

    def test_a_deleted_item_is_never_found(self, store: LexicalStore) -> None:
        gone = catalog()[7]
        unique = gone.title.split()[-1]
        store.apply([LexicalChange.delete(gone.item_id)])
        assert store.search(unique, SearchFilters(), top_k=5) == []
        assert gone.item_id not in {
            h.item_id for h in store.search(gone.title, SearchFilters(), top_k=SIZE)
        }
        assert store.count() == SIZE - 1
        store.apply([LexicalChange.delete(gone.item_id)])  # again: nothing left to delete
        assert store.count() == SIZE - 1

    def test_a_reworded_item_is_found_by_its_new_words_only(self, store: LexicalStore) -> None:
        old = catalog()[11]
        new = old.model_copy(update={"title": "Zephyrine aurora lantern", "description": ""})
        store.apply([LexicalChange.put(new)])
        assert [
            h.item_id for h in top(store.search("zephyrine lantern", SearchFilters(), top_k=3), 3)
        ] == [old.item_id]
        assert store.search(old.title.split()[-1], SearchFilters(), top_k=3) == []
        assert store.count() == SIZE

    def test_a_new_price_moves_the_item_across_a_price_filter(self, store: LexicalStore) -> None:
        item = next(i for i in catalog() if i.price_usd is not None and i.price_usd < 500)
        unique = item.title.split()[-1]
        dear = SearchFilters.build(price_min=5_000)
        assert store.search(unique, dear, top_k=3) == []
        store.apply(
            [LexicalChange.put(item.model_copy(update={"price_usd": 6_000.0}), same_text=True)]
        )
        assert [h.item_id for h in store.search(unique, dear, top_k=3)] == [item.item_id]
        assert store.search(unique, SearchFilters.build(price_max=500), top_k=3) == []

    def test_a_new_item_is_found_and_counted(self, store: LexicalStore) -> None:
        added = Item(
            item_id="amazon:new-1",
            platform="amazon",
            title="Quillfeather calligraphy pen",
            price_usd=12.0,
            source="synthetic",
        )
        store.apply([LexicalChange.put(added)])
        hits = store.search("calligraphy pen", SearchFilters.build(platforms="amazon"), top_k=3)
        assert [h.item_id for h in top(hits, 1)] == ["amazon:new-1"]
        assert store.search("calligraphy", SearchFilters.build(platforms="walmart"), top_k=3) == []
        assert store.count() == SIZE + 1

    def test_changes_apply_in_order(self, store: LexicalStore) -> None:
        item = catalog()[3]
        renamed = item.model_copy(update={"title": "Obsidian gramophone"})
        store.apply(
            [
                LexicalChange.put(renamed),
                LexicalChange.delete(item.item_id),
                LexicalChange.put(renamed.model_copy(update={"title": "Obsidian harmonium"})),
            ]
        )
        assert store.search("gramophone", SearchFilters(), top_k=3) == []
        assert [h.item_id for h in store.search("harmonium", SearchFilters(), top_k=3)] == [
            item.item_id
        ]
