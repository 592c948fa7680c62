"""`LexicalStore` on an OpenSearch server (opensearch-py), for catalogs past one machine.

Documents hold the tokens `app.recall.bm25` makes (whitespace analyzer, so OpenSearch does no
stemming of its own) and the filter fields; the index's BM25 similarity takes the registry's
k1 and b, and a query is one boosted term clause per distinct token (a repeated token counts
as many times, as in bm25s). Live changes are written to the index by every process that
replays the catalog journal: idempotent, and each replays in journal order. Every call goes
through the "opensearch" circuit breaker; its timeout bounds each request.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import pybreaker
from opensearchpy import NotFoundError, OpenSearch
from opensearchpy.helpers import bulk

from app.catalog.item import Item
from app.config.params.breakers import BREAKER_OPENSEARCH_TIMEOUT_S
from app.config.params.index import BM25_B, BM25_K1, INDEX_UPSERT_BATCH
from app.errors import DependencyDown, IndexMissing, PickwiseError
from app.recall.bm25 import LexicalHit, LexicalText, bm25_text, lexical_tokens, query_tokens
from app.recall.breakers import BREAKERS
from app.recall.filters import SearchFilters, brand_key
from app.recall.lexical_store import LexicalChange

__all__ = ["OpenSearchLexicalStore"]

T = TypeVar("T")

BREAKER = "opensearch"
TEXT_FIELD = "tokens"
CLIENT_TIMEOUT_S = 30.0
BUILD_TIMEOUT_S = 300.0
_ANALYZER = "pickwise_tokens"
MAX_SIZE = 10_000
"""OpenSearch's default `index.max_result_window`: no request asks for more hits."""


def _settings() -> dict[str, Any]:
    return {
        "number_of_shards": 1,
        "index": {"similarity": {"pickwise_bm25": _similarity()}},
        "analysis": {"analyzer": {_ANALYZER: {"type": "custom", "tokenizer": "whitespace"}}},
    }


def _similarity() -> dict[str, Any]:
    return {"type": "BM25", "k1": BM25_K1.get(), "b": BM25_B.get()}


_MAPPINGS = {
    "dynamic": "strict",
    "properties": {
        "item_id": {"type": "keyword"},
        "platform": {"type": "keyword"},
        "brand_key": {"type": "keyword"},
        "price_usd": {"type": "double"},
        "rating": {"type": "double"},
        TEXT_FIELD: {"type": "text", "analyzer": _ANALYZER, "similarity": "pickwise_bm25"},
    },
}


def document(item: Item, text: LexicalText = bm25_text) -> dict[str, Any]:
    """An item as an OpenSearch document: the tokens of its `text` and the fields filters
    read."""
    doc: dict[str, Any] = {
        "item_id": item.item_id,
        "platform": item.platform,
        TEXT_FIELD: " ".join(lexical_tokens(text(item))),
    }
    for field, value in (
        ("brand_key", brand_key(item.brand)),
        ("price_usd", item.price_usd),
        ("rating", item.rating),
    ):
        if value is not None and value != "":
            doc[field] = value
    return doc


def query_body(query: str, filters: SearchFilters, top_k: int) -> dict[str, Any] | None:
    """The search request of a query, or None when it has no index token."""
    counts = Counter(query_tokens(query))
    if not counts:
        return None
    should = [
        {"term": {TEXT_FIELD: {"value": token, "boost": float(times)}}}
        for token, times in sorted(counts.items())
    ]
    where: list[dict[str, Any]] = []
    if filters.platforms:
        where.append({"terms": {"platform": list(filters.platforms)}})
    for field, lo, hi in (
        ("price_usd", filters.price_min, filters.price_max),
        ("rating", filters.rating_min, filters.rating_max),
    ):
        if lo is not None or hi is not None:
            bounds = {k: v for k, v in (("gte", lo), ("lte", hi)) if v is not None}
            where.append({"range": {field: bounds}})
    if filters.brands_in:
        where.append({"terms": {"brand_key": list(filters.brands_in)}})
    boolean: dict[str, Any] = {"should": should, "minimum_should_match": 1, "filter": where}
    if filters.brands_out:
        boolean["must_not"] = [{"terms": {"brand_key": list(filters.brands_out)}}]
    return {
        "size": min(top_k, MAX_SIZE),
        "_source": False,
        "track_total_hits": False,
        "query": {"bool": boolean},
    }


class OpenSearchLexicalStore:
    """One index version's documents in one OpenSearch index."""

    name = "opensearch"
    remote = True

    def __init__(self, client: OpenSearch, index: str, *, text: LexicalText = bm25_text) -> None:
        self._client = client
        self.index = index
        self._text = text

    @classmethod
    def connect(
        cls, url: str, index: str, *, text: LexicalText = bm25_text
    ) -> OpenSearchLexicalStore:
        """A store on the server at `url` (credentials may sit in the URL); connects lazily;
        `text` is the documents' lexical text recipe."""
        client = OpenSearch(hosts=[url], timeout=CLIENT_TIMEOUT_S, max_retries=0)
        return cls(client, index, text=text)

    def rebuild(self, items: Sequence[Item]) -> None:
        """Replace the index with `items` (a build: not breaker-guarded, errors surface)."""
        indices = self._client.indices
        if indices.exists(index=self.index):
            indices.delete(index=self.index)
        indices.create(index=self.index, body={"settings": _settings(), "mappings": _MAPPINGS})
        batch = INDEX_UPSERT_BATCH.get() * 4
        for start in range(0, len(items), batch):
            actions = [self._put_action(i) for i in items[start : start + batch]]
            bulk(self._client, actions, request_timeout=BUILD_TIMEOUT_S)
        indices.refresh(index=self.index)

    def _put_action(self, item: Item) -> dict[str, Any]:
        return {"_index": self.index, "_id": item.item_id, "_source": document(item, self._text)}

    def exists(self) -> bool:
        return bool(self._client.indices.exists(index=self.index))

    def count(self) -> int:
        """Documents in the index."""
        counted = self._guarded(lambda t: self._client.count(index=self.index, request_timeout=t))
        return int(counted["count"])

    def search(self, query: str, filters: SearchFilters, *, top_k: int) -> list[LexicalHit]:
        """Best `top_k` hits with a positive score among documents passing `filters`."""
        body = query_body(query, filters, top_k)
        if body is None:
            return []
        found = self._guarded(
            lambda t: self._client.search(index=self.index, body=body, request_timeout=t)
        )
        return [
            LexicalHit(str(h["_id"]), float(h["_score"]))
            for h in found["hits"]["hits"]
            if h.get("_score")
        ]

    def apply(self, changes: Sequence[LexicalChange]) -> None:
        """Upserts and deletes in one bulk request, refreshed before it returns."""
        if not changes:
            return
        actions = [
            self._put_action(c.item)
            if c.item is not None
            else {"_op_type": "delete", "_index": self.index, "_id": c.item_id}
            for c in changes
        ]

        def send(timeout: float) -> Any:
            _, errors = bulk(
                self._client,
                actions,
                refresh=True,
                raise_on_error=False,
                request_timeout=timeout,
            )
            failed = [e for e in errors if _status(e) != 404]  # deleting the absent is done
            if failed:
                raise RuntimeError(f"bulk update failed: {failed[:3]}")

        self._guarded(send)

    def close(self) -> None:
        self._client.close()

    def _guarded(self, call: Callable[[float], T]) -> T:
        """`call(timeout)` through the "opensearch" breaker: a missing index is
        `IndexMissing`, any other failure or an open breaker `DependencyDown`."""
        breaker = BREAKERS.breaker(BREAKER)
        timeout = BREAKER_OPENSEARCH_TIMEOUT_S.get()
        failure: BaseException | None = None
        try:
            with breaker.calling():
                try:
                    return call(timeout)
                except NotFoundError as exc:
                    raise IndexMissing(
                        f"no OpenSearch index {self.index!r}: run `pickwise index build` "
                        "with OPENSEARCH_URL set"
                    ) from exc
                except Exception as exc:
                    failure = exc
                    raise
        except pybreaker.CircuitBreakerError as exc:
            reason = "circuit open" if failure is None else f"{_describe(failure)}; circuit opened"
            raise DependencyDown(BREAKER, reason) from exc
        except PickwiseError:
            raise
        except Exception as exc:
            raise DependencyDown(BREAKER, _describe(exc)) from exc


def _status(error: dict[str, Any]) -> int:
    detail: object = next(iter(error.values()), {})
    return int(detail.get("status", 0)) if isinstance(detail, dict) else 0


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
