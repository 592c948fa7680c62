"""Reads a `query,docid,rating` judgments CSV into graded judgments keyed by catalog item id;
every bad row is reported with its line number, so a wrong file fails loudly, never silently.
An optional `source` column (who pooled and rated the pair, e.g. `human` or `llm`) is kept."""

from __future__ import annotations

import csv
from collections.abc import Container, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from app.errors import ConfigError, InvalidRequest

REQUIRED_COLUMNS = ("query", "docid", "rating")
ORIGIN_COLUMN = "source"
MIN_RATING, MAX_RATING = 0, 3
_ERRORS_SHOWN = 10


@dataclass(frozen=True)
class Judgments:
    """Ratings per query and item id. Unjudged items count as not relevant.

    `merged` counts docids that catalog dedupe folded into another item (the higher rating
    is kept when two judged docids land on one item); `unknown` lists judged item ids the
    index does not hold (dropped: no configuration can retrieve them). `origins` holds the
    file's `source` column per query and item (empty when the file has none).
    """

    graded: Mapping[str, Mapping[str, int]]
    source: str
    rows: int
    merged: int = 0
    unknown: tuple[str, ...] = ()
    queries_in_file: int = field(default=0)
    origins: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def queries_with(self, min_rating: int) -> list[str]:
        """Queries with at least one judgment rated `min_rating` or more, sorted."""
        return sorted(q for q, g in self.graded.items() if any(r >= min_rating for r in g.values()))

    def judged(self, query: str) -> Mapping[str, int]:
        """Item id -> rating of one query (empty when the query is unknown)."""
        return self.graded.get(query, {})

    def origin(self, query: str, item: str) -> str | None:
        """Who pooled and rated (query, item), from the `source` column; None without one."""
        return self.origins.get(query, {}).get(item)


@dataclass(frozen=True)
class JudgmentRows:
    """The validated rows of one file, before docids become item ids; `origins` maps a
    (query, docid) to its non-blank `source` column value."""

    source: str
    rows: tuple[tuple[str, str, int], ...]
    origins: Mapping[tuple[str, str], str] = field(default_factory=dict)


def read_judgment_rows(path: Path) -> JudgmentRows:
    """Parse and validate `path` (cheap: run it before opening an index).

    Raises ConfigError when the file is missing and InvalidRequest (listing the first bad
    rows with line numbers) for a wrong header, a blank query or docid, a rating that is not
    an integer 0-3, or one (query, docid) rated twice differently.
    """
    if not path.is_file():
        raise ConfigError(f"judgments file not found: {path}")
    rows, origins, errors = _read_rows(path)
    if errors:
        shown = "; ".join(errors[:_ERRORS_SHOWN])
        more = f" (and {len(errors) - _ERRORS_SHOWN} more)" if len(errors) > _ERRORS_SHOWN else ""
        raise InvalidRequest(f"{path}: {len(errors)} bad row(s): {shown}{more}")
    if not rows:
        raise InvalidRequest(f"{path}: no judgments (only a header)")
    return JudgmentRows(str(path), tuple(rows), origins)


def resolve_judgments(
    rows: JudgmentRows,
    *,
    id_prefix: str = "icecat:",
    aliases: Mapping[str, str] | None = None,
    known: Container[str] | None = None,
) -> Judgments:
    """Docid `D` becomes item id `<id_prefix>D`, then its dedupe alias; items not `known`
    are dropped and listed. InvalidRequest when no judged item is known at all."""
    aliases = aliases or {}
    graded: dict[str, dict[str, int]] = {}
    origins: dict[str, dict[str, str]] = {}
    merged: set[str] = set()
    unknown: set[str] = set()
    for query, docid, rating in rows.rows:
        raw_id = f"{id_prefix}{docid}"
        item_id = aliases.get(raw_id, raw_id)
        if item_id != raw_id:
            merged.add(raw_id)
        if known is not None and item_id not in known:
            unknown.add(item_id)
            continue
        grades = graded.setdefault(query, {})
        origin = rows.origins.get((query, docid))
        if origin is not None and (item_id not in grades or rating > grades[item_id]):
            origins.setdefault(query, {})[item_id] = origin  # the kept rating's origin
        grades[item_id] = max(rating, grades.get(item_id, MIN_RATING))
    if not graded:
        raise InvalidRequest(
            f"{rows.source}: none of the {len(rows.rows)} judged docids is in the index as "
            f"'{id_prefix}<docid>'; check the platform / id prefix"
        )
    return Judgments(
        graded={q: dict(g) for q, g in sorted(graded.items())},
        source=rows.source,
        rows=len(rows.rows),
        merged=len(merged),
        unknown=tuple(sorted(unknown)),
        queries_in_file=len({q for q, _, _ in rows.rows}),
        origins=origins,
    )


def read_judgments(
    path: Path,
    *,
    id_prefix: str = "icecat:",
    aliases: Mapping[str, str] | None = None,
    known: Container[str] | None = None,
) -> Judgments:
    """`read_judgment_rows` then `resolve_judgments`."""
    rows = read_judgment_rows(path)
    return resolve_judgments(rows, id_prefix=id_prefix, aliases=aliases, known=known)


def _read_rows(
    path: Path,
) -> tuple[list[tuple[str, str, int]], dict[tuple[str, str], str], list[str]]:
    """Valid rows, their origins and a message per bad one; a repeated identical row is read
    once."""
    rows: list[tuple[str, str, int]] = []
    origins: dict[tuple[str, str], str] = {}
    errors: list[str] = []
    seen: dict[tuple[str, str], tuple[int, int]] = {}
    with path.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        header = [h.strip() for h in reader.fieldnames or []]
        missing = [c for c in REQUIRED_COLUMNS if c not in header]
        if missing:
            raise InvalidRequest(
                f"{path}: header {header} lacks column(s) {missing}; expected "
                f"{','.join(REQUIRED_COLUMNS)}"
            )
        reader.fieldnames = header
        for row in reader:
            line = reader.line_num
            parsed = _parse_row(row, line, errors)
            if parsed is None:
                continue
            query, docid, rating = parsed
            earlier = seen.get((query, docid))
            if earlier is not None:
                if earlier[1] != rating:
                    errors.append(
                        f"line {line}: ({query!r}, {docid!r}) rated {rating}, but "
                        f"{earlier[1]} on line {earlier[0]}"
                    )
                continue
            seen[(query, docid)] = (line, rating)
            rows.append(parsed)
            origin = (row.get(ORIGIN_COLUMN) or "").strip()
            if origin:
                origins[(query, docid)] = origin
    return rows, origins, errors


def _parse_row(
    row: Mapping[str, str | None], line: int, errors: list[str]
) -> tuple[str, str, int] | None:
    if None in row:
        errors.append(f"line {line}: more fields than the header")
        return None
    query = " ".join((row.get("query") or "").split())
    docid = (row.get("docid") or "").strip()
    text = (row.get("rating") or "").strip()
    if not query:
        errors.append(f"line {line}: blank query")
        return None
    if not docid or any(c.isspace() for c in docid):
        errors.append(f"line {line}: docid {docid!r} is blank or has spaces")
        return None
    try:
        rating = int(text)
    except ValueError:
        errors.append(f"line {line}: rating {text!r} is not an integer")
        return None
    if not MIN_RATING <= rating <= MAX_RATING:
        errors.append(f"line {line}: rating {rating} is outside {MIN_RATING}-{MAX_RATING}")
        return None
    return query, docid, rating
