"""The on-disk cache of category cards (per index version, card recipe and minimum items)
and their vectors (per embedding model) in the index version's folder; files are replaced
atomically, so processes starting together may both build but never read half a file."""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Iterable
from pathlib import Path

import numpy as np
from pydantic import TypeAdapter, ValidationError

from app.catalog.item import Item
from app.catalog.specs import spec_words_fingerprint
from app.recall._kb_cards import build_cards
from app.recall._kb_model import CategoryCard
from app.recall.embedder import Embedder

log = logging.getLogger(__name__)

# Change the recipe whenever `build_cards` would build different cards from the same items.
CARD_RECIPE = (
    "kb-cards-v1|key=ordered-singular|lists=word-set|name=singular-head|terms=8|specs=5|units="
    + spec_words_fingerprint()
)
DENSE_RECIPE = "kb-dense-v1|category+aliases"
KB_FOLDER = "category_kb"
_CARDS = TypeAdapter(list[CategoryCard])


def kb_folder(index_folder: Path) -> Path:
    """Where one index version keeps its category KB files."""
    return index_folder / KB_FOLDER


def card_set_key(index_version: str, min_items: int) -> str:
    """Names one card set: the index version, the card recipe and the minimum item count."""
    return _digest(index_version, CARD_RECIPE, str(min_items))


def load_or_build_cards(
    folder: Path, index_version: str, items: Iterable[Item], *, min_items: int
) -> tuple[str, list[CategoryCard]]:
    """The card set's key and cards: read from `folder` when cached, else built and cached."""
    key = card_set_key(index_version, min_items)
    path = folder / f"cards-{key}.json"
    cards = _read_cards(path)
    if cards is None:
        cards = build_cards(items, min_items=min_items)
        payload = {
            "key": key,
            "index_version": index_version,
            "recipe": CARD_RECIPE,
            "min_items": min_items,
            "cards": _CARDS.dump_python(cards, mode="json"),
        }
        _write_atomic(path, json.dumps(payload, ensure_ascii=False).encode())
        log.info("category KB: built %d cards for index %s (%s)", len(cards), index_version, key)
    return key, cards


def load_or_embed_vectors(
    folder: Path, cards_key: str, cards: list[CategoryCard], embedder: Embedder
) -> np.ndarray:
    """Unit vectors of the cards' dense text, one row per card, cached per embedding model."""
    key = _digest(cards_key, DENSE_RECIPE, embedder.model_id)
    path = folder / f"vectors-{key}.npy"
    if path.is_file():
        vectors = np.load(path, allow_pickle=False)
        if vectors.shape == (len(cards), embedder.dimension):
            return vectors
        log.warning("category KB: %s has shape %s; embedding again", path, vectors.shape)
    vectors = np.asarray(embedder.encode_documents([c.dense_text() for c in cards]), np.float32)
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.npy")
    folder.mkdir(parents=True, exist_ok=True)
    np.save(tmp, vectors, allow_pickle=False)
    tmp.replace(path)
    return vectors


def _read_cards(path: Path) -> list[CategoryCard] | None:
    if not path.is_file():
        return None
    try:
        return _CARDS.validate_python(json.loads(path.read_bytes())["cards"])
    except (ValueError, KeyError, ValidationError) as exc:
        log.warning("category KB: unreadable %s (%s); building again", path, exc)
        return None


def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    tmp.write_bytes(data)
    tmp.replace(path)


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:12]
