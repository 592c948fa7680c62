"""Loads Amazon ESCI products (official parquet schema, or the CSV/JSONL samples) into `Item`s.

ESCI has no prices, ratings, images or categories; one locale is kept and each product_id
becomes `amazon:<product_id>` once, whichever file names it first.
"""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import ValidationError

from app.catalog._tally import SkipTally
from app.catalog.item import Item
from app.catalog.text import clean_text
from app.errors import ConfigError

__all__ = [
    "ESCI_COLUMNS",
    "ESCI_SAMPLE_FILES",
    "Row",
    "esci_description",
    "esci_item",
    "load_esci_csv",
    "load_esci_products",
    "load_esci_samples",
    "load_vespa_products",
]

ESCI_COLUMNS: tuple[str, ...] = (
    "product_id",
    "product_title",
    "product_description",
    "product_bullet_point",
    "product_brand",
    "product_color",
    "product_locale",
)
ESCI_SAMPLE_FILES: tuple[str, ...] = (
    "grandi9/sample_2c_full_data.csv",
    "vespa/sample-products.jsonl",
    "jahnavi/esci_E_exact_matches_sample100.csv",
)
_VESPA_FIELDS = {
    "id": "product_id",
    "title": "product_title",
    "description": "product_description",
    "bullets": "product_bullet_point",
    "brand": "product_brand",
    "color": "product_color",
    "locale": "product_locale",
}


class _Skip(NamedTuple):
    reason: str
    detail: str = ""


Row = Mapping[str, Any]


def esci_description(description: object, bullets: object) -> str:
    """Description then bullet points, one per line, each stripped of HTML."""
    parts = [clean_text(description)]
    if isinstance(bullets, str):
        parts.extend(clean_text(line) for line in bullets.splitlines())
    return "\n".join(part for part in parts if part)


def esci_item(row: Row, source: str) -> Item | _Skip:
    """One row in the official products schema as an Item, or why it cannot be one."""
    product_id = clean_text(row.get("product_id"))
    if not product_id:
        return _Skip("no_id", clean_text(row.get("product_title"))[:80])
    title = clean_text(row.get("product_title"))
    if not title:
        return _Skip("no_title", product_id)
    try:
        return Item(
            item_id=f"amazon:{product_id}",
            platform="amazon",
            title=title,
            brand=clean_text(row.get("product_brand")) or None,
            color=clean_text(row.get("product_color")) or None,
            description=esci_description(
                row.get("product_description"), row.get("product_bullet_point")
            ),
            source=source,
        )
    except ValidationError as exc:
        return _Skip("invalid_item", f"{product_id}: {exc.errors()[0]['msg']}")


class _Collected(NamedTuple):
    items: list[Item]
    other_locale: int
    repeated: int


def _collect(rows: Iterable[Row | _Skip], locale: str, source: str, tally: SkipTally) -> _Collected:
    """Items of one source's rows in `locale`, first row per product_id."""
    items: dict[str, Item] = {}
    other_locale = repeated = 0
    for row in rows:
        if isinstance(row, _Skip):
            tally.skip(source, row.reason, row.detail)
            continue
        row_locale = clean_text(row.get("product_locale")).lower()
        if not row_locale:
            tally.skip(source, "no_locale", clean_text(row.get("product_id")))
            continue
        if row_locale != locale:
            other_locale += 1
            continue
        item = esci_item(row, source)
        if isinstance(item, _Skip):
            tally.skip(source, item.reason, item.detail)
        elif item.item_id in items:
            repeated += 1
        else:
            items[item.item_id] = item
    return _Collected(list(items.values()), other_locale, repeated)


def _summarised(collected: _Collected, source: str, tally: SkipTally) -> list[Item]:
    tally.summarise(
        source,
        len(collected.items),
        other_locale_rows=collected.other_locale,
        repeated_product_rows=collected.repeated,
    )
    return collected.items


def _require(path: Path, columns: Iterable[str], have: Iterable[str]) -> None:
    missing = sorted(set(columns) - set(have))
    if missing:
        raise ConfigError(f"{path} lacks the ESCI product columns {missing}")


def _csv_rows(path: Path) -> Iterator[Row]:
    csv.field_size_limit(sys.maxsize)
    with path.open(encoding="utf-8", newline="", errors="replace") as handle:
        reader = csv.DictReader(handle)
        _require(path, ESCI_COLUMNS, reader.fieldnames or ())
        yield from reader


def _vespa_rows(path: Path) -> Iterator[Row | _Skip]:
    with path.open(encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                document = json.loads(line)
            except json.JSONDecodeError as exc:
                yield _Skip("bad_json", f"line {number}: {exc}")
                continue
            fields = document.get("fields") if isinstance(document, dict) else None
            if not isinstance(fields, dict):
                yield _Skip("malformed_row", f"line {number}: no 'fields' object")
                continue
            row = {column: fields.get(name) for name, column in _VESPA_FIELDS.items()}
            if not row["product_id"] and isinstance(document.get("put"), str):
                row["product_id"] = document["put"].rpartition("::")[2]
            yield row


def load_esci_csv(path: Path, locale: str, tally: SkipTally, source: str) -> list[Item]:
    """Items of a CSV sample carrying the official product columns (extra columns ignored)."""
    return _summarised(_collect(_csv_rows(path), locale.lower(), source, tally), source, tally)


def load_vespa_products(path: Path, locale: str, tally: SkipTally) -> list[Item]:
    """Items of a vespa feed (`{"put": "id:…::<id>", "fields": {id, title, bullets, …}}`)."""
    source = "esci-vespa"
    return _summarised(_collect(_vespa_rows(path), locale.lower(), source, tally), source, tally)


def load_esci_samples(esci_dir: Path, locale: str, tally: SkipTally) -> list[Item]:
    """Items of the three `esci-sample/` files, deduplicated by product_id (first file wins)."""
    grandi9, vespa, jahnavi = (esci_dir / name for name in ESCI_SAMPLE_FILES)
    loaded = [
        *load_esci_csv(grandi9, locale, tally, "esci-grandi9"),
        *load_vespa_products(vespa, locale, tally),
        *load_esci_csv(jahnavi, locale, tally, "esci-jahnavi"),
    ]
    unique: dict[str, Item] = {}
    for item in loaded:
        unique.setdefault(item.item_id, item)
    return list(unique.values())


def load_esci_products(
    path: Path, locale: str = "us", *, tally: SkipTally | None = None
) -> tuple[Item, ...]:
    """Items of an official `shopping_queries_dataset_products.parquet` in one locale.

    Raises ConfigError when the file is missing or lacks the official columns.
    """
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    if not path.is_file():
        raise ConfigError(f"ESCI products file not found: {path}")
    try:
        parquet = pq.ParquetFile(path)
    except Exception as exc:  # pyarrow raises several unrelated types for unreadable files
        raise ConfigError(f"cannot read ESCI products parquet {path}: {exc}") from exc
    _require(path, ESCI_COLUMNS, parquet.schema_arrow.names)

    locale = locale.lower()
    other_locale = 0

    def rows() -> Iterator[Row]:
        nonlocal other_locale
        for batch in parquet.iter_batches(batch_size=65_536, columns=list(ESCI_COLUMNS)):
            # rows of another locale are only counted; rows with none go on to be skipped
            as_text = pc.cast(batch["product_locale"], pa.string())  # may be dictionary-encoded
            row_locale = pc.utf8_lower(pc.utf8_trim_whitespace(as_text))
            wanted = pc.or_(pc.equal(row_locale, locale), pc.equal(row_locale, ""))
            kept = batch.filter(pc.fill_null(wanted, True))
            other_locale += batch.num_rows - kept.num_rows
            yield from kept.to_pylist()

    source = "esci-products"
    tally = tally or SkipTally()
    collected = _collect(rows(), locale, source, tally)
    collected = collected._replace(other_locale=collected.other_locale + other_locale)
    return tuple(_summarised(collected, source, tally))
