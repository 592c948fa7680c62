"""The raw material of reranker training: catalog items whose product type we trust, labelled
ESCI examples, and the Icecat evaluation set, read only to keep its docids and queries out."""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from app.catalog.item import Item
from app.catalog.product_nouns import head, is_broad, names_as_product, normalise_query
from app.catalog.text import clean_text
from app.errors import ConfigError

JUDGMENTS_FILE = "icecat/judgments_dev.csv"
ESCI_GRANDI9 = "esci-sample/grandi9/sample_2c_full_data.csv"
ESCI_JAHNAVI = "esci-sample/jahnavi/esci_E_exact_matches_sample100.csv"
ESCI_VESPA_LABELS = "esci-sample/vespa/test-sample.parquet"
SOURCE_FILES: tuple[str, ...] = (JUDGMENTS_FILE, ESCI_GRANDI9, ESCI_JAHNAVI, ESCI_VESPA_LABELS)
"""Files read here beyond the catalog itself; their bytes are part of the model's hash."""

_TYPED_PLATFORMS = frozenset({"icecat", "walmart", "amazon"})


@dataclass(frozen=True)
class EvaluationSet:
    """What the Icecat judgments cover: no training pair may use these docids or queries."""

    item_ids: frozenset[str]
    queries: frozenset[str]

    def allows_query(self, query: str) -> bool:
        return normalise_query(query) not in self.queries


@dataclass(frozen=True)
class TypedItem:
    """A catalog item whose category we trust to say what the product is."""

    item_id: str
    title: str
    category: str
    brand: str | None


@dataclass(frozen=True)
class EsciExample:
    """One labelled ESCI (query, product): E exact, S substitute, C complement, I irrelevant."""

    query: str
    item_id: str
    title: str
    label: str
    source: str


def load_evaluation_set(data_dir: Path) -> EvaluationSet:
    """Docids (as catalog ids) and normalised queries of the Icecat judgments."""
    path = data_dir / JUDGMENTS_FILE
    if not path.is_file():
        raise ConfigError(f"Icecat judgments not found at {path}; check PICKWISE_DATA_DIR")
    ids: set[str] = set()
    queries: set[str] = set()
    with path.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            ids.add(f"icecat:{row['docid'].strip()}")
            queries.add(normalise_query(row["query"]))
    return EvaluationSet(frozenset(ids), frozenset(queries))


def typed_items(
    items: Iterable[Item], evaluation: EvaluationSet, *, min_items: int
) -> list[TypedItem]:
    """Items of narrow categories whose title names the category's product as itself.

    Listing categories of Walmart/Amazon are noisy ("printers" holding glue and toner), so
    every item must name its category's head noun outside an accessory phrase; Icecat's
    title-derived categories pass the same check. Categories under `min_items` are dropped.
    """
    kept: list[TypedItem] = []
    for item in items:
        category = (item.category or "").strip().lower()
        if item.platform not in _TYPED_PLATFORMS or not category or is_broad(category):
            continue
        if item.item_id in evaluation.item_ids:
            continue
        word = head(category)
        if word is None or not names_as_product(item.title, word):
            continue
        kept.append(TypedItem(item.item_id, item.title, category, item.brand))
    sizes = Counter(t.category for t in kept)
    return [t for t in kept if sizes[t.category] >= min_items]


def esci_examples(
    data_dir: Path, items: Mapping[str, Item], evaluation: EvaluationSet
) -> list[EsciExample]:
    """US examples of the ESCI samples whose product is in the catalog, queries outside the
    evaluation set; titles come from the catalog so they read like every other title."""
    import pandas as pd

    frames = [
        (ESCI_GRANDI9, "esci-grandi9", pd.read_csv(data_dir / ESCI_GRANDI9, dtype=str)),
        (ESCI_JAHNAVI, "esci-jahnavi", pd.read_csv(data_dir / ESCI_JAHNAVI, dtype=str)),
        (ESCI_VESPA_LABELS, "esci-vespa", pd.read_parquet(data_dir / ESCI_VESPA_LABELS)),
    ]
    seen: set[tuple[str, str]] = set()
    examples: list[EsciExample] = []
    for name, source, frame in frames:
        if "query" not in frame or "product_id" not in frame:
            raise ConfigError(f"{data_dir / name} lacks the ESCI columns query, product_id")
        labels = frame["esci_label"] if "esci_label" in frame else ["E"] * len(frame)
        locales = frame["product_locale"] if "product_locale" in frame else ["us"] * len(frame)
        for query, product, label, locale in zip(
            frame["query"], frame["product_id"], labels, locales, strict=True
        ):
            query = normalise_query(clean_text(query))
            item = items.get(f"amazon:{clean_text(product)}")
            if not query or item is None or str(locale).strip().lower() != "us":
                continue
            if not evaluation.allows_query(query) or (query, item.item_id) in seen:
                continue
            seen.add((query, item.item_id))
            examples.append(
                EsciExample(query, item.item_id, item.title, str(label).strip(), source)
            )
    return examples
