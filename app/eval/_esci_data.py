"""Reads the official ESCI files for the recall evaluation: the labelled examples of one locale,
split and version, the golden queries (at least one E label), and the products to index.

Everything goes through pyarrow column filters, so the full 2.6M-example file is never
materialised as Python rows; only the selected examples are.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from app.catalog.esci import ESCI_COLUMNS, load_esci_products
from app.catalog.item import Item
from app.catalog.loader import SkipTally
from app.errors import ConfigError, InvalidRequest

if TYPE_CHECKING:
    import pyarrow as pa

EXAMPLES_FILE = "shopping_queries_dataset_examples.parquet"
PRODUCTS_FILE = "shopping_queries_dataset_products.parquet"
EXAMPLE_COLUMNS = (
    "example_id",
    "query",
    "query_id",
    "product_id",
    "product_locale",
    "esci_label",
    "small_version",
    "large_version",
    "split",
)
GAINS = {"E": 3, "S": 2, "C": 1, "I": 0}
EXACT_GAIN, COMPLEMENT_GAIN = GAINS["E"], GAINS["C"]
Version = Literal["small", "large"]
Corpus = Literal["labelled", "locale"]
ITEM_PREFIX = "amazon:"


@dataclass(frozen=True)
class Selection:
    """Which examples count: locale, split, optionally the small or large version, and which
    products form the corpus (those labelled in the selection, or the whole locale)."""

    locale: str = "us"
    split: str = "test"
    version: Version | None = None
    corpus: Corpus = "labelled"

    @property
    def slug(self) -> str:
        """A folder name for the index of this selection."""
        return f"{self.locale}-{self.split}-{self.version or 'all'}-{self.corpus}"


@dataclass(frozen=True)
class GoldenQuery:
    """One query with the gain of every labelled product (as item ids)."""

    query_id: str
    text: str
    gains: Mapping[str, int]


def esci_files(folder: Path) -> tuple[Path, Path]:
    """The examples and products files in `folder`; ConfigError naming what is missing."""
    paths = (folder / EXAMPLES_FILE, folder / PRODUCTS_FILE)
    missing = [p.name for p in paths if not p.is_file()]
    if missing:
        raise ConfigError(
            f"{folder} lacks the official ESCI file(s) {missing} (amazon-science/esci-data, "
            "Git LFS); download them or point the evaluation at the folder that holds them"
        )
    return paths


def read_golden(examples: Path, selection: Selection) -> list[GoldenQuery]:
    """Queries of the selection with their labelled products, those with an E label only,
    sorted by query id (numerically when the ids are numbers)."""
    import pyarrow.compute as pc

    table = _read(examples, EXAMPLE_COLUMNS)
    keep = pc.and_(
        pc.equal(_lower(table["product_locale"]), selection.locale.lower()),
        pc.equal(_lower(table["split"]), selection.split.lower()),
    )
    if selection.version is not None:
        flag = pc.cast(table[f"{selection.version}_version"], "int64")
        keep = pc.and_(keep, pc.equal(flag, 1))
    rows = table.filter(pc.fill_null(keep, False)).select(
        ["query_id", "query", "product_id", "esci_label"]
    )
    queries: dict[str, tuple[str, dict[str, int]]] = {}
    for row in rows.to_pylist():
        label = str(row["esci_label"] or "").strip().upper()
        if label not in GAINS or not row["product_id"]:
            continue
        query_id = str(row["query_id"])
        _, gains = queries.setdefault(query_id, (" ".join(str(row["query"]).split()), {}))
        item_id = f"{ITEM_PREFIX}{str(row['product_id']).strip()}"
        gains[item_id] = max(GAINS[label], gains.get(item_id, 0))
    golden = [
        GoldenQuery(qid, text, gains)
        for qid, (text, gains) in queries.items()
        if text and any(g == EXACT_GAIN for g in gains.values())
    ]
    return sorted(golden, key=lambda g: (not g.query_id.isdigit(), _numeric(g.query_id)))


def labelled_product_ids(examples: Path, selection: Selection) -> set[str]:
    """Product ids with any label in the selection (all its queries, E or not)."""
    import pyarrow.compute as pc

    columns = ("product_id", "product_locale", "split", "small_version", "large_version")
    table = _read(examples, columns)
    keep = pc.and_(
        pc.equal(_lower(table["product_locale"]), selection.locale.lower()),
        pc.equal(_lower(table["split"]), selection.split.lower()),
    )
    if selection.version is not None:
        keep = pc.and_(keep, pc.equal(pc.cast(table[f"{selection.version}_version"], "int64"), 1))
    ids = table.filter(pc.fill_null(keep, False))["product_id"]
    return {str(i).strip() for i in pc.unique(pc.cast(ids, "string")).to_pylist() if i}


def load_corpus(
    products: Path, examples: Path, selection: Selection, workdir: Path
) -> tuple[list[Item], dict[str, int]]:
    """The products to index as Items, and what loading skipped (`<source>:<reason>` counts)."""
    tally = SkipTally()
    if selection.corpus == "locale":
        return list(load_esci_products(products, selection.locale, tally=tally)), tally.counts()
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    wanted = labelled_product_ids(examples, selection)
    table = _read(products, ESCI_COLUMNS)
    keep = pc.and_(
        pc.is_in(pc.cast(table["product_id"], "string"), value_set=pa.array(sorted(wanted))),
        pc.equal(_lower(table["product_locale"]), selection.locale.lower()),
    )
    workdir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        subset = Path(tmp) / PRODUCTS_FILE
        pq.write_table(table.filter(pc.fill_null(keep, False)), subset)
        items = list(load_esci_products(subset, selection.locale, tally=tally))
    return items, tally.counts()


def _read(path: Path, columns: tuple[str, ...]) -> pa.Table:
    import pyarrow.parquet as pq

    try:
        schema = pq.read_schema(path)
    except Exception as exc:  # pyarrow raises several unrelated types for unreadable files
        raise ConfigError(f"cannot read {path}: {exc}") from exc
    missing = sorted(set(columns) - set(schema.names))
    if missing:
        raise ConfigError(f"{path} lacks the official ESCI column(s) {missing}")
    return pq.read_table(path, columns=list(columns))


def _lower(column: pa.ChunkedArray) -> pa.ChunkedArray:
    import pyarrow as pa
    import pyarrow.compute as pc

    return pc.utf8_lower(pc.utf8_trim_whitespace(pc.cast(column, pa.string())))


def _numeric(query_id: str) -> tuple[int, str]:
    return (int(query_id), "") if query_id.isdigit() else (0, query_id)


def check_selection(selection: Selection) -> None:
    """Reject a split, version or corpus the official files do not have."""
    if selection.split not in ("train", "test"):
        raise InvalidRequest(f"split must be train or test, got {selection.split!r}")
    if selection.version not in (None, "small", "large"):
        raise InvalidRequest(f"version must be small or large, got {selection.version!r}")
    if selection.corpus not in ("labelled", "locale"):
        raise InvalidRequest(f"corpus must be labelled or locale, got {selection.corpus!r}")
