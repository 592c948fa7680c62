"""Local reranker: the cross-encoder trained by `pickwise models train-reranker`, on the CPU
or a GPU."""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Sequence
from pathlib import Path

from app.config.params.reranker import RERANKER_BATCH_SIZE
from app.errors import ConfigError
from app.recall._int8_linear import input_ranges, load_ranges, quantized, save_ranges
from app.recall._reranker_fit import predict
from app.recall._torch_device import resolve_device
from app.recall.offload import offload
from app.recall.reranker import (
    HELDOUT_FILE,
    TRAINING_FILE,
    ScoreCache,
    check_request,
    heldout_rows,
    merged,
    missing,
)

_DEFAULT_MAX_LENGTH = 128


class LocalReranker:
    """A trained cross-encoder folder loaded with sentence-transformers' `CrossEncoder`;
    scores are sigmoids of its logit, remembered in a `ScoreCache`. `int8` quantises its
    linear layers on load, each with a fixed input range (a pair scores alike in any batch;
    faster on a CPU, see the bench); a model on a GPU stays in float32."""

    remote = False

    def __init__(
        self,
        folder: Path,
        *,
        max_length: int | None = None,
        int8: bool = False,
        device: str = "cpu",
    ) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from sentence_transformers import CrossEncoder

        self.device = resolve_device(device)
        try:
            encoder = CrossEncoder(str(folder), device=self.device, local_files_only=True)
        except (OSError, ValueError) as exc:
            raise ConfigError(f"cannot load the reranker model in {folder}: {exc}") from exc
        self._model = encoder.model.eval()
        self._tokenizer = encoder.tokenizer
        self.max_length = max_length or _trained_max_length(folder) or _DEFAULT_MAX_LENGTH
        int8 = int8 and self.device == "cpu"
        if int8:
            self._model = quantized(self._model, self._int8_ranges(folder))
        self.int8 = int8
        self.model_id = f"{folder.name}+int8" if int8 else folder.name
        self._lock = threading.Lock()
        self.cache = ScoreCache()

    def score(self, query: str, documents: Sequence[str]) -> list[float]:
        """Scores in [0, 1], one per document, in order; unseen pairs go through the model."""
        check_request(query, documents)
        cached = self.cache.lookup(query, documents)
        todo = missing(cached, documents)
        fresh: dict[str, float] = {}
        if todo:
            with self._lock:
                values = predict(
                    self._model,
                    self._tokenizer,
                    [query] * len(todo),
                    todo,
                    max_length=self.max_length,
                    batch_size=RERANKER_BATCH_SIZE.get(),
                )
            fresh = {d: float(v) for d, v in zip(todo, values, strict=True)}
            self.cache.store(query, todo, [fresh[d] for d in todo])
        return merged(cached, documents, fresh)

    async def ascore(self, query: str, documents: Sequence[str]) -> list[float]:
        """`score` in a worker thread, so the event loop keeps serving."""
        return await offload(self.score, query, documents)

    def _int8_ranges(self, folder: Path) -> dict[str, tuple[float, float]] | None:
        """Each linear layer's input range: saved beside the model, else measured on its
        held-out pairs in float32 and saved; None for a folder without them."""
        saved = load_ranges(folder)
        if saved is not None:
            return saved
        if not (folder / HELDOUT_FILE).is_file():
            return None
        rows = heldout_rows(folder)
        queries, titles = [r["query"] for r in rows], [r["title"] for r in rows]
        ranges, _ = input_ranges(
            self._model,
            lambda: predict(
                self._model, self._tokenizer, queries, titles, max_length=self.max_length
            ),
        )
        with contextlib.suppress(OSError):  # a read-only folder measures again next time
            save_ranges(folder, ranges, len(rows))
        return ranges


def _trained_max_length(folder: Path) -> int | None:
    """The max length the model was trained with, from its `training.json`."""
    record = folder / TRAINING_FILE
    if not record.is_file():
        return None
    value = json.loads(record.read_text()).get("config", {}).get("max_length")
    return int(value) if value else None
