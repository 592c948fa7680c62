"""`pickwise catalog stats` and `spec-categories` on the real datasets: JSON and table."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.catalog.item import PLATFORMS
from app.cli.catalog_cmd import app
from app.config import get_settings


@pytest.fixture
def settings_for() -> Iterator[None]:
    """Settings are read once per process; re-read them for this test and after it."""
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def test_stats_json(data_dir: Path, monkeypatch: pytest.MonkeyPatch, settings_for: None) -> None:
    monkeypatch.setenv("PICKWISE_DATA_DIR", str(data_dir))
    result = CliRunner().invoke(app, ["stats", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert set(payload) == {"platforms", "total", "skipped"}
    assert list(payload["platforms"]) == list(PLATFORMS)
    assert payload["platforms"]["icecat"] == 19_352
    assert payload["total"] == sum(payload["platforms"].values()) == 32_292
    assert payload["skipped"] == {}


def test_stats_table(data_dir: Path, monkeypatch: pytest.MonkeyPatch, settings_for: None) -> None:
    monkeypatch.setenv("PICKWISE_DATA_DIR", str(data_dir))
    result = CliRunner().invoke(app, ["stats"])
    assert result.exit_code == 0, result.output
    assert "icecat" in result.stdout
    assert "19,352" in result.stdout
    assert "total" in result.stdout
    assert "32,292" in result.stdout
    assert "skipped: none" in result.stdout


def test_stats_without_data_fails_with_config_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settings_for: None
) -> None:
    monkeypatch.setenv("PICKWISE_DATA_DIR", str(tmp_path / "nowhere"))
    result = CliRunner().invoke(app, ["stats", "--json"])
    assert result.exit_code != 0
    assert "ConfigError" in type(result.exception).__name__


def test_spec_categories_json(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, settings_for: None
) -> None:
    monkeypatch.setenv("PICKWISE_DATA_DIR", str(data_dir))
    result = CliRunner().invoke(app, ["spec-categories", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["recipe"] == "spec-categories:stated-type:k=5:votes=4:sim=0.6"
    assert payload["items"] == 19_406
    found = payload["named_by_title"] + payload["stated_by_sheet"] + payload["inferred"]
    assert found < payload["items"]
    assert payload["stated_by_sheet"] > 500
    assert payload["inferred"] > 5_000
    check = payload["leave_one_out"]
    assert check["accuracy"] > 0.95
    assert "computer monitor" in payload["top_found"]
