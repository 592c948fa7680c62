"""Train the cross-encoder reranker (same as `pickwise models train-reranker`).

    .venv/bin/python scripts/train_reranker.py [--small] [--force] [--json] [--layers N]

Writes `var/models/reranker-<hash>/`; a second run with the same data and config reuses it.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
# OpenMP threads that spin while waiting make torch many times slower when another process
# holds a core of a small shared machine; waiting passively costs little when idle.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from app.config.settings import Settings
from app.recall.reranker_training import RerankerTrainConfig, train_reranker


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="the quick test configuration")
    parser.add_argument("--force", action="store_true", help="retrain even when it exists")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--epochs", type=int)
    parser.add_argument("--layers", type=int)
    parser.add_argument("--max-length", type=int)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    config = RerankerTrainConfig.small() if args.small else RerankerTrainConfig.default()
    overrides: dict[str, Any] = {
        "seed": args.seed,
        "epochs": args.epochs,
        "layers": args.layers,
        "max_length": args.max_length,
    }
    config = config.replace(**{k: v for k, v in overrides.items() if v is not None})
    report = train_reranker(Settings(), config, show_progress=not args.json, force=args.force)
    if args.json:
        print(json.dumps(report.as_dict(), indent=2))
    else:
        print("\n".join(report.summary_lines()))


if __name__ == "__main__":
    main()
