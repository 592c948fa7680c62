"""Fixtures of the catalog tests: the real datasets folder, the catalog loaded from it once,
and the Myntra fashion catalog imported and indexed in its own var dir."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.catalog.loader import Catalog, load_catalog
from app.catalog.offer_store import OfferStore
from app.config import Settings
from app.eval.bench_catalog import MYNTRA_FILE, MYNTRA_MAPPING
from app.recall.index_build import build_index

REPO = Path(__file__).resolve().parents[2]


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


@pytest.fixture(scope="session")
def myntra_settings(data_dir: Path) -> Settings:
    """The Myntra var dir, imported through the CLI and indexed (a no-op when done)."""
    var = Path(os.environ.get("PICKWISE_MYNTRA_VAR", REPO / "var-myntra"))
    if not OfferStore.of(var).exists():
        maps = [arg for m in MYNTRA_MAPPING for arg in ("--map", m)]
        command = [sys.executable, "-m", "app.cli.main", "catalog", "import"]
        source = str(data_dir / MYNTRA_FILE)
        args = [*command, source, "--format", "csv", *maps, "--shop", "myntra", "--currency", "INR"]
        env = {**os.environ, "PICKWISE_VAR_DIR": str(var), "PICKWISE_DATA_DIR": str(data_dir)}
        subprocess.run([*args, "--json"], check=True, env=env, capture_output=True)
    settings = Settings(var_dir=var, data_dir=data_dir)
    build_index(settings, show_progress=False)
    return settings
