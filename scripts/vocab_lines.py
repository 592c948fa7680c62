"""Prints the issue-30 vocabulary measure as JSON: hand-typed vocabulary lines per file in
app/ and harness/, their total, and the data/lexicon files and entries that replace them."""

from __future__ import annotations

import json
from pathlib import Path

from app.language.vocabulary_measure import measure


def main() -> None:
    """Measure the repository this script sits in."""
    print(json.dumps(measure(Path(__file__).resolve().parents[1]), indent=2))


if __name__ == "__main__":
    main()
