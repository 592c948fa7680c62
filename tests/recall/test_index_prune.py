"""Pruning index versions: the current one always stays, the newest previous ones stay on
request, and only builds that stopped lose their staging folders."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.cli import index_cmd
from app.config.settings import Settings
from app.recall.index_manifest import STAGING_PREFIX, write_current
from app.recall.index_prune import prune_index_versions

_HOUR = 3600


def _folder(root: Path, name: str, *, manifest: bool, age_s: float = 0) -> Path:
    folder = root / name
    (folder / "vectors").mkdir(parents=True)
    files = [folder / "vectors" / "segment.bin"]
    (folder / "vectors" / "segment.bin").write_bytes(b"x" * 10_000)
    if manifest:
        (folder / "manifest.json").write_text("{}")
        files.append(folder / "manifest.json")
    stamp = time.time() - age_s
    for path in files:
        os.utime(path, (stamp, stamp))
    return folder


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "index"
    _folder(root, "oldest", manifest=True, age_s=3 * _HOUR)
    _folder(root, "previous", manifest=True, age_s=2 * _HOUR)
    _folder(root, "unfinished", manifest=False, age_s=_HOUR / 2)
    _folder(root, "current", manifest=True)
    _folder(root, f"{STAGING_PREFIX}crashed", manifest=False, age_s=2 * _HOUR)
    _folder(root, f"{STAGING_PREFIX}running", manifest=False, age_s=60)
    write_current(root, "current")
    return root


def _left(root: Path) -> set[str]:
    return {p.name for p in root.iterdir() if p.is_dir()}


def test_the_current_and_the_newest_previous_version_stay(root: Path) -> None:
    report = prune_index_versions(root)
    assert report.current == "current"
    assert report.removed == (f"{STAGING_PREFIX}crashed", "oldest", "unfinished")
    assert report.kept == ("previous",)
    assert report.freed_bytes >= 3 * 10_000
    assert _left(root) == {"current", "previous", f"{STAGING_PREFIX}running"}


def test_keep_zero_leaves_only_the_current_version_and_a_running_build(root: Path) -> None:
    prune_index_versions(root, keep=0)
    assert _left(root) == {"current", f"{STAGING_PREFIX}running"}


def test_a_dry_run_reports_the_same_and_removes_nothing(root: Path) -> None:
    before = _left(root)
    report = prune_index_versions(root, keep=0, dry_run=True)
    assert report.removed == (f"{STAGING_PREFIX}crashed", "oldest", "previous", "unfinished")
    assert _left(root) == before


def test_nothing_to_prune_without_an_index(tmp_path: Path) -> None:
    report = prune_index_versions(tmp_path / "missing")
    assert (report.current, report.removed, report.kept) == (None, (), ())


def test_the_command_prints_what_it_removed(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings(var_dir=root.parent)
    monkeypatch.setattr(index_cmd, "get_settings", lambda: settings)
    runner = CliRunner()
    dry = runner.invoke(index_cmd.app, ["prune", "--dry-run", "--json"])
    assert dry.exit_code == 0, dry.output
    assert json.loads(dry.output)["removed"] == [f"{STAGING_PREFIX}crashed", "oldest", "unfinished"]
    done = runner.invoke(index_cmd.app, ["prune", "--keep", "0"])
    assert done.exit_code == 0, done.output
    assert done.output.startswith(f"removed {STAGING_PREFIX}crashed, oldest, previous, unfinished")
    assert "current current" in done.output
    assert _left(root) == {"current", f"{STAGING_PREFIX}running"}
