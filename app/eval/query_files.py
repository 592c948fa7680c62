"""Fixed query lists of the benchmarks and the demo, read from data/queries/*.txt: test
inputs kept as data beside the lexicon, not typed into the code."""

from __future__ import annotations

from pathlib import Path

from app.errors import ConfigError

__all__ = ["QUERIES_DIR", "read_queries"]

QUERIES_DIR = Path(__file__).resolve().parents[2] / "data" / "queries"


def read_queries(name: str, directory: Path = QUERIES_DIR) -> tuple[str, ...]:
    """The queries of `directory/name.txt`, one a line, in file order; `#` lines and blank
    lines are skipped."""
    path = directory / f"{name}.txt"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read the query file {path}: {exc}") from exc
    queries = tuple(
        line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")
    )
    if not queries:
        raise ConfigError(f"the query file {path} holds no queries")
    return queries
