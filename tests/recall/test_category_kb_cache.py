"""The card cache: built once per (index version, recipe, minimum items), read back on the
next load, rebuilt when unreadable; card vectors cached per embedding model."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from app.catalog.item import Item
from app.config.settings import Settings
from app.recall._kb_store import (
    card_set_key,
    kb_folder,
    load_or_build_cards,
    load_or_embed_vectors,
)
from app.recall.category_kb import load_card_index
from tests.contracts.knowledge_base_contract import real_kb_inputs

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def sample(built_index: Settings) -> Sequence[Item]:
    """A slice of the real catalog (Icecat and ditto items), to keep builds quick."""
    index, _ = real_kb_inputs(built_index)
    items = list(index.items.values())
    return items[:3000] + [i for i in items if i.platform in ("amazon", "walmart")][:2000]


def test_cards_are_built_once_and_then_read(tmp_path: Path, sample: Sequence[Item]) -> None:
    key, cards = load_or_build_cards(tmp_path, "v1", sample, min_items=5)
    path = tmp_path / f"cards-{key}.json"
    assert path.is_file()
    assert cards
    payload = json.loads(path.read_text())
    payload["cards"][0]["category"] = "renamed on disk"
    path.write_text(json.dumps(payload))

    again_key, again = load_or_build_cards(tmp_path, "v1", sample, min_items=5)
    assert again_key == key
    assert again[0].category == "renamed on disk", "the cached file must be read, not rebuilt"
    assert again[1:] == cards[1:]


def test_the_key_follows_index_version_and_min_items(
    tmp_path: Path, sample: Sequence[Item]
) -> None:
    keys = {card_set_key("v1", 5), card_set_key("v2", 5), card_set_key("v1", 6)}
    assert len(keys) == 3
    _, five = load_or_build_cards(tmp_path, "v1", sample, min_items=5)
    _, twenty = load_or_build_cards(tmp_path, "v1", sample, min_items=20)
    assert len(list(tmp_path.glob("cards-*.json"))) == 2
    assert len(twenty) < len(five)


def test_an_unreadable_cache_is_rebuilt(tmp_path: Path, sample: Sequence[Item]) -> None:
    key, cards = load_or_build_cards(tmp_path, "v1", sample, min_items=5)
    path = tmp_path / f"cards-{key}.json"
    path.write_text('{"cards": [{"card_id": 1}')
    _, again = load_or_build_cards(tmp_path, "v1", sample, min_items=5)
    assert again == cards
    assert json.loads(path.read_text())["key"] == key


def test_vectors_are_cached_per_model(
    tmp_path: Path, built_index: Settings, sample: Sequence[Item]
) -> None:
    index, _ = real_kb_inputs(built_index)
    key, cards = load_or_build_cards(tmp_path, "v1", sample, min_items=5)
    vectors = load_or_embed_vectors(tmp_path, key, cards, index.embedder)
    assert vectors.shape == (len(cards), index.embedder.dimension)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-3)
    [path] = tmp_path.glob("vectors-*.npy")

    np.save(path, -vectors)
    assert np.array_equal(load_or_embed_vectors(tmp_path, key, cards, index.embedder), -vectors)
    np.save(path, vectors[:3])
    reembedded = load_or_embed_vectors(tmp_path, key, cards, index.embedder)
    assert np.allclose(reembedded, vectors, atol=1e-5)


def test_the_real_index_keeps_its_cards_next_to_it(built_index: Settings) -> None:
    index, cards = real_kb_inputs(built_index)
    folder = kb_folder(built_index.index_dir / index.version)
    assert list(folder.glob("cards-*.json"))
    assert list(folder.glob("vectors-*.npy"))
    assert cards.version.startswith(index.version)
    reloaded = load_card_index(built_index, index)
    assert reloaded.version == cards.version
    assert reloaded.cards == cards.cards
    assert np.array_equal(reloaded.vectors, cards.vectors)
