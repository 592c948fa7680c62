"""Print the live-update figure alone: `python scripts/bench_live.py [--repeats N]` (the same
numbers `pickwise bench --json` reports in its `catalog` section)."""

from __future__ import annotations

import argparse
import json

from app.config.settings import get_settings
from app.eval.bench_live import bench_live


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(json.dumps(bench_live(get_settings(), repeats=args.repeats), indent=2))


if __name__ == "__main__":
    main()
