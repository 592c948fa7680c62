"""`make demo`: build what is missing, show searches and six conversations through the offline
agent, run the recall smoke test, and exit 0 only if `demo_thresholds.json` holds.

    .venv/bin/python scripts/demo.py [--smoke] [--prepare-only] [--thresholds FILE]

`--smoke` keeps any trained reranker (none: trains the quick small recipe) instead of
ensuring the default recipe's model;
`--prepare-only` builds the index and the reranker when missing, then stops (`make test`).
Exit codes: 0 every check held, 1 a check failed (named on the last lines), 2 it could not run.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import traceback
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from app.config import get_settings
from app.errors import PickwiseError
from app.eval.demo import ERROR, DemoOptions, offline, prepare, run_demo
from app.runtime_agent import build_agent

THRESHOLDS = Path(__file__).resolve().with_name("demo_thresholds.json")


def echo(line: str) -> None:
    print(line, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true", help="keep any trained reranker")
    parser.add_argument("--prepare-only", action="store_true", help="build what is missing")
    parser.add_argument("--thresholds", type=Path, default=THRESHOLDS)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("bm25s").setLevel(logging.WARNING)
    settings = get_settings()
    if args.prepare_only:
        try:
            prepare(offline(settings), smoke=args.smoke, echo=echo)
        except PickwiseError as exc:
            echo(f"error: {exc}")
            return ERROR
        return 0
    options = DemoOptions(thresholds=args.thresholds, smoke=args.smoke)
    try:
        return run_demo(settings, options, build_agent, echo)
    except Exception:  # a crash must not read as a failed check (exit 1)
        traceback.print_exc()
        return ERROR


if __name__ == "__main__":
    sys.exit(main())
