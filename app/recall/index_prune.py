"""Disk hygiene for index versions: every catalog, model or recipe change builds a new
version folder beside the old ones; pruning removes the old ones and crashed staging folders,
keeping the version in use and, by default, the newest previous one."""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from app.recall.index_manifest import STAGING_PREFIX, IndexPaths, read_current

__all__ = ["PruneReport", "prune_index_versions"]

_STALE_STAGING_S = 3600.0


@dataclass(frozen=True)
class PruneReport:
    """What pruning removed (or would remove) and what it kept, by folder name."""

    current: str | None
    removed: tuple[str, ...]
    kept: tuple[str, ...]
    freed_bytes: int


def prune_index_versions(root: Path, *, keep: int = 1, dry_run: bool = False) -> PruneReport:
    """Remove index version folders under `root` other than the current one and the `keep`
    newest complete others, plus staging folders of builds that stopped (nothing written for
    an hour). Only local folders: collections on a Qdrant server are left to its admin."""
    current = read_current(root)
    folders = sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []
    versions = [p for p in folders if not p.name.startswith(".") and p.name != current]
    complete = [p for p in versions if IndexPaths(root, p.name).is_complete()]
    complete.sort(key=lambda p: IndexPaths(root, p.name).manifest.stat().st_mtime, reverse=True)
    kept = [p.name for p in complete[: max(keep, 0)]]
    doomed = [p for p in folders if p.name.startswith(STAGING_PREFIX) and _stale(p)]
    doomed += [p for p in versions if p.name not in kept]
    freed = sum(_size(p) for p in doomed)
    if not dry_run:
        for folder in doomed:
            shutil.rmtree(folder, ignore_errors=True)
    return PruneReport(current, tuple(sorted(p.name for p in doomed)), tuple(kept), freed)


def _stale(folder: Path) -> bool:
    written = (f.stat().st_mtime for f in folder.rglob("*") if f.is_file())
    newest = max(written, default=folder.stat().st_mtime)
    return time.time() - newest > _STALE_STAGING_S


def _size(folder: Path) -> int:
    """Bytes on disk: allocated blocks, since the vector files are sparse."""
    return sum(f.stat().st_blocks * 512 for f in folder.rglob("*") if f.is_file())
