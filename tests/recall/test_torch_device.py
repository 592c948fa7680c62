"""Where the local models run: `TORCH_DEVICE` resolution on any machine, and, where torch sees
a CUDA GPU, the embedder and the cross-encoder giving on it what they give on the CPU."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch
from pydantic import ValidationError

from app.config.settings import Settings
from app.errors import ConfigError
from app.recall._flag_embedder import FlagEmbedder
from app.recall._reranker_fit import fit, new_cross_encoder, predict
from app.recall._reranker_local import LocalReranker
from app.recall._torch_device import model_device, resolve_device
from app.recall.reranker_config import RerankerTrainConfig

needs_gpu = pytest.mark.skipif(not torch.cuda.is_available(), reason="torch sees no CUDA GPU")


def _gpus(monkeypatch: pytest.MonkeyPatch, count: int) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: count > 0)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: count)


@pytest.mark.parametrize(("count", "expected"), [(0, "cpu"), (1, "cuda"), (2, "cuda")])
def test_auto_takes_a_gpu_when_torch_sees_one(
    monkeypatch: pytest.MonkeyPatch, count: int, expected: str
) -> None:
    _gpus(monkeypatch, count)
    assert resolve_device("auto") == expected
    assert resolve_device("cpu") == "cpu"


def test_asking_for_a_gpu_that_is_not_there_is_a_config_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _gpus(monkeypatch, 0)
    with pytest.raises(ConfigError, match=r"TORCH_DEVICE=cuda but torch .* sees no CUDA GPU"):
        resolve_device("cuda")
    _gpus(monkeypatch, 2)
    assert resolve_device("cuda:1") == "cuda:1"
    with pytest.raises(ConfigError, match=r"TORCH_DEVICE=cuda:2 but torch sees 2 CUDA GPU"):
        resolve_device("cuda:2")


@pytest.mark.parametrize("value", ["gpu", "cuda:", "cuda:x", "mps", ""])
def test_settings_refuse_a_device_they_cannot_name(value: str) -> None:
    with pytest.raises(ValidationError, match=r"torch_device|TORCH_DEVICE"):
        Settings(torch_device=value)


def test_model_device_reads_the_weights() -> None:
    assert model_device(torch.nn.Linear(2, 2)) == torch.device("cpu")
    assert model_device(torch.nn.ReLU()) == torch.device("cpu")


def test_the_embedder_runs_where_the_settings_say() -> None:
    embedder = FlagEmbedder.from_settings(Settings(torch_device="cpu"))
    assert embedder.device == "cpu"
    assert model_device(embedder._flag.model) == torch.device("cpu")


_TEXTS = [
    "wireless gaming mouse",
    "Logitech G502 Hero gaming mouse, 25K sensor",
    "HP 26A black LaserJet toner cartridge",
    "a",
]


@needs_gpu
def test_the_embedder_gives_the_cpu_vectors_on_a_gpu() -> None:
    settings = Settings()
    on_gpu = FlagEmbedder.from_settings(settings.model_copy(update={"torch_device": "cuda"}))
    on_cpu = FlagEmbedder.from_settings(settings.model_copy(update={"torch_device": "cpu"}))
    assert model_device(on_gpu._flag.model).type == "cuda"
    gpu_vectors = on_gpu.encode_documents(_TEXTS)
    assert gpu_vectors.dtype == np.float32
    assert np.allclose(gpu_vectors, on_cpu.encode_documents(_TEXTS), atol=1e-4)


@needs_gpu
def test_the_cross_encoder_trains_and_serves_on_a_gpu(tmp_path: Path) -> None:
    config = RerankerTrainConfig.small().replace(base_model=Settings().embedder_model, layers=2)
    encoder = new_cross_encoder(config, device="cuda")
    queries = ["mouse", "toner"] * 16
    documents = [_TEXTS[1], _TEXTS[2]] * 16
    losses = fit(
        encoder.model,
        encoder.tokenizer,
        queries,
        documents,
        [1.0, 0.0] * 16,
        config,
        show_progress=False,
    )
    assert len(losses) == 1
    assert model_device(encoder.model).type == "cuda"
    titles = [_TEXTS[1], _TEXTS[2]]
    length = config.max_length
    on_gpu = predict(encoder.model, encoder.tokenizer, ["mouse"] * 2, titles, max_length=length)
    encoder.save(str(tmp_path))
    served = LocalReranker(tmp_path, max_length=length, int8=True, device="cuda")
    assert (served.device, served.int8, served.model_id) == ("cuda", False, tmp_path.name)
    assert np.allclose(served.score("mouse", titles), on_gpu, atol=1e-4)
    on_cpu = LocalReranker(tmp_path, max_length=length, device="cpu").score("mouse", titles)
    assert np.allclose(on_cpu, on_gpu, atol=1e-4)
