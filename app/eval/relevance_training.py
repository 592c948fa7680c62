"""Shopper queries for training a relevance ranker that are not the evaluation's: WebShop's
human search queries that name a kind the catalog lists, and queries written from the
catalog's own categories and brands, with every dev query and close variant held apart."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from app.catalog.item import Item
from app.catalog.product_nouns import singular, tokens
from app.config.settings import Settings
from app.eval._judging_pool import unjudged_pool
from app.eval._judgment_file import Judgments
from app.eval._recall_configs import EvalTarget, run_configs
from app.recall.search_index import SearchIndex

__all__ = [
    "POOL_CONFIGS",
    "held_apart",
    "pool_candidates",
    "query_words",
    "read_webshop_queries",
    "training_queries",
]

_FUNCTION_WORDS = frozenset({"a", "an", "the", "for", "with", "and", "of", "in", "to", "my"})
_CLOSE = 0.5
"""Word overlap (Jaccard) with a dev query at or above which a query is a variant of it."""
POOL_CONFIGS = ("bm25", "dense", "hybrid_weighted", "pipeline")
"""The configurations whose top results are rated: every list a ranker would reorder."""


def query_words(query: str) -> frozenset[str]:
    """The query's content words, singular: what makes two queries variants of each other."""
    return frozenset(singular(w) for w in tokens(query.lower()) if w not in _FUNCTION_WORDS)


def held_apart(query: str, dev_queries: Iterable[str]) -> bool:
    """True when `query` is neither a dev query nor a close variant of one: no dev query's
    words are all in it with at most one word more, and the overlap stays under `_CLOSE`."""
    words = query_words(query)
    if not words:
        return False
    for dev in dev_queries:
        other = query_words(dev)
        if not other:
            continue
        if other <= words and len(words - other) <= 1:
            return False
        if len(words & other) / len(words | other) >= _CLOSE:
            return False
    return True


def training_queries(
    items: Iterable[Item],
    webshop_queries: Sequence[str],
    dev_queries: Sequence[str],
    *,
    webshop: int,
    catalog: int,
    seed: int = 13,
) -> list[tuple[str, str]]:
    """(query, source) pairs: up to `webshop` WebShop queries naming a listed kind and up to
    `catalog` written from listed categories ("toner cartridge", "hp toner cartridge"), all
    held apart from `dev_queries`, in a seeded order."""
    listed: dict[str, dict[str, int]] = {}
    for item in items:
        if item.category:
            brands = listed.setdefault(item.category.lower(), {})
            if item.brand:
                brands[item.brand] = brands.get(item.brand, 0) + 1
    kinds = {singular(w) for name in listed for w in tokens(name)[-1:] if len(w) >= 4}
    rng = random.Random(seed)
    shop = sorted(
        {q.lower().strip() for q in webshop_queries if query_words(q) & kinds},
    )
    rng.shuffle(shop)
    written = sorted(_catalog_queries(listed))
    rng.shuffle(written)
    chosen: list[tuple[str, str]] = []
    for queries, source, cap in ((shop, "webshop", webshop), (written, "catalog", catalog)):
        kept = 0
        for query in queries:
            if kept >= cap:
                break
            if held_apart(query, dev_queries) and held_apart(query, [q for q, _ in chosen]):
                chosen.append((query, source))
                kept += 1
    return chosen


def _catalog_queries(listed: Mapping[str, Mapping[str, int]]) -> set[str]:
    """Each category with 30 or more items by name, and with its two main brands."""
    queries: set[str] = set()
    for name, brands in listed.items():
        if sum(brands.values()) < 30 or not name.replace(" ", "").isalpha():
            continue
        queries.add(name)
        top = sorted(brands.items(), key=lambda kv: (-kv[1], kv[0]))[:2]
        queries.update(f"{brand.lower()} {name}" for brand, _ in top)
    return queries


def read_webshop_queries(data_dir: Path) -> list[str]:
    """The human search queries of WebShop's goal-to-query map."""
    found = json.loads((data_dir / "webshop" / "goal_query_map.json").read_text())
    return sorted({q for queries in found.values() for q in queries})


async def pool_candidates(
    settings: Settings,
    index: SearchIndex,
    queries: Sequence[str],
    *,
    platform: str | None,
    depth: int,
) -> dict[tuple[str, str], list[str]]:
    """(query, item id) -> the configurations that put the item in their top `depth`."""
    target = EvalTarget(settings, index, platform, max(depth, 10))
    runs = await run_configs(target, queries, POOL_CONFIGS)
    rankings = {name: run.rankings or {} for name, run in runs.items()}
    return unjudged_pool(Judgments(graded={}, source="none", rows=0), rankings, depth)
