"""Where the local models run: `TORCH_DEVICE=auto` takes the first CUDA GPU torch sees, else
the CPU; naming `cuda` on a machine without one is a configuration error, not a silent CPU run."""

from __future__ import annotations

import torch

from app.errors import ConfigError


def resolve_device(requested: str) -> str:
    """The torch device string for a `TORCH_DEVICE` value: auto, cpu, cuda or cuda:N."""
    if requested == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if requested == "cpu":
        return requested
    if not torch.cuda.is_available():
        raise ConfigError(
            f"TORCH_DEVICE={requested} but torch {torch.__version__} sees no CUDA GPU; "
            "set TORCH_DEVICE=auto or cpu, or install a CUDA build of torch"
        )
    _, _, index = requested.partition(":")
    if index and int(index) >= torch.cuda.device_count():
        raise ConfigError(
            f"TORCH_DEVICE={requested} but torch sees {torch.cuda.device_count()} CUDA GPU(s)"
        )
    return requested


def model_device(model: torch.nn.Module) -> torch.device:
    """The device a model's weights live on (the CPU for a model without parameters)."""
    for parameter in model.parameters():
        return parameter.device
    return torch.device("cpu")
