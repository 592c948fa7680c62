"""The `LexicalStore` protocol and the factory that picks bm25s in-process or OpenSearch.

Both backends score the same BM25 recipe over the same tokens: the text and query recipes
and the tokeniser (English stop words, Snowball stemmer) live in `app.recall.bm25`, and the
OpenSearch index receives the tokens already made (whitespace analyzer, the registry's k1
and b), so the two rank alike. bm25s (default) is a folder under the index version; an
OpenSearch index named after the version is used instead when `OPENSEARCH_URL` is set.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from app.catalog.item import Item
from app.recall.bm25 import Bm25Index, LexicalHit, LexicalText, bm25_text
from app.recall.filters import SearchFilters

__all__ = [
    "LexicalChange",
    "LexicalHit",
    "LexicalStore",
    "lexical_store_present",
    "open_lexical_store",
    "sheet_index_name",
    "write_lexical_store",
]


@dataclass(frozen=True)
class LexicalChange:
    """One live change of a lexical document: `item` None deletes `item_id`. `same_text`
    says the built document's text is unchanged (bm25s then keeps its exact score)."""

    item_id: str
    item: Item | None
    same_text: bool = False

    @classmethod
    def put(cls, item: Item, *, same_text: bool = False) -> LexicalChange:
        return cls(item.item_id, item, same_text)

    @classmethod
    def delete(cls, item_id: str) -> LexicalChange:
        return cls(item_id, None)


@runtime_checkable
class LexicalStore(Protocol):
    """BM25 over the catalog's lexical texts with the vector stores' payload filters.

    Calls are synchronous (callers run searches in a worker thread); a remote backend's
    failures surface as `DependencyDown("opensearch")`, a missing index as `IndexMissing`.
    """

    name: str
    remote: bool

    def count(self) -> int:
        """Documents that can be found (live changes included)."""
        ...

    def search(self, query: str, filters: SearchFilters, *, top_k: int) -> list[LexicalHit]:
        """Hits with a positive score among documents passing `filters`; at least the best
        `top_k` (a backend may return more), in no promised order."""
        ...

    def apply(self, changes: Sequence[LexicalChange]) -> None:
        """Upsert and delete documents, in order; visible to the next search on return."""
        ...

    def close(self) -> None:
        """Release connections."""
        ...


def sheet_index_name(index: str) -> str:
    """The OpenSearch index of the sheet store beside the listing store `index`."""
    return f"{index}-sheet"


def write_lexical_store(
    items: Sequence[Item],
    *,
    opensearch_url: str | None,
    folder: Path,
    index: str,
    text: LexicalText = bm25_text,
) -> str:
    """Index the `text` of `items` where the configuration asks (a bm25s folder, or the
    OpenSearch index `index`, replaced whole); the backend's name, for the manifest."""
    if opensearch_url:
        from app.recall._opensearch_lexical import OpenSearchLexicalStore

        store = OpenSearchLexicalStore.connect(opensearch_url, index, text=text)
        try:
            store.rebuild(items)
        finally:
            store.close()
        return store.name
    built = Bm25Index.build(items, text=text)
    built.save(folder)
    return built.name


def lexical_store_present(*, opensearch_url: str | None, folder: Path, index: str) -> bool:
    """Whether the configured backend holds this version's documents (a build's check)."""
    if opensearch_url:
        from app.recall._opensearch_lexical import OpenSearchLexicalStore

        store = OpenSearchLexicalStore.connect(opensearch_url, index)
        try:
            return store.exists()
        finally:
            store.close()
    return Bm25Index.saved_in(folder)


def open_lexical_store(
    *, opensearch_url: str | None, folder: Path, index: str, text: LexicalText = bm25_text
) -> LexicalStore:
    """The store the configuration asks for: OpenSearch when a URL is given, else bm25s;
    `text` is the recipe it was built with (live changes are indexed with it)."""
    if opensearch_url:
        from app.recall._opensearch_lexical import OpenSearchLexicalStore

        return OpenSearchLexicalStore.connect(opensearch_url, index, text=text)
    return Bm25Index.load(folder, text=text)
