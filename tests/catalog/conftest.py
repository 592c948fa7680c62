"""Fixtures of the catalog tests: the real datasets folder and the catalog loaded from it once."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.catalog.loader import Catalog, load_catalog
from app.config import Settings


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The real datasets folder named by the settings (PICKWISE_DATA_DIR)."""
    path = Settings().data_dir.resolve()
    assert path.is_dir(), f"datasets folder {path} is missing; set PICKWISE_DATA_DIR"
    return path


@pytest.fixture(scope="session")
def catalog(data_dir: Path) -> Catalog:
    """The whole catalog built from the real datasets, US locale."""
    return load_catalog(data_dir, locale="us")
