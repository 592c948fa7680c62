"""The demo datasets' training labels: ESCI's labelled (query, Amazon product) examples, and
the Icecat judgments, read only so that no training pair uses their docids or queries."""

from __future__ import annotations

import csv
from collections.abc import Mapping
from pathlib import Path

from app.catalog.item import Item
from app.catalog.labels import EvaluationSet, LabelledExample, TrainingLabels
from app.catalog.product_nouns import normalise_query
from app.catalog.text import clean_text
from app.errors import ConfigError

__all__ = ["DEMO_LABEL_FILES", "demo_training_labels"]

JUDGMENTS_FILE = "icecat/judgments_dev.csv"
ESCI_GRANDI9 = "esci-sample/grandi9/sample_2c_full_data.csv"
ESCI_JAHNAVI = "esci-sample/jahnavi/esci_E_exact_matches_sample100.csv"
ESCI_VESPA_LABELS = "esci-sample/vespa/test-sample.parquet"
DEMO_LABEL_FILES: tuple[str, ...] = (JUDGMENTS_FILE, ESCI_GRANDI9, ESCI_JAHNAVI, ESCI_VESPA_LABELS)
"""Files of the datasets folder read here, beyond the demo catalog itself."""


def demo_training_labels(data_dir: Path, items: Mapping[str, Item]) -> TrainingLabels:
    """The evaluation set to keep out and the ESCI examples whose product is in `items`."""
    evaluation = _evaluation_set(data_dir)
    return TrainingLabels(
        evaluation=evaluation,
        examples=tuple(_esci_examples(data_dir, items, evaluation)),
    )


def _evaluation_set(data_dir: Path) -> EvaluationSet:
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


def _esci_examples(
    data_dir: Path, items: Mapping[str, Item], evaluation: EvaluationSet
) -> list[LabelledExample]:
    """US examples of the ESCI samples whose product is in the catalog, queries outside the
    evaluation set; titles come from the catalog so they read like every other title."""
    import pandas as pd

    frames = [
        (ESCI_GRANDI9, "esci-grandi9", pd.read_csv(data_dir / ESCI_GRANDI9, dtype=str)),
        (ESCI_JAHNAVI, "esci-jahnavi", pd.read_csv(data_dir / ESCI_JAHNAVI, dtype=str)),
        (ESCI_VESPA_LABELS, "esci-vespa", pd.read_parquet(data_dir / ESCI_VESPA_LABELS)),
    ]
    seen: set[tuple[str, str]] = set()
    examples: list[LabelledExample] = []
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
                LabelledExample(query, item.item_id, item.title, str(label).strip(), source)
            )
    return examples
