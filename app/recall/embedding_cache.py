"""Document vectors kept between index builds, keyed by the embedding model and a hash of each
text, so a build that changes only the lexical recipe, or a few items, embeds only the texts
it has not seen (embedding is most of a build's time on a CPU)."""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = ["CACHE_FOLDER", "CacheLookup", "EmbeddingCache", "text_key"]

log = logging.getLogger(__name__)

CACHE_FOLDER = ".embeddings"
"""Under the index root; the leading dot keeps it out of the version folders prune removes."""
_KEY_BYTES = 16


def text_key(text: str) -> bytes:
    """The key of one document text: the first 16 bytes of its SHA-256."""
    return hashlib.sha256(text.encode()).digest()[:_KEY_BYTES]


@dataclass(frozen=True)
class CacheLookup:
    """Rows for `texts`: the cached ones filled in, `missing` the indices still to embed."""

    vectors: np.ndarray
    missing: list[int]

    @classmethod
    def empty(cls, n: int, dimension: int) -> CacheLookup:
        """Nothing cached: every one of `n` rows is still to embed."""
        return cls(np.zeros((n, dimension), dtype=np.float32), list(range(n)))

    @property
    def hits(self) -> int:
        return len(self.vectors) - len(self.missing)


class EmbeddingCache:
    """One file per embedding model under `root/.embeddings`: the vectors of the last build's
    texts (float32, as the model gave them), replaced whole by each build that embeds."""

    def __init__(self, root: Path, model_id: str, dimension: int) -> None:
        name = hashlib.sha256(model_id.encode()).hexdigest()[:16]
        self.path = root / CACHE_FOLDER / f"{name}.npz"
        self.model_id = model_id
        self.dimension = dimension

    def lookup(self, texts: Sequence[str]) -> CacheLookup:
        """Cached vectors for `texts` and which texts have none (all of them when the file is
        missing, unreadable or written by another model or dimension)."""
        known = self._load()
        vectors = np.zeros((len(texts), self.dimension), dtype=np.float32)
        missing: list[int] = []
        for i, text in enumerate(texts):
            row = known.get(text_key(text))
            if row is None:
                missing.append(i)
            else:
                vectors[i] = row
        return CacheLookup(vectors, missing)

    def save(self, texts: Sequence[str], vectors: np.ndarray) -> None:
        """Replace the cache with `texts`' vectors; written to a temporary file, then renamed."""
        if len(texts) != len(vectors):
            raise ValueError(f"{len(texts)} texts but {len(vectors)} vectors")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        keys = np.frombuffer(b"".join(text_key(t) for t in texts), dtype=np.uint8)
        tmp = self.path.with_name(f".{self.path.stem}.{os.getpid()}.npz")
        np.savez(
            tmp,
            keys=keys.reshape(-1, _KEY_BYTES),
            vectors=np.asarray(vectors, dtype=np.float32),
            model_id=np.array(self.model_id),
        )
        tmp.replace(self.path)

    def _load(self) -> dict[bytes, np.ndarray]:
        if not self.path.is_file():
            return {}
        try:
            with np.load(self.path, allow_pickle=False) as data:
                keys, vectors = data["keys"], data["vectors"]
                model_id = str(data["model_id"])
        except (OSError, ValueError, KeyError) as exc:
            log.warning("ignoring unreadable embedding cache %s: %s", self.path, exc)
            return {}
        if model_id != self.model_id or vectors.ndim != 2 or vectors.shape[1] != self.dimension:
            return {}
        if keys.shape != (len(vectors), _KEY_BYTES):
            return {}
        return {k.tobytes(): vectors[i] for i, k in enumerate(keys)}
