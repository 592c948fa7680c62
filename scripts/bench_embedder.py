"""Benchmark the local embedder: catalog texts per second by device and batch size, the rate
that bounds an index build; prints JSON and appends it to bench/results.jsonl.

    .venv/bin/python scripts/bench_embedder.py [--texts FILE] [--limit N]
        [--batch-sizes 32,128] [--repeats 3] [--dump-texts FILE] [--no-record]

The texts are the index's own dense texts (title, brand, category, start of the description)
of the configured catalog, or one per line from --texts (the file --dump-texts writes), so a
machine without the datasets measures the same work. TORCH_DEVICE picks the device.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import torch

from app.config.settings import Settings
from app.eval.bench_stats import append_result, load_averages
from app.recall.local_models import FlagEmbedder

_WARM_UP_TEXTS = 256


def catalog_texts(settings: Settings) -> list[str]:
    """The dense texts the index build embeds, one per catalog item, newlines flattened."""
    from app.catalog.loader import load_catalog
    from app.config.params.index import INDEX_DESCRIPTION_CHARS
    from app.recall.index_manifest import dense_text

    catalog = load_catalog(settings.data_dir, locale=settings.esci_locale)
    chars = INDEX_DESCRIPTION_CHARS.get()
    return [" ".join(dense_text(item, chars).split()) for item in catalog.items]


def throughput(
    settings: Settings, texts: list[str], batch_size: int, repeats: int
) -> dict[str, Any]:
    """Median seconds and items per second of `repeats` passes over `texts` after a warm-up."""
    embedder = FlagEmbedder(
        settings.embedder_model,
        pooling=settings.embedder_pooling,
        max_length=settings.embedder_max_length,
        batch_size=batch_size,
        device=settings.torch_device,
    )
    embedder.encode_documents(texts[:_WARM_UP_TEXTS])
    seconds = []
    for _ in range(repeats):
        started = time.perf_counter()
        embedder.encode_documents(texts)
        seconds.append(time.perf_counter() - started)
    median = statistics.median(seconds)
    return {
        "device": embedder.device,
        "median_s": round(median, 3),
        "items_per_s": round(len(texts) / median, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=Path, help="one text per line instead of the catalog")
    parser.add_argument("--limit", type=int, help="embed only the first N texts")
    parser.add_argument("--batch-sizes", default="32", help="comma-separated, e.g. 32,128")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--dump-texts", type=Path, help="write the catalog texts and exit")
    parser.add_argument("--no-record", action="store_true", help="do not append the results")
    args = parser.parse_args(argv)

    settings = Settings()
    if args.texts is not None:
        texts = args.texts.read_text(encoding="utf-8").splitlines()
    else:
        texts = catalog_texts(settings)
    if args.dump_texts is not None:
        args.dump_texts.write_text("\n".join(texts) + "\n", encoding="utf-8")
        print(f"wrote {len(texts)} texts to {args.dump_texts}", file=sys.stderr)
        return 0
    texts = texts[: args.limit] if args.limit else texts
    sizes = [int(size) for size in args.batch_sizes.split(",")]
    payload: dict[str, Any] = {
        "items": len(texts),
        "model": settings.embedder_model,
        "torch": torch.__version__,
        "gpu": torch.cuda.get_device_name() if torch.cuda.is_available() else None,
        "cpu_threads": torch.get_num_threads(),
        "load_average": load_averages(),
        "batch_sizes": {
            str(size): throughput(settings, texts, size, args.repeats) for size in sizes
        },
    }
    if not args.no_record:
        append_result("embedder", payload)
    print(json.dumps(payload, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
