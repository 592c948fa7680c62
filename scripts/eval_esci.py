"""Recall evaluation on the official ESCI files (same as `pickwise eval esci`).

    .venv/bin/python scripts/eval_esci.py ESCI_DIR [--build-index] [--split test]
        [--version small|large] [--k 10] [--gates gates.toml] [--gate hybrid.recall@10=0.3]

Prints the JSON report. Exit code 0: every gate held; 1: below a gate; 2: missing data or
services (files, columns, index, model, a remote engine), with a one-line message.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from app.config.settings import get_settings
from app.errors import PickwiseError
from app.eval.esci_eval import EsciEvalOptions, load_gates, run_esci_eval


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("esci_dir", type=Path, help="folder with the two official parquet files")
    parser.add_argument("--split", default="test", choices=["test", "train"])
    parser.add_argument("--version", choices=["small", "large"], help="default: all examples")
    parser.add_argument("--locale", default="us")
    parser.add_argument("--corpus", default="labelled", choices=["labelled", "locale"])
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--build-index", action="store_true")
    parser.add_argument("--max-queries", type=int)
    parser.add_argument("--var-dir", type=Path, help="default: var/esci/<selection>")
    parser.add_argument("--gates", type=Path, help="JSON or TOML {config: {metric: minimum}}")
    parser.add_argument("--gate", action="append", default=[], help="config.metric=minimum")
    parser.add_argument("--output", type=Path, help="also write the JSON report here")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        options = EsciEvalOptions(
            esci_dir=args.esci_dir,
            locale=args.locale,
            split=args.split,
            version=args.version,
            corpus=args.corpus,
            k=args.k,
            build_index=args.build_index,
            max_queries=args.max_queries,
            var_dir=args.var_dir,
            gates=load_gates(args.gates, args.gate),
        )
        report = run_esci_eval(get_settings(), options)
    except PickwiseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    text = json.dumps(report, indent=2, ensure_ascii=False)
    if args.output is not None:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text)
    print(text)
    for failure in report["gates"]["failures"]:
        print(f"below gate: {failure}", file=sys.stderr)
    return 0 if report["gates"]["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
