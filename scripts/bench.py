"""Every benchmark in one run (same as `pickwise bench`): index build, item_search cold/warm,
single flight, the relevance gate for 15 candidates and whole offline turns; medians over
repeats, with the load average, appended to bench/results.jsonl with the git commit.

    .venv/bin/python scripts/bench.py [--repeats 3] [--rebuild] [--no-record] [--json]
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from app.cli.main import main

if __name__ == "__main__":
    sys.argv = [sys.argv[0], "bench", *sys.argv[1:]]
    main()
