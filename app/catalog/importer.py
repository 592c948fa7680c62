"""`catalog import`: read files of any supported format row by row, validate each row as an
`Offer`, store the good ones in the imported catalog and report every bad one with its file,
row and reason. One file's bad rows never stop the others."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from app.catalog.import_feeds import GOOGLE_MAPPING, google_fields, shopify_rows
from app.catalog.import_mapping import ColumnMapping
from app.catalog.import_readers import RawRow, RowProblem, read_header, read_rows, sniff_format
from app.catalog.offer_store import Duplicate, OfferStore
from app.catalog.schema import Offer, normalise_shop
from app.config.params.catalog import IMPORT_DEFAULT_CURRENCY, IMPORT_ERRORS_LISTED
from app.errors import InvalidRequest

__all__ = [
    "FORMATS",
    "ImportFormat",
    "ImportReport",
    "RowIssue",
    "import_files",
    "offer_reason",
    "offer_rows",
]

log = logging.getLogger(__name__)

ImportFormat = Literal["auto", "jsonl", "csv", "parquet", "shopify", "google"]
FORMATS: tuple[str, ...] = ("auto", "jsonl", "csv", "parquet", "shopify", "google")


@dataclass(frozen=True)
class RowIssue:
    """One reported row: the file, its row (see `RawRow.row`) and why."""

    file: str
    row: int
    reason: str


@dataclass
class ImportReport:
    """What an import did. `imported` are new offers, `updated` changed ones, `unchanged`
    rows that re-stated a stored offer as it was; `errors` lists rejected rows (the first
    IMPORT_ERRORS_LISTED of them), `warnings` rows that imported with a caveat."""

    imported: int = 0
    updated: int = 0
    unchanged: int = 0
    rejected: int = 0
    errors: list[RowIssue] = field(default_factory=list)
    warnings: list[RowIssue] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def accepted(self) -> int:
        """Rows that validated (new, changed or unchanged)."""
        return self.imported + self.updated + self.unchanged

    def as_json(self) -> dict[str, Any]:
        """The CLI's JSON report."""
        rows = self.accepted + self.rejected
        return {
            "imported": self.imported,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "rejected": self.rejected,
            "errors": [vars(e) for e in self.errors],
            "errors_listed": len(self.errors),
            "warnings": [vars(w) for w in self.warnings],
            "seconds": round(self.seconds, 3),
            "rows_per_s": round(rows / self.seconds, 1) if self.seconds > 0 else None,
        }

    def _issue(self, target: list[RowIssue], issue: RowIssue) -> None:
        if len(target) < IMPORT_ERRORS_LISTED.get():
            target.append(issue)


def import_files(
    paths: Sequence[Path],
    store: OfferStore,
    *,
    fmt: ImportFormat = "auto",
    mapping: ColumnMapping | None = None,
    shop: str | None = None,
    currency: str | None = None,
) -> ImportReport:
    """Import every row of `paths` into `store` in one transaction; bad rows are reported
    and skipped. InvalidRequest for a problem with the request itself (unknown format,
    unreadable file, a mapped column a file lacks, a bad shop or currency)."""
    report = ImportReport()
    rows = offer_rows(paths, report, fmt=fmt, mapping=mapping, shop=shop, currency=currency)
    started = time.perf_counter()
    with store.importing() as session:
        for offer, name, row in rows:
            result = session.put(offer, name, row)
            if isinstance(result, Duplicate):
                report.rejected += 1
                reason = f"duplicate id {offer.id!r} (first at {result.file} row {result.row})"
                report._issue(report.errors, RowIssue(name, row, reason))
            else:
                setattr(report, result, getattr(report, result) + 1)
    report.seconds = time.perf_counter() - started
    log.info(
        "catalog import: %d new, %d updated, %d unchanged, %d rejected in %.1f s",
        report.imported,
        report.updated,
        report.unchanged,
        report.rejected,
        report.seconds,
    )
    return report


def offer_rows(
    paths: Sequence[Path],
    report: ImportReport,
    *,
    fmt: ImportFormat = "auto",
    mapping: ColumnMapping | None = None,
    shop: str | None = None,
    currency: str | None = None,
) -> Iterator[tuple[Offer, str, int]]:
    """Every valid row of `paths` as (offer, file, row), streamed; bad rows are counted and
    listed in `report`. The request itself (format, files, mapped columns, shop, currency)
    is checked before the first row: InvalidRequest."""
    if fmt not in FORMATS:
        raise InvalidRequest(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}")
    mapping = mapping or ColumnMapping()
    shop = _shop(shop)
    default_currency = _currency(currency or IMPORT_DEFAULT_CURRENCY.get())
    plans = [(path, *_plan(path, fmt, mapping)) for path in paths]
    return _valid_rows(plans, report, shop, default_currency)


def _valid_rows(
    plans: list[tuple[Path, Iterator[RawRow | RowProblem], ColumnMapping]],
    report: ImportReport,
    shop: str | None,
    currency: str,
) -> Iterator[tuple[Offer, str, int]]:
    for path, rows, resolved in plans:
        name = str(path)
        for raw in rows:
            if isinstance(raw, RowProblem):
                report.rejected += 1
                report._issue(report.errors, RowIssue(name, raw.row, raw.reason))
                continue
            offer = _validate(raw, resolved, shop, currency, name, report)
            if offer is not None:
                yield offer, name, raw.row


def offer_reason(exc: ValidationError) -> str:
    """A validation failure of an offer as one line (field: message; ...)."""
    return _reason(exc)


def _validate(
    raw: RawRow,
    mapping: ColumnMapping,
    shop: str | None,
    currency: str,
    name: str,
    report: ImportReport,
) -> Offer | None:
    try:
        read = mapping.row_fields(raw.values, shop, currency)
        if "shop" not in read.fields:
            raise ValueError("no shop: pass --shop or map a shop column")
        offer = Offer.model_validate(read.fields)
    except ValidationError as exc:
        report.rejected += 1
        report._issue(report.errors, RowIssue(name, raw.row, _reason(exc)))
        return None
    except ValueError as exc:
        report.rejected += 1
        report._issue(report.errors, RowIssue(name, raw.row, str(exc)))
        return None
    for warning in read.warnings:
        report._issue(report.warnings, RowIssue(name, raw.row, warning))
    return offer


def _reason(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors(include_url=False):
        where = ".".join(str(p) for p in error["loc"])
        message = error["msg"].removeprefix("Value error, ")
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts)


def _plan(
    path: Path, fmt: str, mapping: ColumnMapping
) -> tuple[Iterator[RawRow | RowProblem], ColumnMapping]:
    """The rows of one file and the mapping they are read with."""
    if not path.is_file():
        raise InvalidRequest(f"no file {path}")
    chosen = sniff_format(path) if fmt == "auto" else fmt
    name = str(path)
    if chosen == "shopify":
        return shopify_rows(path), ColumnMapping().resolve(list(Offer.model_fields), name)
    if chosen == "google":
        header = read_header(path, "\t")
        merged = ColumnMapping(
            {k: v for k, v in GOOGLE_MAPPING.fields.items() if v in header} | dict(mapping.fields),
            {k: v for k, v in GOOGLE_MAPPING.attributes.items() if v in header}
            | dict(mapping.attributes),
        )
        rows = (
            RawRow(r.row, google_fields(r.values)) if isinstance(r, RawRow) else r
            for r in read_rows(path, "tsv")
        )
        return rows, merged.resolve(header, name)
    if chosen == "jsonl":
        header = [*Offer.model_fields, *mapping.fields.values(), *mapping.attributes.values()]
        return read_rows(path, "jsonl"), mapping.resolve(header, name)
    if chosen == "parquet":
        return read_rows(path, "parquet"), mapping.resolve(_parquet_header(path), name)
    return read_rows(path, "csv"), mapping.resolve(read_header(path, ","), name)


def _parquet_header(path: Path) -> list[str]:
    import pyarrow.parquet as pq

    try:
        return list(pq.read_schema(path).names)
    except (OSError, ValueError) as exc:
        raise InvalidRequest(f"cannot read {path} as Parquet: {exc}") from exc


def _shop(shop: str | None) -> str | None:
    if shop is None:
        return None
    try:
        return normalise_shop(shop)
    except ValueError as exc:
        raise InvalidRequest(str(exc)) from exc


def _currency(code: str) -> str:
    try:
        return Offer(id="x", shop="x", title="x", price=0, currency=code).currency or code
    except ValidationError as exc:
        raise InvalidRequest(_reason(exc)) from exc
