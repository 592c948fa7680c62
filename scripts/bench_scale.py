"""The store-only scale curve alone (also `pickwise bench --scale SIZES`, section
catalog.scale): filtered vector search (exact, HNSW, quantized), lexical search and memory at
growing synthetic catalogs (demo titles recombined, random or real-ish vectors), logged to
bench/results.jsonl.

    .venv/bin/python scripts/bench_scale.py [--sizes 30000,100000,300000,1000000] [--queries 200]
        [--hnsw-m 16] [--payload-m 0] [--quantization none|scalar|binary] [--oversampling 4]
        [--vectors real] [--no-lexical]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench_common import append_result

from app.config import get_settings
from app.config.params.index import QUANTIZATIONS
from app.eval.bench_scale import HNSW_M, SIZES, VECTOR_KINDS, bench_scale

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(str(s) for s in SIZES))
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--hnsw-m", type=int, default=HNSW_M, help="0: exact scan only")
    parser.add_argument(
        "--payload-m", type=int, default=0, help="links of the per-payload-value graphs"
    )
    parser.add_argument("--quantization", choices=QUANTIZATIONS, help="default: INDEX_QUANTIZATION")
    parser.add_argument("--oversampling", type=float, help="default: VECTOR_OVERSAMPLING")
    parser.add_argument(
        "--vectors", choices=VECTOR_KINDS, default="random", help="real: needs a built index"
    )
    parser.add_argument("--no-lexical", action="store_true", help="vector store only")
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    report = bench_scale(
        get_settings(),
        sizes,
        queries=args.queries,
        hnsw_m=args.hnsw_m,
        payload_m=args.payload_m,
        quantization=args.quantization,
        oversampling=args.oversampling,
        vectors=args.vectors,
        lexical=not args.no_lexical,
    )
    if not args.no_record:
        append_result("scale", report)
    print(json.dumps(report, indent=2))
