"""The relevance cross-encoder: a second model beside item_picker's gate, trained on graded
shopper ratings (`pickwise models train-relevance`), that item_search blends into the order
of its hits. Found as the newest finished `var/models/relevance-*/`; optional."""

from __future__ import annotations

from pathlib import Path

from app.catalog.item import Item
from app.config.settings import Settings
from app.errors import ConfigError
from app.recall.reranker import Reranker, trained_models

__all__ = [
    "RELEVANCE_PREFIX",
    "open_relevance_model",
    "relevance_models",
    "relevance_text",
]

RELEVANCE_PREFIX = "relevance-"


def relevance_text(item: Item) -> str:
    """What the model reads of an item, in training and in search alike: its title."""
    return item.title


def relevance_models(models_dir: Path) -> list[Path]:
    """Finished `relevance-*` folders under `models_dir`, newest first."""
    return trained_models(models_dir, RELEVANCE_PREFIX)


def open_relevance_model(settings: Settings) -> tuple[Reranker | None, str | None]:
    """The newest trained relevance model, or None and why: item_search then keeps the
    fused order and says so."""
    models = relevance_models(settings.models_dir)
    if not models:
        return None, (
            f"no relevance model under {settings.models_dir}; run `pickwise models train-relevance`"
        )
    from app.recall._reranker_local import LocalReranker

    try:
        return LocalReranker(models[0], device=settings.torch_device), None
    except ConfigError as exc:
        return None, str(exc)
