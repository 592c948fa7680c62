"""The embedded (in-process) model backends by name, for benchmarks and tools that measure
one directly; the application picks a backend through `build_embedder`/`build_reranker`."""

from __future__ import annotations

from app.recall._flag_embedder import FlagEmbedder, resolve_model_path
from app.recall._reranker_local import LocalReranker

__all__ = ["FlagEmbedder", "LocalReranker", "resolve_model_path"]
