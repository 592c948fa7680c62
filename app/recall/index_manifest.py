"""Where a built index lives, what it contains, and how its version is computed.

`var/index/<version>/` holds the edge shard, the BM25 index, the item table and
`manifest.json`; `var/index/CURRENT` names the version in use. The version is a hash of
the source files, the embedding model id and the text recipes, so an unchanged input
maps to an existing folder and a rebuild is a no-op.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

from app.catalog.item import Item
from app.errors import IndexMissing

__all__ = [
    "STAGING_PREFIX",
    "IndexManifest",
    "IndexPaths",
    "collection_name",
    "compute_version",
    "current_paths",
    "dense_recipe",
    "dense_text",
    "read_current",
    "write_current",
]

_CURRENT = "CURRENT"
STAGING_PREFIX = ".build-"
"""Folders of builds in progress are named `STAGING_PREFIX + version`."""
_MANIFEST = "manifest.json"


def dense_text(item: Item, description_chars: int) -> str:
    """The dense text recipe: title, brand, category and the start of the description."""
    head = item.description
    if len(head) > description_chars:
        head = head[:description_chars].rsplit(" ", 1)[0]
    return " | ".join(p for p in (item.title, item.brand, item.category, head) if p)


def dense_recipe(description_chars: int) -> str:
    """A text form of the dense recipe, part of the index version."""
    return f"dense:title|brand|category|description[:{description_chars}]"


def compute_version(source_files: Iterable[Path], model_id: str, recipes: Iterable[str]) -> str:
    """Hash of the source files' bytes, the model id and the recipes (16 hex digits)."""
    digest = hashlib.sha256()
    for path in sorted(source_files, key=lambda p: p.name + str(p)):
        digest.update(path.name.encode())
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    digest.update(model_id.encode())
    for recipe in recipes:
        digest.update(recipe.encode())
    return digest.hexdigest()[:16]


class IndexManifest(BaseModel):
    """What a finished build wrote; its presence marks the build complete."""

    version: str
    collection: str
    vector_backend: str
    model_id: str
    dimension: int
    recipes: list[str]
    items: int
    platforms: dict[str, int]
    skipped: dict[str, int]
    source_files: list[str]
    built_at: str
    build_s: float
    embed_s: float
    items_per_s: float
    reused_vectors: int = 0
    """Vectors taken from the embedding cache rather than embedded by this build."""
    vectors_version: str = ""
    """Hash of what the items and their vectors come from (source files, model, dense
    recipe) without the lexical recipe: what models trained on items and vectors key on."""
    lexical_backend: str = "bm25s"
    """Where the lexical documents went: "bm25s" (a folder of this version) or "opensearch"
    (the index `Settings.lexical_index(version)` on the configured server)."""
    sheet_store: bool = False
    """Whether a sheet store was built beside the lexical store (`IndexPaths.bm25_sheet`):
    only for catalogs with spec sheets, which an imported catalog has none of."""
    live_seq: int = 0
    """The newest catalog journal entry (live change) the build's catalog already held;
    serving processes replay only later ones."""
    vector_layout: dict[str, int | str] = {}
    """How the vector collection was laid out when created (HNSW links, per-value links,
    quantization): an existing collection keeps these whatever the settings say later."""


@dataclass(frozen=True)
class IndexPaths:
    """The files of one index version."""

    root: Path
    version: str

    @property
    def folder(self) -> Path:
        return self.root / self.version

    @property
    def manifest(self) -> Path:
        return self.folder / _MANIFEST

    @property
    def vectors(self) -> Path:
        return self.folder / "vectors"

    @property
    def bm25(self) -> Path:
        return self.folder / "bm25"

    @property
    def bm25_sheet(self) -> Path:
        """The sheet store: listings and their spec sheets' words (`bm25_sheet_text`)."""
        return self.folder / "bm25-sheet"

    @property
    def items(self) -> Path:
        return self.folder / "items.parquet"

    def is_complete(self) -> bool:
        """True when a build of this version finished (the manifest is written last)."""
        return self.manifest.is_file()

    def read_manifest(self) -> IndexManifest:
        return IndexManifest.model_validate_json(self.manifest.read_text())


def collection_name(version: str) -> str:
    """Collection name of an index version (the same on the edge and on a server)."""
    return f"items_{version}"


def read_current(root: Path) -> str | None:
    """The version named by `CURRENT`, or None when no index was built."""
    path = root / _CURRENT
    return path.read_text().strip() or None if path.is_file() else None


def write_current(root: Path, version: str) -> None:
    """Point `CURRENT` at `version` atomically."""
    tmp = root / f".{_CURRENT}.{os.getpid()}"
    tmp.write_text(version + "\n")
    tmp.replace(root / _CURRENT)


def current_paths(root: Path) -> IndexPaths:
    """Paths of the index in use; `IndexMissing` when none is built."""
    version = read_current(root)
    if version is None or not IndexPaths(root, version).is_complete():
        raise IndexMissing(f"no search index under {root}; run `pickwise index build`")
    return IndexPaths(root, version)
