"""The OpenSearch category KB: cards indexed for BM25 (english analyzer) on a server, the
dense side kept in-process, both fused as in the in-process KB. Every remote call goes
through the "opensearch" breaker; the index is (re)filled on first use or when it is gone."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from opensearchpy import NotFoundError, OpenSearch, RequestError
from opensearchpy.helpers import bulk

from app.config.params.breakers import BREAKER_OPENSEARCH_TIMEOUT_S
from app.recall._cache_vectors import QueryVectorMemo
from app.recall._kb_hybrid import CardIndex, hybrid_search
from app.recall._kb_model import CategoryCard, ScoredCard
from app.recall.breakers import guarded
from app.recall.embedder import Embedder
from app.recall.retriever import Hit

T = TypeVar("T")

BREAKER = "opensearch"
INDEX_PREFIX = "pickwise-categories-"
TEXT_FIELD = "text"
CLIENT_TIMEOUT_S = 30.0
_MAPPINGS = {
    "dynamic": "strict",
    "properties": {
        "card_id": {"type": "keyword"},
        "category": {"type": "text", "analyzer": "english"},
        "aliases": {"type": "text", "analyzer": "english"},
        TEXT_FIELD: {"type": "text", "analyzer": "english"},
    },
}


def index_name(kb_version: str) -> str:
    """The OpenSearch index holding one KB version's cards."""
    return f"{INDEX_PREFIX}{kb_version}".lower()


class OpenSearchKnowledgeBase:
    """Category cards searched with BM25 on OpenSearch plus in-process dense similarity; the
    client is opensearch-py's synchronous one (no extra HTTP dependency) run in threads."""

    name = "opensearch"
    remote = True

    def __init__(self, index: CardIndex, embedder: Embedder, client: OpenSearch) -> None:
        self._index = index
        self._memo = QueryVectorMemo(embedder)
        self._client = client
        self._name = index_name(index.version)
        self._ready = False
        self._filling = asyncio.Lock()

    @classmethod
    def connect(cls, url: str, index: CardIndex, embedder: Embedder) -> OpenSearchKnowledgeBase:
        """A KB on the server at `url` (credentials may sit in the URL); connects lazily."""
        client = OpenSearch(hosts=[url], timeout=CLIENT_TIMEOUT_S, max_retries=0)
        return cls(index, embedder, client)

    @property
    def version(self) -> str:
        return self._index.version

    @property
    def cards(self) -> tuple[CategoryCard, ...]:
        return self._index.cards

    @property
    def index_name(self) -> str:
        return self._name

    async def search(self, query: str, *, top_k: int) -> list[ScoredCard]:
        """Best `top_k` cards; `DependencyDown("opensearch")` when the server fails."""
        return await hybrid_search(self._index, self._memo, query, top_k, self._lexical)

    async def close(self) -> None:
        """Close the HTTP client."""
        await asyncio.to_thread(self._client.close)

    async def _lexical(self, text: str, depth: int) -> list[Hit]:
        if not self._ready:
            await self._fill()
        body = {
            "size": depth,
            "query": {"match": {TEXT_FIELD: {"query": text}}},
            "_source": False,
        }

        timeout = BREAKER_OPENSEARCH_TIMEOUT_S.get()

        def query() -> dict[str, Any]:
            try:
                return self._client.search(index=self._name, body=body, request_timeout=timeout)
            except NotFoundError:
                self._create_and_index()
                return self._client.search(index=self._name, body=body, request_timeout=timeout)

        response = await guarded(BREAKER, lambda: _in_thread(query))
        return [
            Hit(h["_id"], float(h["_score"]))
            for h in response["hits"]["hits"]
            if h.get("_score") and h["_id"] in self._index.by_id
        ]

    async def _fill(self) -> None:
        """Make sure the server holds this version's cards, once per process."""
        async with self._filling:
            if self._ready:
                return
            await guarded(BREAKER, lambda: _in_thread(self._fill_if_needed), timed=False)
            self._ready = True

    def _fill_if_needed(self) -> None:
        if self._client.indices.exists(index=self._name):
            counted = self._client.count(index=self._name)
            if counted.get("count") == len(self._index.cards):
                return
        self._create_and_index()

    def _create_and_index(self) -> None:
        try:
            self._client.indices.create(
                index=self._name,
                body={"settings": {"number_of_shards": 1}, "mappings": _MAPPINGS},
            )
        except RequestError as exc:
            if "resource_already_exists" not in str(exc.error):
                raise
        actions = [
            {
                "_index": self._name,
                "_id": card.card_id,
                "_source": {
                    "card_id": card.card_id,
                    "category": card.category,
                    "aliases": list(card.aliases),
                    TEXT_FIELD: card.lexical_text(),
                },
            }
            for card in self._index.cards
        ]
        bulk(self._client, actions, refresh=True)


async def _in_thread(call: Callable[[], T]) -> T:
    """Run a blocking client call off the event loop."""
    return await asyncio.to_thread(call)
