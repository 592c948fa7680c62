"""Index build figures shared by `scripts/bench_index.py` and `pickwise bench`: a timed full
build into a scratch folder (the real index is left alone), or the last recorded build."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from app.config.settings import Settings
from app.recall.index_build import build_index
from app.recall.index_manifest import current_paths

__all__ = ["bench_build", "last_build"]


def bench_build(settings: Settings, *, show_progress: bool = False) -> dict[str, Any]:
    """Build the full index into a fresh folder and report time and throughput."""
    with tempfile.TemporaryDirectory(prefix="pickwise-bench-") as tmp:
        fresh = settings.model_copy(update={"var_dir": Path(tmp)})
        started = time.perf_counter()
        report = build_index(fresh, show_progress=show_progress, reuse_embeddings=False)
        total = time.perf_counter() - started
    m = report.manifest
    return {
        "items": m.items,
        "build_s": round(total, 1),
        "embed_s": m.embed_s,
        "items_per_s": round(m.items / total, 1),
        "reused_vectors": 0,
        "source": "rebuilt now",
    }


def last_build(settings: Settings) -> dict[str, Any]:
    """The figures recorded by the build of the index in use (read from its manifest); a
    build that took vectors from the embedding cache says how many, as its time is no
    measure of embedding."""
    manifest = current_paths(settings.index_dir).read_manifest()
    source = f"manifest of {manifest.version} built {manifest.built_at}"
    if manifest.reused_vectors:
        source += f", {manifest.reused_vectors} vectors from the embedding cache"
    return {
        "items": manifest.items,
        "build_s": manifest.build_s,
        "embed_s": manifest.embed_s,
        "items_per_s": manifest.items_per_s,
        "reused_vectors": manifest.reused_vectors,
        "source": source,
    }
