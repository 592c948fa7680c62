"""The `Reranker` protocol, the score cache both backends share, and `build_reranker`.

A reranker scores (query, document) pairs in [0, 1] (the sigmoid of a cross-encoder logit).
`score` blocks: the local model runs in the calling thread, so async code awaits `ascore`
instead, which runs the local model via `asyncio.to_thread` and sends a remote request
through the "reranker" circuit breaker without blocking the event loop.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from app.config.params.reranker import RERANKER_CACHE_SIZE, RERANKER_MAX_DOCUMENTS
from app.config.settings import Settings
from app.errors import ConfigError, InvalidRequest
from app.recall._cache_lru import TtlLru

__all__ = [
    "HELDOUT_FILE",
    "MODEL_PREFIX",
    "TRAINING_FILE",
    "Reranker",
    "ScoreCache",
    "build_reranker",
    "check_request",
    "heldout_auc",
    "heldout_rows",
    "local_model_dir",
    "merged",
    "missing",
    "trained_models",
]

MODEL_PREFIX = "reranker-"
TRAINING_FILE = "training.json"
HELDOUT_FILE = "heldout.jsonl"
"""The held-out pairs a trained model folder keeps, with their labels and scores."""
_TRAIN_HINT = "run `pickwise models train-reranker`"


@runtime_checkable
class Reranker(Protocol):
    """Scores how well each document answers a query: one score in [0, 1] per document,
    in the documents' order."""

    model_id: str
    remote: bool

    def score(self, query: str, documents: Sequence[str]) -> list[float]:
        """Blocking; CPU-bound for the local model. Async code awaits `ascore`."""
        ...

    async def ascore(self, query: str, documents: Sequence[str]) -> list[float]:
        """The same scores without blocking the event loop."""
        ...


def check_request(query: str, documents: Sequence[str]) -> None:
    """Reject what no backend should score: a blank query or too many documents."""
    if not query.strip():
        raise InvalidRequest("the rerank query is empty")
    limit = RERANKER_MAX_DOCUMENTS.get()
    if len(documents) > limit:
        raise InvalidRequest(
            f"{len(documents)} documents in one rerank call; at most {limit} "
            "(parameter RERANKER_MAX_DOCUMENTS)"
        )


class ScoreCache:
    """Scores of (query, document) pairs already seen, LRU-bounded by RERANKER_CACHE_SIZE."""

    def __init__(self) -> None:
        self._lru: TtlLru[float] = TtlLru()

    @staticmethod
    def _key(query: str, document: str) -> str:
        return f"{query}\x1f{document}"

    def lookup(self, query: str, documents: Sequence[str]) -> list[float | None]:
        """The cached score of each document, None where unknown."""
        if RERANKER_CACHE_SIZE.get() == 0:
            return [None] * len(documents)
        return [self._lru.get(self._key(query, d)) for d in documents]

    def store(self, query: str, documents: Sequence[str], scores: Sequence[float]) -> None:
        """Remember freshly computed scores."""
        size = RERANKER_CACHE_SIZE.get()
        if size == 0:
            return
        for document, value in zip(documents, scores, strict=True):
            self._lru.put(self._key(query, document), value, ttl_s=math.inf, max_entries=size)

    def clear(self) -> None:
        self._lru.clear()

    def __len__(self) -> int:
        return len(self._lru)


def missing(cached: Sequence[float | None], documents: Sequence[str]) -> list[str]:
    """Distinct documents without a cached score, in first-seen order."""
    return list(dict.fromkeys(d for d, s in zip(documents, cached, strict=True) if s is None))


def merged(
    cached: Sequence[float | None], documents: Sequence[str], fresh: dict[str, float]
) -> list[float]:
    """Cached and freshly computed scores, in the documents' order."""
    return [fresh[d] if s is None else s for d, s in zip(documents, cached, strict=True)]


def trained_models(models_dir: Path, prefix: str = MODEL_PREFIX) -> list[Path]:
    """Finished `<prefix>*` model folders (the gate's `reranker-*` by default) under
    `models_dir`, newest first."""
    found: list[tuple[str, Path]] = []
    for folder in models_dir.glob(f"{prefix}*"):
        record = folder / TRAINING_FILE
        if folder.is_dir() and record.is_file():
            try:
                finished = str(json.loads(record.read_text()).get("finished_at", ""))
            except (OSError, ValueError):
                continue
            found.append((finished, folder))
    return [folder for _, folder in sorted(found, reverse=True)]


def local_model_dir(settings: Settings) -> Path:
    """`RERANKER_MODEL` when set, else the newest trained model; ConfigError when none."""
    if settings.reranker_model:
        folder = Path(settings.reranker_model)
        if not (folder / "config.json").is_file():
            raise ConfigError(
                f"RERANKER_MODEL={folder} is not a trained cross-encoder folder; {_TRAIN_HINT}"
            )
        return folder
    models = trained_models(settings.models_dir)
    if not models:
        raise ConfigError(f"no trained reranker under {settings.models_dir}; {_TRAIN_HINT}")
    auc = heldout_auc(models[0])
    if auc is not None and auc < settings.reranker_min_auc:
        raise ConfigError(
            f"the newest trained reranker {models[0].name} has held-out AUC {auc:.3f}, under "
            f"RERANKER_MIN_AUC {settings.reranker_min_auc}: too few labelled pairs to judge "
            "relevance (a catalog with more items per category trains a better one)"
        )
    return models[0]


def heldout_rows(model_dir: Path) -> list[dict[str, Any]]:
    """The held-out pairs a trained model folder keeps (query, title, label, score), one JSON
    object per line."""
    lines = (model_dir / HELDOUT_FILE).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def heldout_auc(model_dir: Path) -> float | None:
    """The held-out AUC its training recorded, or None when the record has none."""
    try:
        value = json.loads((model_dir / TRAINING_FILE).read_text()).get("heldout_auc")
    except (OSError, ValueError):
        return None
    return float(value) if isinstance(value, int | float) else None


def build_reranker(settings: Settings) -> Reranker:
    """The reranker the settings ask for: the trained local model, or a remote
    `/v1/rerank` service (`RERANKER_BACKEND=remote`, `RERANKER_URL`, `RERANKER_MODEL`)."""
    if settings.reranker_backend == "remote":
        from app.recall._reranker_remote import RemoteReranker

        return RemoteReranker.from_settings(settings)
    from app.recall._reranker_local import LocalReranker

    return LocalReranker(
        local_model_dir(settings), int8=settings.reranker_int8, device=settings.torch_device
    )
