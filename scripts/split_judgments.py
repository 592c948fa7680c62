"""Split a judgments CSV by query into a tuning half and a held-out half, the same way on any
machine: a query is held out when the first byte of the SHA-256 of its text is odd.

    .venv/bin/python scripts/split_judgments.py JUDGMENTS.csv OUT_DIR

Writes OUT_DIR/<stem>_tune.csv and OUT_DIR/<stem>_heldout.csv (every column kept). Decisions
are taken on the tuning half only; the held-out half is read once, to report.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
from pathlib import Path


def held_out(query: str) -> bool:
    """Whether the query belongs to the held-out half."""
    return hashlib.sha256(query.encode("utf-8")).digest()[0] % 2 == 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("judgments", type=Path)
    parser.add_argument("out_dir", type=Path)
    args = parser.parse_args()
    with args.judgments.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        fields = list(reader.fieldnames or [])
        rows = list(reader)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    for half, keep in (("tune", False), ("heldout", True)):
        path = args.out_dir / f"{args.judgments.stem}_{half}.csv"
        chosen = [row for row in rows if held_out(row["query"]) == keep]
        with path.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=fields)
            writer.writeheader()
            writer.writerows(chosen)
        print(f"{path}: {len({r['query'] for r in chosen})} queries, {len(chosen)} rows")


if __name__ == "__main__":
    main()
