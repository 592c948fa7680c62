"""The item table of a built index: every Item in one parquet file, for fast lookups.

Serving processes read items from here instead of re-parsing the datasets.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from app.catalog.item import Item

__all__ = ["read_items", "write_items"]


def write_items(path: Path, items: Sequence[Item]) -> None:
    """Write items to a parquet file (zstd-compressed)."""
    rows = [item.model_dump() for item in items]
    for row in rows:
        row["ean"] = list(row["ean"])
        row["features"] = list(row["features"])
        row["spec_text"] = list(row["spec_text"])
        row["category_path"] = list(row["category_path"])
        row["attributes"] = json.dumps(row["attributes"], ensure_ascii=False)
    pq.write_table(pa.Table.from_pylist(rows), path, compression="zstd")


def read_items(path: Path) -> dict[str, Item]:
    """Read an item table back, keyed by item_id (trusted data: no re-validation)."""
    table = pq.read_table(path)
    items: dict[str, Item] = {}
    for row in table.to_pylist():
        row["ean"] = tuple(row.get("ean") or ())
        row["features"] = tuple(row.get("features") or ())
        row["spec_text"] = tuple(row.get("spec_text") or ())
        row["category_path"] = tuple(row.get("category_path") or ())
        row["attributes"] = json.loads(row.get("attributes") or "{}")
        items[row["item_id"]] = Item.model_construct(**row)
    return items
