"""The embedded (in-process) backends by name: the bundled embedder, the local cross-encoder
and the Qdrant Edge store, for benchmarks and tools that measure one directly; the
application picks a backend through `build_embedder`, `build_reranker`, `open_vector_store`."""

from __future__ import annotations

from app.recall._edge_store import EdgeVectorStore
from app.recall._flag_embedder import FlagEmbedder, resolve_model_path
from app.recall._reranker_local import LocalReranker

__all__ = ["EdgeVectorStore", "FlagEmbedder", "LocalReranker", "resolve_model_path"]
