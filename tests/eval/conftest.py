"""Fixtures of the evaluation tests: the real embedder, shared, and tiny real indexes."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from types import MappingProxyType

import pytest

from app.catalog.item import Item
from app.catalog.loader import Catalog
from app.config.settings import Settings
from app.recall.embedder import Embedder, build_embedder
from app.recall.index_build import build_index


@pytest.fixture(scope="session")
def embedder(settings: Settings) -> Embedder:
    """The real embedding model, loaded once for every evaluation test."""
    return build_embedder(settings)


def build_tiny_index(
    root: Path, settings: Settings, embedder: Embedder, items: Sequence[Item]
) -> Settings:
    """A real index (edge shard, BM25, item table) of `items` under `root`; its settings."""
    source = root / "items.json"
    source.write_text(json.dumps([i.model_dump() for i in items]))
    tiny = settings.model_copy(update={"var_dir": root / "var", "redis_url": None})
    catalog = Catalog(
        items=tuple(items), matches=(), skipped=MappingProxyType({}), source_files=(source,)
    )
    build_index(tiny, catalog=catalog, embedder=embedder, show_progress=False)
    return tiny
