"""The behaviour every `VectorStore` backend must show, checked against a numpy reference.

Backend test classes inherit `VectorStoreContract` and provide an async `store` fixture that
yields an empty store. Filters are checked against `SearchFilters.matches`, the reference.
"""

from __future__ import annotations

import asyncio
import functools
import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pytest

from app.catalog.item import PLATFORMS, Item
from app.config.registry import REGISTRY
from app.errors import ConfigError, IndexMissing, NotFound
from app.recall.filters import SearchFilters
from app.recall.vector_store import VectorHit, VectorPoint, VectorStore, item_payload

COLLECTION = "catalog"
DIM = 24
POINTS = 320
TIE = 1e-5

_BRANDS = ("Sony", "SONY", "Logitech", "Apple", "Samsung", "Anker", "  Belkin ", "Bose", None, None)
_NOUNS = ("headphones", "keyboard", "charger", "speaker", "usb-c cable", "webcam")
_ROUND_PRICES = (0.0, 10.0, 25.0, 49.99, 100.0, 250.0)
_ROUND_RATINGS = (1.0, 3.5, 4.0, 5.0)


@functools.cache
def catalog(n: int = POINTS, dim: int = DIM, seed: int = 11) -> tuple[VectorPoint, ...]:
    """Synthetic catalog points: seeded vectors, payloads from real `Item`s with gaps
    (no price, no rating, no brand) and prices/ratings sitting on filter boundaries."""
    rng = random.Random(seed)
    vectors = np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)
    points = []
    for i in range(n):
        platform = PLATFORMS[i % len(PLATFORMS)]
        brand = rng.choice(_BRANDS)
        roll = rng.random()
        if roll < 0.15:
            price = None
        elif roll < 0.35:
            price = rng.choice(_ROUND_PRICES)
        else:
            price = round(rng.uniform(1, 900), 2)
        rating = None if rng.random() < 0.55 else rng.choice((*_ROUND_RATINGS, rng.uniform(0, 5)))
        item = Item(
            item_id=f"{platform}:{10_000 + i}",
            platform=platform,
            title=f"{brand or 'Generic'} {rng.choice(_NOUNS)} model {i}",
            brand=brand,
            category=rng.choice(("audio", "computing", "accessories")),
            price_usd=price,
            rating=None if rating is None else round(rating, 2),
            source="synthetic",
        )
        points.append(VectorPoint(item.item_id, vectors[i].tolist(), item_payload(item)))
    return tuple(points)


def random_filters(rng: random.Random) -> SearchFilters:
    """A random mix of platform, price, rating and brand constraints (often several)."""
    args: dict[str, Any] = {}
    if rng.random() < 0.5:
        args["platforms"] = rng.sample(PLATFORMS, rng.randint(1, 3))
    for name, values, top in (("price", _ROUND_PRICES, 900.0), ("rating", _ROUND_RATINGS, 5.0)):
        if rng.random() < 0.45:
            lo = rng.choice((None, *values, rng.uniform(0, top)))
            hi = rng.choice((None, *values, rng.uniform(0, top)))
            if lo is not None and hi is not None and lo > hi:
                lo, hi = hi, lo
            args[f"{name}_min"], args[f"{name}_max"] = lo, hi
    brands = [b for b in _BRANDS if b] + ["Acme"]
    if rng.random() < 0.3:
        args["brands_in"] = rng.sample(brands, rng.randint(1, 3))
    if rng.random() < 0.3:
        args["brands_out"] = rng.sample(brands, rng.randint(1, 3))
    return SearchFilters.build(**args)


def reference_ranking(
    points: Sequence[VectorPoint],
    query: Sequence[float],
    filters: SearchFilters,
    *,
    exclude: str | None = None,
) -> list[tuple[str, float]]:
    """Every point passing `filters`, by cosine similarity to `query` (float64), best first."""
    kept = [p for p in points if filters.matches(p.payload) and p.item_id != exclude]
    if not kept:
        return []
    matrix = np.array([p.vector for p in kept], dtype=np.float64)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    q = np.asarray(query, dtype=np.float64)
    scores = matrix @ (q / np.linalg.norm(q))
    order = np.argsort(-scores, kind="stable")
    return [(kept[i].item_id, float(scores[i])) for i in order]


def assert_ranked_like(hits: Sequence[VectorHit], reference: Sequence[tuple[str, float]]) -> None:
    """`hits` are the top of `reference`: rank r holds an item whose reference score is that of
    rank r (so only exact ties may swap), with a matching score and no duplicates."""
    assert len(hits) <= len(reference)
    scores = dict(reference)
    assert len({h.item_id for h in hits}) == len(hits)
    for rank, hit in enumerate(hits):
        want = reference[rank][1]
        assert hit.item_id in scores, f"rank {rank}: {hit.item_id} should have been filtered out"
        assert abs(scores[hit.item_id] - want) <= TIE, f"rank {rank}: {hit.item_id} out of order"
        assert hit.score == pytest.approx(want, abs=1e-4)


def assert_same_ranking(left: Sequence[VectorHit], right: Sequence[VectorHit]) -> None:
    """Two stores' answers agree: same ids in the same order, except exact score ties."""
    assert len(left) == len(right)
    for rank, (a, b) in enumerate(zip(left, right, strict=True)):
        assert a.score == pytest.approx(b.score, abs=TIE), f"rank {rank}: {a} vs {b}"
        assert a.item_id == b.item_id or abs(a.score - b.score) <= TIE, f"rank {rank}"


FILTER_CASES: Mapping[str, SearchFilters] = {
    "none": SearchFilters(),
    "one platform": SearchFilters.build(platforms="amazon"),
    "many platforms": SearchFilters.build(platforms=["walmart", "buy", "icecat"]),
    "price range": SearchFilters.build(price_min=25.0, price_max=250.0),
    "price min only": SearchFilters.build(price_min=0.0),
    "price max only": SearchFilters.build(price_max=49.99),
    "rating range": SearchFilters.build(rating_min=3.5, rating_max=5.0),
    "brand in": SearchFilters.build(brands_in=["  SONY ", "belkin"]),
    "brand not in": SearchFilters.build(brands_out=["Sony", "Logitech"]),
    "combined": SearchFilters.build(
        platforms=["amazon", "walmart", "google"],
        price_max=500.0,
        rating_min=1.0,
        brands_out=["apple"],
    ),
    "in and out": SearchFilters.build(brands_in=["sony", "bose", "anker"], brands_out=["bose"]),
    "nothing passes": SearchFilters.build(platforms="abt", brands_in=["Acme"]),
}


class VectorStoreContract:
    """Inherit and provide an async `store` fixture yielding an empty `VectorStore`."""

    @pytest.fixture
    async def filled(self, store: VectorStore) -> VectorStore:
        await store.ensure_collection(COLLECTION, DIM)
        await store.upsert(COLLECTION, catalog())
        return store

    @pytest.fixture
    def queries(self) -> list[list[float]]:
        rng = np.random.default_rng(5)
        return rng.standard_normal((12, DIM)).tolist()

    async def test_store_satisfies_the_protocol(self, store: VectorStore) -> None:
        assert isinstance(store, VectorStore)
        assert isinstance(store.name, str)
        assert isinstance(store.remote, bool)

    async def test_ensure_collection_is_idempotent(self, store: VectorStore) -> None:
        assert not await store.collection_exists(COLLECTION)
        await store.ensure_collection(COLLECTION, DIM)
        assert await store.collection_exists(COLLECTION)
        assert await store.count(COLLECTION) == 0
        await store.upsert(COLLECTION, catalog()[:10])
        await store.ensure_collection(COLLECTION, DIM)
        assert await store.count(COLLECTION) == 10

    async def test_ensure_collection_refuses_another_dimension(self, filled: VectorStore) -> None:
        with pytest.raises(ConfigError, match=str(DIM + 1)):
            await filled.ensure_collection(COLLECTION, DIM + 1)
        assert await filled.count(COLLECTION) == POINTS

    async def test_a_missing_collection_is_index_missing(self, store: VectorStore) -> None:
        with pytest.raises(IndexMissing):
            await store.search("absent", [0.1] * DIM, SearchFilters(), limit=3)
        with pytest.raises(IndexMissing):
            await store.count("absent")
        with pytest.raises(IndexMissing):
            await store.retrieve("absent", [catalog()[0].item_id])
        with pytest.raises(IndexMissing):
            await store.similar("absent", catalog()[0].item_id, SearchFilters(), limit=3)
        with pytest.raises(IndexMissing):
            await store.upsert("absent", catalog()[:2])
        assert not await store.collection_exists("absent")

    async def test_upsert_then_count(self, filled: VectorStore) -> None:
        assert await filled.count(COLLECTION) == POINTS
        assert await filled.count(COLLECTION, SearchFilters()) == POINTS

    async def test_upsert_splits_into_batches(self, store: VectorStore) -> None:
        await store.ensure_collection(COLLECTION, DIM)
        with REGISTRY.overridden(INDEX_UPSERT_BATCH=16):
            await store.upsert(COLLECTION, catalog()[:50])
        assert await store.count(COLLECTION) == 50
        await store.upsert(COLLECTION, [])
        assert await store.count(COLLECTION) == 50

    async def test_delete_removes_points_and_ignores_absent_ids(self, filled: VectorStore) -> None:
        gone = [catalog()[3].item_id, catalog()[7].item_id]
        await filled.delete(COLLECTION, [*gone, "no-such-item"])
        assert await filled.count(COLLECTION) == POINTS - 2
        assert await filled.retrieve(COLLECTION, gone) == []
        hits = await filled.search(
            COLLECTION, list(catalog()[3].vector), SearchFilters(), limit=20, exact=True
        )
        assert not {h.item_id for h in hits} & set(gone)
        await filled.delete(COLLECTION, [])
        assert await filled.count(COLLECTION) == POINTS - 2

    async def test_retrieve_keeps_the_order_asked_and_skips_unknown_ids(
        self, filled: VectorStore
    ) -> None:
        points = {p.item_id: p for p in catalog()}
        asked = [catalog()[7].item_id, "amazon:nope", catalog()[3].item_id, catalog()[200].item_id]
        got = await filled.retrieve(COLLECTION, asked)
        assert [p.item_id for p in got] == [asked[0], asked[2], asked[3]]
        for point in got:
            original = np.asarray(points[point.item_id].vector, dtype=np.float64)
            assert np.allclose(point.vector, original / np.linalg.norm(original), atol=1e-5)
            assert dict(point.payload) == dict(points[point.item_id].payload)
        assert await filled.retrieve(COLLECTION, []) == []

    async def test_exact_search_ranks_by_cosine(
        self, filled: VectorStore, queries: list[list[float]]
    ) -> None:
        for query in queries:
            hits = await filled.search(COLLECTION, query, SearchFilters(), limit=15, exact=True)
            assert len(hits) == 15
            assert_ranked_like(hits, reference_ranking(catalog(), query, SearchFilters()))

    async def test_hits_carry_the_item_id_and_payload(self, filled: VectorStore) -> None:
        payloads = {p.item_id: p.payload for p in catalog()}
        hits = await filled.search(COLLECTION, catalog()[0].vector, SearchFilters(), limit=5)
        assert hits[0].item_id == catalog()[0].item_id
        for hit in hits:
            assert dict(hit.payload) == dict(payloads[hit.item_id])

    @pytest.mark.parametrize("case", list(FILTER_CASES))
    async def test_each_filter_alone_and_combined(
        self, filled: VectorStore, queries: list[list[float]], case: str
    ) -> None:
        filters = FILTER_CASES[case]
        expected = reference_ranking(catalog(), queries[0], filters)
        assert await filled.count(COLLECTION, filters) == len(expected)
        hits = await filled.search(COLLECTION, queries[0], filters, limit=POINTS, exact=True)
        assert {h.item_id for h in hits} == {item_id for item_id, _ in expected}
        assert_ranked_like(hits, expected)
        assert all(filters.matches(h.payload) for h in hits)

    async def test_filters_on_unknown_values_exclude_the_item(self, filled: VectorStore) -> None:
        priced = [p for p in catalog() if p.payload["price_usd"] is not None]
        rated = [p for p in catalog() if p.payload["rating"] is not None]
        assert len(priced) < POINTS
        assert len(rated) < POINTS
        assert await filled.count(COLLECTION, SearchFilters.build(price_min=0)) == len(priced)
        assert await filled.count(COLLECTION, SearchFilters.build(rating_max=5)) == len(rated)

    async def test_brand_exclusion_keeps_items_without_a_brand(self, filled: VectorStore) -> None:
        filters = SearchFilters.build(brands_out=["sony"])
        hits = await filled.search(COLLECTION, catalog()[1].vector, filters, limit=POINTS)
        brandless = {p.item_id for p in catalog() if p.payload["brand_key"] is None}
        assert brandless
        assert brandless <= {h.item_id for h in hits}
        assert all(h.payload["brand_key"] != "sony" for h in hits)

    async def test_random_filters_agree_with_the_reference_semantics(
        self, filled: VectorStore, queries: list[list[float]]
    ) -> None:
        rng = random.Random(23)
        for round_ in range(80):
            filters = random_filters(rng)
            query = queries[round_ % len(queries)]
            expected = reference_ranking(catalog(), query, filters)
            assert await filled.count(COLLECTION, filters) == len(expected), filters
            hits = await filled.search(COLLECTION, query, filters, limit=POINTS, exact=True)
            assert {h.item_id for h in hits} == {i for i, _ in expected}, filters
            assert_ranked_like(hits, expected)

    async def test_approximate_search_respects_filters(
        self, filled: VectorStore, queries: list[list[float]]
    ) -> None:
        filters = FILTER_CASES["combined"]
        for query in queries:
            hits = await filled.search(COLLECTION, query, filters, limit=10)
            assert 0 < len(hits) <= 10
            assert all(filters.matches(h.payload) for h in hits)
            assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)

    async def test_similar_excludes_the_item_itself(self, filled: VectorStore) -> None:
        anchor = catalog()[42]
        for filters in (SearchFilters(), FILTER_CASES["many platforms"]):
            hits = await filled.similar(COLLECTION, anchor.item_id, filters, limit=8)
            assert anchor.item_id not in {h.item_id for h in hits}
            expected = reference_ranking(catalog(), anchor.vector, filters, exclude=anchor.item_id)
            assert len(hits) == 8
            assert_ranked_like(hits, expected)

    async def test_similar_leaves_out_the_ids_asked_and_keeps_the_anchors_category(
        self, filled: VectorStore
    ) -> None:
        anchor = catalog()[42]
        payloads = {p.item_id: p.payload for p in catalog()}
        nearest = reference_ranking(
            catalog(), anchor.vector, SearchFilters(), exclude=anchor.item_id
        )
        dropped = [item_id for item_id, _ in nearest[:6]]
        filters = FILTER_CASES["price range"]
        hits = await filled.similar(
            COLLECTION, anchor.item_id, filters, limit=8, exclude=dropped, same=("category",)
        )
        expected = [
            (item_id, score)
            for item_id, score in reference_ranking(
                catalog(), anchor.vector, filters, exclude=anchor.item_id
            )
            if item_id not in dropped
            and payloads[item_id]["category"] == anchor.payload["category"]
        ]
        assert len(hits) == 8
        assert_ranked_like(hits, expected)

    async def test_similar_on_a_field_the_anchor_lacks_constrains_nothing(
        self, filled: VectorStore
    ) -> None:
        anchor = next(p for p in catalog() if p.payload["brand_key"] is None)
        hits = await filled.similar(
            COLLECTION, anchor.item_id, SearchFilters(), limit=8, same=("brand_key",)
        )
        expected = reference_ranking(
            catalog(), anchor.vector, SearchFilters(), exclude=anchor.item_id
        )
        assert_ranked_like(hits, expected)

    async def test_similar_to_an_unknown_item_is_not_found(self, filled: VectorStore) -> None:
        with pytest.raises(NotFound):
            await filled.similar(COLLECTION, "amazon:nope", SearchFilters(), limit=3)

    async def test_upsert_replaces_vector_and_payload(self, filled: VectorStore) -> None:
        old, donor = catalog()[5], catalog()[6]
        payload = {**old.payload, "title": "renamed", "price_usd": 1234.5}
        await filled.upsert(COLLECTION, [VectorPoint(old.item_id, donor.vector, payload)])
        assert await filled.count(COLLECTION) == POINTS
        (stored,) = await filled.retrieve(COLLECTION, [old.item_id])
        assert stored.payload["title"] == "renamed"
        assert stored.payload["price_usd"] == 1234.5
        hits = await filled.search(COLLECTION, donor.vector, SearchFilters(), limit=2, exact=True)
        assert {h.item_id for h in hits} == {old.item_id, donor.item_id}

    async def test_concurrent_queries_match_sequential_ones(
        self, filled: VectorStore, queries: list[list[float]]
    ) -> None:
        filters = FILTER_CASES["combined"]

        async def one(query: list[float]) -> list[str]:
            hits = await filled.search(COLLECTION, query, filters, limit=10, exact=True)
            return [h.item_id for h in hits]

        sequential = [await one(q) for q in queries]
        concurrent = await asyncio.gather(*(one(q) for q in queries * 3))
        assert concurrent == sequential * 3
