"""Streaming row readers of import files (JSONL, CSV, tab-separated, Parquet): one raw row at
a time with its row number, so a file of any size is read in bounded memory. A row that
cannot be read (bad UTF-8, bad JSON) comes out as a `RowProblem` and the reading goes on."""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from app.errors import InvalidRequest

__all__ = ["RawRow", "RowProblem", "read_header", "read_rows", "sniff_format"]

_PARQUET_BATCH = 4_096
csv.field_size_limit(min(sys.maxsize, 1 << 30))


@dataclass(frozen=True)
class RawRow:
    """One row as the file holds it: column -> value. `row` is the file line where the
    record starts (the header is line 1) or, in Parquet, the 1-based record number."""

    row: int
    values: dict[str, Any]


@dataclass(frozen=True)
class RowProblem:
    """A row that could not be read at all."""

    row: int
    reason: str


def sniff_format(path: Path) -> str:
    """The format `auto` means for a file: by suffix, and a CSV or TSV header for Shopify's
    export or a Google Merchant feed."""
    suffix = path.suffix.lower()
    if suffix in {".jsonl", ".ndjson", ".json"}:
        return "jsonl"
    if suffix in {".parquet", ".pq"}:
        return "parquet"
    header = read_header(path, "\t" if suffix in {".tsv", ".txt"} else ",")
    if {"Handle", "Title", "Variant Price"} <= set(header):
        return "shopify"
    if suffix in {".tsv", ".txt"}:
        return "google"
    return "csv"


def read_header(path: Path, delimiter: str) -> list[str]:
    """The column names of a delimited file (a BOM and `g:` prefixes dropped)."""
    with _open_text(path) as handle:
        first = next(csv.reader(handle, delimiter=delimiter), [])
    return [_column(name) for name in first]


def read_rows(path: Path, fmt: str) -> Iterator[RawRow | RowProblem]:
    """Rows of `path` read as `fmt` (jsonl, csv, tsv or parquet)."""
    if fmt == "jsonl":
        yield from _jsonl(path)
    elif fmt == "parquet":
        yield from _parquet(path)
    elif fmt in {"csv", "tsv"}:
        yield from _delimited(path, "," if fmt == "csv" else "\t")
    else:
        raise InvalidRequest(f"no row reader for format {fmt!r}")


def _open_text(path: Path) -> Any:
    try:
        return path.open(encoding="utf-8-sig", errors="surrogateescape", newline="")
    except OSError as exc:
        raise InvalidRequest(f"cannot read {path}: {exc.strerror or exc}") from exc


def _column(name: str) -> str:
    name = name.strip()
    return name[2:] if name.startswith("g:") else name


def _delimited(path: Path, delimiter: str) -> Iterator[RawRow | RowProblem]:
    with _open_text(path) as handle:
        reader = csv.reader(handle, delimiter=delimiter)
        header = [_column(c) for c in next(reader, [])]
        if not header:
            return
        start = reader.line_num + 1
        for record in reader:
            row, start = start, reader.line_num + 1
            if not any(v.strip() for v in record):
                continue
            try:
                "\x1f".join(record).encode("utf-8")
            except UnicodeEncodeError:
                bad = next(c for c, v in zip(header, record, strict=False) if _not_utf8(v))
                yield RowProblem(row, f"column {bad!r} is not valid UTF-8")
                continue
            if len(record) > len(header):
                yield RowProblem(row, f"{len(record)} values for {len(header)} columns")
                continue
            yield RawRow(row, dict(zip(header, record, strict=False)))


def _not_utf8(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _jsonl(path: Path) -> Iterator[RawRow | RowProblem]:
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise InvalidRequest(f"cannot read {path}: {exc.strerror or exc}") from exc
    with handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                value = json.loads(line.decode("utf-8"))
            except UnicodeDecodeError:
                yield RowProblem(number, "line is not valid UTF-8")
                continue
            except ValueError as exc:
                yield RowProblem(number, f"not JSON: {exc}")
                continue
            if not isinstance(value, dict):
                yield RowProblem(number, "not a JSON object")
                continue
            yield RawRow(number, value)


def _parquet(path: Path) -> Iterator[RawRow | RowProblem]:
    try:
        source = pq.ParquetFile(path)
    except (OSError, ValueError) as exc:
        raise InvalidRequest(f"cannot read {path} as Parquet: {exc}") from exc
    number = 0
    for batch in source.iter_batches(batch_size=_PARQUET_BATCH):
        for values in batch.to_pylist():
            number += 1
            yield RawRow(number, values)
