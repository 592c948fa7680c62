"""Shared fixtures: settings over the real datasets, and the real full-catalog index."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from app.config.settings import Settings

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def settings() -> Settings:
    """Settings as a user of this checkout has them: real data, the repo's var/ folder."""
    var = os.environ.get("PICKWISE_VAR_DIR")
    return Settings(var_dir=Path(var) if var else REPO / "var", data_dir=_data_dir())


@pytest.fixture(scope="session")
def built_index(settings: Settings) -> Settings:
    """The real index of the full catalog, built once when missing (a no-op otherwise)."""
    from app.recall.index_build import build_index

    build_index(settings, show_progress=False)
    return settings


def _data_dir() -> Path:
    configured = os.environ.get("PICKWISE_DATA_DIR")
    return Path(configured) if configured else (REPO.parent / "shared" / "datasets")
