"""The composition root: from `Settings`, open the index, the search cache, the recall
sources and pipeline, and the tools, and close them again. Build it inside the event loop
that uses it: the Redis client of the cache is bound to the loop it first runs in."""

from __future__ import annotations

import logging
from types import TracebackType
from typing import Any, TypeVar

from app.agent.session import SESSIONS_FILE, SessionStore, open_session_store
from app.catalog.profile_kinds import CatalogVocabulary
from app.config.settings import Settings
from app.errors import ConfigError
from app.language.shops import ShopNames
from app.recall.bm25 import query_variant as bm25_query_variant
from app.recall.bm25_retriever import LEXICAL_SOURCE, SHEET_SOURCE, Bm25Retriever, sheet_tail
from app.recall.category_kb import KnowledgeBase, open_knowledge_base
from app.recall.dense_retriever import DenseRetriever
from app.recall.embedder import Embedder
from app.recall.lexical_store import LexicalStore
from app.recall.matching_offers import OfferFinder
from app.recall.memo_retriever import MemoRetriever
from app.recall.pipeline import RecallConfig, RecallPipeline
from app.recall.relevance_model import open_relevance_model
from app.recall.reranker import Reranker, build_reranker
from app.recall.search_cache import SearchCache, open_search_cache
from app.recall.search_index import SearchIndex
from app.tools.base import Tool
from app.tools.browse import CategoryInsightTool, SimilarItemsTool
from app.tools.compare import PriceCompareTool
from app.tools.llm import ChatModel, open_chat_model
from app.tools.picker import ItemPickerTool
from app.tools.plan import use_catalog_vocabulary
from app.tools.planner import PlannerTool
from app.tools.search import ItemSearchTool, RelevanceOrder
from app.tools.summary import ChatFallbackTool, ShoppingSummaryTool

__all__ = ["Runtime"]

T = TypeVar("T")

log = logging.getLogger(__name__)


class Runtime:
    """Every long-lived component of a process, wired once; use as `async with Runtime(s)`.

    An injected `index` (or `embedder`) is reused and left open on exit: tests and benchmarks
    share one to avoid reloading the model. A `recall_config` pins the pipeline's
    configuration; without one it reads the parameter registry on every search.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        index: SearchIndex | None = None,
        embedder: Embedder | None = None,
        recall_config: RecallConfig | None = None,
    ) -> None:
        self.settings = settings
        self._given_index = index
        self._embedder = embedder
        self._recall_config = recall_config
        self._index: SearchIndex | None = None
        self._cache: SearchCache | None = None
        self._dense: DenseRetriever | None = None
        self._bm25: MemoRetriever | None = None
        self._pipeline: RecallPipeline | None = None
        self._sessions: SessionStore | None = None
        self._kb: KnowledgeBase | None = None
        self.chat_model: ChatModel | None = None
        """The LLM when `OPENAI_BASE_URL` is set; None runs the agent offline."""
        self.tools: dict[str, Tool[Any, Any]] = {}
        self._vocabulary_before: CatalogVocabulary | None = None
        """The catalog vocabulary the rules read before this runtime set its index's."""

    async def __aenter__(self) -> Runtime:
        await self.open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def open(self) -> None:
        """Open the index (unless injected), make its catalog's kinds product nouns for the
        planner's rules, and wire the cache, the sources and the tools."""
        if self._index is not None:
            raise ConfigError("this runtime is already open")
        index = self._given_index or SearchIndex.open(self.settings, embedder=self._embedder)
        try:
            cache = open_search_cache(self.settings.redis_url)
        except Exception:
            if self._given_index is None:
                await index.close()
            raise
        self._index, self._cache = index, cache
        self._vocabulary_before = use_catalog_vocabulary(index.vocabulary)
        self._dense = DenseRetriever.from_index(index, cache)

        def memo(store: LexicalStore, source: str) -> MemoRetriever:
            recall = Bm25Retriever(store, source=source)
            return MemoRetriever(
                recall, index_version=lambda: index.cache_version, variant=bm25_query_variant
            )

        self._bm25 = memo(index.bm25, LEXICAL_SOURCE)
        sheet = memo(index.bm25_sheet, SHEET_SOURCE) if index.bm25_sheet is not None else None
        self._pipeline = RecallPipeline(
            [self._dense, self._bm25], self._recall_config, tail=sheet_tail(sheet)
        )
        self._sessions = open_session_store(
            self.settings.redis_url, self.settings.var_dir / SESSIONS_FILE
        )
        self.chat_model = open_chat_model(self.settings)
        self._kb = await open_knowledge_base(self.settings, index)
        self.tools = _build_tools(
            index,
            self._pipeline,
            self._dense,
            self._kb,
            self.chat_model,
            *_open_reranker(self.settings),
            relevance=RelevanceOrder(None, opener=lambda: open_relevance_model(self.settings)),
        )

    async def close(self) -> None:
        """Release the cache, session store and LLM connections and the index this runtime
        opened; idempotent."""
        cache, index = self._cache, self._index
        sessions, chat_model, kb = self._sessions, self.chat_model, self._kb
        self._cache = self._index = self._dense = self._bm25 = self._pipeline = None
        self._sessions, self.chat_model, self._kb = None, None, None
        self.tools = {}
        if index is not None:
            use_catalog_vocabulary(self._vocabulary_before)
        try:
            if cache is not None:
                await cache.close()
            if sessions is not None:
                await sessions.close()
            if chat_model is not None:
                await chat_model.close()
            if kb is not None:
                await kb.close()
        finally:
            if index is not None and self._given_index is None:
                await index.close()

    @property
    def index(self) -> SearchIndex:
        return _opened(self._index, "index")

    @property
    def cache(self) -> SearchCache:
        return _opened(self._cache, "search cache")

    @property
    def dense(self) -> DenseRetriever:
        return _opened(self._dense, "dense retriever")

    @property
    def bm25(self) -> MemoRetriever:
        return _opened(self._bm25, "bm25 retriever")

    @property
    def pipeline(self) -> RecallPipeline:
        return _opened(self._pipeline, "recall pipeline")

    @property
    def sessions(self) -> SessionStore:
        return _opened(self._sessions, "session store")

    @property
    def knowledge_base(self) -> KnowledgeBase:
        return _opened(self._kb, "category knowledge base")

    def tool(self, name: str) -> Tool[Any, Any]:
        """The tool registered under `name`."""
        try:
            return self.tools[name]
        except KeyError:
            raise ConfigError(f"no tool {name!r}; known: {sorted(self.tools)}") from None


def _build_tools(
    index: SearchIndex,
    pipeline: RecallPipeline,
    dense: DenseRetriever,
    kb: KnowledgeBase,
    chat_model: ChatModel | None,
    reranker: Reranker | None = None,
    no_reranker: str | None = None,
    relevance: RelevanceOrder | None = None,
) -> dict[str, Tool[Any, Any]]:
    """Every tool of the agent by name; adding a tool is one line here. price_compare and
    similar_items share one product matcher (its statistics read the whole item table)."""
    offers = OfferFinder.build(index)
    tools: list[Tool[Any, Any]] = [
        ItemSearchTool(index, pipeline, query_vectors=dense, relevance=relevance),
        PlannerTool(
            chat_model,
            speller=index.speller,
            catalog=index.facets.brief(),
            shops=ShopNames.of(
                (f.value for f in index.facets.shops), (b.value for b in index.facets.brands)
            ),
        ),
        ShoppingSummaryTool(chat_model),
        ChatFallbackTool(chat_model),
        CategoryInsightTool(kb),
        PriceCompareTool(index, finder=offers),
        SimilarItemsTool(index, offers.matcher),
        ItemPickerTool(index, index.embedder, reranker, reranker_unavailable=no_reranker),
    ]
    return {tool.name: tool for tool in tools}


def _open_reranker(settings: Settings) -> tuple[Reranker | None, str | None]:
    """item_picker's gate model, or None and why (none trained): the gate is then off and
    says so, and the runtime still opens."""
    try:
        return build_reranker(settings), None
    except ConfigError as exc:
        log.warning("item_picker runs without its relevance gate: %s", exc)
        return None, str(exc)


def _opened(value: T | None, what: str) -> T:
    if value is None:
        raise ConfigError(f"the runtime's {what} is not open; use `async with Runtime(...)`")
    return value
