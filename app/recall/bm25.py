"""Lexical recall: a bm25s index with English stemming and the same payload filters.

Filters become a boolean mask over documents, computed from columnar payload arrays, so a
filtered BM25 query scores only the items that pass — the same semantics as the vector
stores (`SearchFilters.matches`).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import bm25s
import numpy as np
import Stemmer

from app.catalog.item import Item
from app.catalog.short_names import short_names_fingerprint, with_short_names
from app.catalog.spec_features import SHEET_TEXT_MAX
from app.catalog.specs import as_spec_words, spec_words_fingerprint, with_spec_words
from app.catalog.standards import standard_words, standards_fingerprint, with_standard_words
from app.config.params.index import BM25_B, BM25_K1, BM25_TITLE_REPEAT
from app.config.params.recall import BM25_STANDARD_WEIGHT
from app.recall._bm25_overlay import SideDoc, SideScorer
from app.recall.filters import SearchFilters, brand_key
from app.recall.vector_store import item_payload

if TYPE_CHECKING:
    from app.recall.lexical_store import LexicalChange

__all__ = [
    "Bm25Index",
    "LexicalHit",
    "LexicalText",
    "bm25_recipe",
    "bm25_sheet_text",
    "bm25_text",
    "lexical_tokens",
    "query_tokens",
    "query_variant",
]

_COLUMNS_FILE = "columns.npz"
_IDS_FILE = "item_ids.json"
_STEMMERS = threading.local()
# Single letters and digits count ("d battery", "iphone 4"): bm25s keeps two or more by default.
_TOKEN_PATTERN = r"(?u)\b\w+\b"

LexicalText = Callable[[Item], str]
"""An item's lexical text recipe (`bm25_text`, `bm25_sheet_text`)."""


def bm25_recipe() -> str:
    """A text form of the BM25 recipe in force, part of the index version."""
    return (
        f"bm25s-lucene|k1={BM25_K1.get():g}|b={BM25_B.get():g}|english-stem|stopwords=en|tokens=\\w+"
        f"|title*{BM25_TITLE_REPEAT.get()}+brand+description|sheet+spec-text<{SHEET_TEXT_MAX}"
        f"|title-standards={standards_fingerprint()}|short-names={short_names_fingerprint()}"
        f"|spec-words={spec_words_fingerprint()}|inferred-category-short-names"
    )


def query_variant() -> str:
    """The runtime parameters that shape a BM25 query's hits besides its text (for memos)."""
    return f"standard-weight={BM25_STANDARD_WEIGHT.get()}"


def bm25_text(item: Item) -> str:
    """The lexical text of an item: the title (repeated, as a field boost) with one-word
    names of the standards it names ("usbc"), short names of products it spells out ("ssd")
    and one-word quantities ("1 TB" -> 1000gb), brand, the category a spec sheet gives an
    untitled spec-sheet item ("internal solid state drive ssd") and the whole description. The
    category read off a title is left out: it only repeats title words and measured worse."""
    title = with_spec_words(with_short_names(with_standard_words(item.title)))
    titles = [title] * BM25_TITLE_REPEAT.get()
    category = with_short_names(item.inferred_category.lower()) if item.inferred_category else None
    return " ".join(p for p in (*titles, item.brand, category, item.description) if p)


def bm25_sheet_text(item: Item) -> str:
    """`bm25_text` and the spec sheet's short text values ("AAA / R03", "Gaming"): the sheet
    store's text, which finds items by words only their sheets say."""
    return " ".join((bm25_text(item), *item.spec_text))


def _query_text(query: str) -> str:
    """The query as the index's titles read: standards by name (weighted), short names added,
    quantities as one word in their canonical unit ("1 tb" -> 1000gb)."""
    weight = BM25_STANDARD_WEIGHT.get()
    return as_spec_words(with_short_names(standard_words(query, repeat=weight)))


def lexical_tokens(text: str) -> list[str]:
    """The index's tokens of a text: lower case, English stop words out, Snowball-stemmed
    (what every lexical backend indexes and queries with)."""
    found = _tokenize([text], ids=False)
    return list(found[0]) if found else []


def _tokenize(texts: list[str], *, ids: bool) -> Any:
    """The one tokeniser of built documents, live documents and queries, so they always
    agree: bm25s's ids and vocabulary for a build (`ids`), else each text's tokens."""
    stemmer = getattr(_STEMMERS, "stemmer", None)
    if stemmer is None:
        stemmer = _STEMMERS.stemmer = Stemmer.Stemmer("english")
    return bm25s.tokenize(
        texts,
        stopwords="en",
        stemmer=stemmer,
        token_pattern=_TOKEN_PATTERN,
        return_ids=ids,
        show_progress=False,
    )


def query_tokens(query: str) -> list[str]:
    """A query's tokens as the index reads them (repeats count: standards are weighted)."""
    return lexical_tokens(_query_text(query))


@dataclass(frozen=True)
class LexicalHit:
    """One BM25 result."""

    item_id: str
    score: float


class _FilterColumns:
    """Payload fields as arrays, to turn `SearchFilters` into a document mask quickly."""

    def __init__(
        self, platforms: np.ndarray, prices: np.ndarray, ratings: np.ndarray, brands: np.ndarray
    ) -> None:
        self.platforms = platforms
        self.prices = prices
        self.ratings = ratings
        self.brands = brands

    @classmethod
    def from_items(cls, items: Sequence[Item]) -> _FilterColumns:
        nan = float("nan")
        return cls(
            np.array([i.platform for i in items], dtype=object),
            np.array(
                [nan if i.price_usd is None else i.price_usd for i in items], dtype=np.float64
            ),
            np.array([nan if i.rating is None else i.rating for i in items], dtype=np.float64),
            np.array([brand_key(i.brand) or "" for i in items], dtype=object),
        )

    def save(self, path: Path) -> None:
        np.savez(
            path,
            platforms=self.platforms.astype(str),
            prices=self.prices,
            ratings=self.ratings,
            brands=self.brands.astype(str),
        )

    @classmethod
    def load(cls, path: Path) -> _FilterColumns:
        data = np.load(path, allow_pickle=False)
        return cls(
            data["platforms"].astype(object),
            data["prices"],
            data["ratings"],
            data["brands"].astype(object),
        )

    def set_row(self, doc: int, item: Item) -> None:
        """Take a live change of a built document's filter fields."""
        self.platforms[doc] = item.platform
        self.prices[doc] = float("nan") if item.price_usd is None else item.price_usd
        self.ratings[doc] = float("nan") if item.rating is None else item.rating
        self.brands[doc] = brand_key(item.brand) or ""

    def mask(self, f: SearchFilters, dead: np.ndarray | None = None) -> np.ndarray | None:
        if f.is_empty():
            return None if dead is None else ~dead
        keep = np.ones(len(self.prices), dtype=bool) if dead is None else ~dead
        if f.platforms:
            keep &= np.isin(self.platforms, f.platforms)
        keep &= _range_mask(self.prices, f.price_min, f.price_max)
        keep &= _range_mask(self.ratings, f.rating_min, f.rating_max)
        if f.brands_in:
            keep &= np.isin(self.brands, f.brands_in)
        if f.brands_out:
            keep &= ~np.isin(self.brands, f.brands_out)
        return keep


def _range_mask(values: np.ndarray, lo: float | None, hi: float | None) -> np.ndarray:
    if lo is None and hi is None:
        return np.ones(len(values), dtype=bool)
    with np.errstate(invalid="ignore"):
        keep = ~np.isnan(values)
        if lo is not None:
            keep &= values >= lo
        if hi is not None:
            keep &= values <= hi
    return keep


class Bm25Index:
    """The in-process `LexicalStore`: a saved bm25s index plus the item ids and filter
    columns aligned with it; live changes are an overlay kept in memory (`apply`)."""

    name = "bm25s"
    remote = False

    def __init__(
        self,
        retriever: bm25s.BM25,
        item_ids: list[str],
        columns: _FilterColumns,
        *,
        text: LexicalText = bm25_text,
    ) -> None:
        self._retriever = retriever
        self._text = text
        self._item_ids = item_ids
        self._columns = columns
        self._lock = threading.Lock()
        self._positions: dict[str, int] | None = None
        self._dead: np.ndarray | None = None
        self._side: dict[str, SideDoc] = {}
        self._scorer: SideScorer | None = None

    def __len__(self) -> int:
        return len(self._item_ids)

    def count(self) -> int:
        """Built documents not deleted or replaced, plus the live ones."""
        dead = 0 if self._dead is None else int(self._dead.sum())
        return len(self._item_ids) - dead + len(self._side)

    def apply(self, changes: Sequence[LexicalChange]) -> None:
        """Live upserts and deletes, in order (kept in memory; the next build folds them in)."""
        for change in changes:
            if change.item is None:
                self._delete(change.item_id)
            else:
                self._put(change.item, same_text=change.same_text)

    def close(self) -> None:
        """Nothing to release (the index is memory-mapped)."""

    def _put(self, item: Item, *, same_text: bool) -> None:
        """A live upsert: a built document whose text is unchanged keeps its exact score and
        takes the new filter fields; a new or re-worded item becomes a side document."""
        with self._lock:
            doc = self._position(item.item_id)
            side = dict(self._side)
            if doc is not None and same_text:
                self._columns.set_row(doc, item)
                self._set_dead(doc, False)
                side.pop(item.item_id, None)
            else:
                if doc is not None:
                    self._set_dead(doc, True)
                if self._scorer is None:
                    self._scorer = SideScorer(self._retriever)
                tokens = lexical_tokens(self._text(item))
                side[item.item_id] = self._scorer.document(item.item_id, tokens, item_payload(item))
            self._side = side

    def _delete(self, item_id: str) -> None:
        """A live delete: the item is never a hit again."""
        with self._lock:
            doc = self._position(item_id)
            if doc is not None:
                self._set_dead(doc, True)
            if item_id in self._side:
                self._side = {k: v for k, v in self._side.items() if k != item_id}

    def _position(self, item_id: str) -> int | None:
        if self._positions is None:
            self._positions = {item: doc for doc, item in enumerate(self._item_ids)}
        return self._positions.get(item_id)

    def _set_dead(self, doc: int, dead: bool) -> None:
        if self._dead is None:
            if not dead:
                return
            self._dead = np.zeros(len(self._item_ids), dtype=bool)
        self._dead[doc] = dead

    @classmethod
    def build(cls, items: Sequence[Item], *, text: LexicalText = bm25_text) -> Bm25Index:
        """Tokenise `text` of every item (stemmed, English stop words removed) and index it."""
        tokens = _tokenize([text(i) for i in items], ids=True)
        retriever = bm25s.BM25(k1=BM25_K1.get(), b=BM25_B.get(), method="lucene")
        retriever.index(tokens, show_progress=False)
        columns = _FilterColumns.from_items(items)
        return cls(retriever, [i.item_id for i in items], columns, text=text)

    def save(self, folder: Path) -> None:
        """Write the index, ids and filter columns under `folder`."""
        folder.mkdir(parents=True, exist_ok=True)
        self._retriever.save(str(folder), show_progress=False)
        (folder / _IDS_FILE).write_text(json.dumps(self._item_ids))
        self._columns.save(folder / _COLUMNS_FILE)

    @staticmethod
    def saved_in(folder: Path) -> bool:
        """Whether `folder` holds a saved index."""
        return (folder / _IDS_FILE).is_file() and (folder / _COLUMNS_FILE).is_file()

    @classmethod
    def load(cls, folder: Path, *, text: LexicalText = bm25_text) -> Bm25Index:
        """Open a saved index (memory-mapped); `text` is the recipe it was built with, for
        live changes."""
        retriever = bm25s.BM25.load(str(folder), mmap=True, show_progress=False, verbosity=0)
        item_ids = json.loads((folder / _IDS_FILE).read_text())
        return cls(retriever, item_ids, _FilterColumns.load(folder / _COLUMNS_FILE), text=text)

    def search(self, query: str, filters: SearchFilters, *, top_k: int) -> list[LexicalHit]:
        """Best-first hits with a positive score among items passing `filters`."""
        tokens = query_tokens(query)
        if not tokens:
            return []
        side = [
            LexicalHit(d.item_id, score)
            for d in self._side.values()
            if filters.matches(d.payload) and (score := self._side_score(tokens, d)) > 0
        ]
        return self._built_hits([tokens], filters, top_k) + side

    def _side_score(self, tokens: list[str], doc: SideDoc) -> float:
        return self._scorer.score(tokens, doc) if self._scorer is not None else 0.0

    def _built_hits(
        self, tokens: list[list[str]], filters: SearchFilters, top_k: int
    ) -> list[LexicalHit]:
        if not self._item_ids:
            return []
        with self._lock:
            mask = self._columns.mask(filters, None if self._dead is None else self._dead.copy())
        if mask is not None and not mask.any():
            return []
        k = min(top_k, len(self._item_ids))
        with self._lock:
            docs, scores = self._retriever.retrieve(
                tokens,
                k=k,
                show_progress=False,
                n_threads=1,
                weight_mask=None if mask is None else mask.astype(np.float32),
            )
        hits = []
        for doc, score in zip(docs[0], scores[0], strict=True):
            if score <= 0 or (mask is not None and not mask[int(doc)]):
                continue
            hits.append(LexicalHit(self._item_ids[int(doc)], float(score)))
        return hits
