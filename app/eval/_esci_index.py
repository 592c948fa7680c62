"""The ESCI evaluation's own index: built from the official products into a var folder of its
own (never the product index), reused while its version (files, model, recipes) matches."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

from app.catalog.loader import Catalog
from app.config.params.index import INDEX_DESCRIPTION_CHARS
from app.config.settings import Settings
from app.errors import ConfigError
from app.eval._esci_data import Selection, load_corpus
from app.recall.embedder import Embedder
from app.recall.index_build import build_index, index_recipes
from app.recall.index_manifest import compute_version, read_current
from app.recall.search_index import SearchIndex


def esci_settings(settings: Settings, selection: Selection, var_dir: Path | None) -> Settings:
    """Settings whose `var_dir` is the ESCI folder of this selection (default
    `<var>/esci/<locale>-<split>-<version>-<corpus>`), so its index is separate."""
    folder = var_dir or settings.var_dir / "esci" / selection.slug
    return settings.model_copy(update={"var_dir": folder})


def expected_version(files: tuple[Path, Path], embedder: Embedder) -> str:
    """The version `build_index` gives these files with this model and today's recipes."""
    return compute_version(files, embedder.model_id, index_recipes(INDEX_DESCRIPTION_CHARS.get()))


def open_esci_index(
    settings: Settings,
    files: tuple[Path, Path],
    selection: Selection,
    embedder: Embedder,
    *,
    build: bool,
    show_progress: bool = False,
) -> tuple[SearchIndex, bool]:
    """The index of this selection and whether it was built now. Without `build`, a missing
    or outdated index is a ConfigError that says to pass --build-index."""
    version = expected_version(files, embedder)
    current = read_current(settings.index_dir)
    built = False
    if current != version:
        if not build:
            state = f"is at version {current}" if current else "does not exist"
            raise ConfigError(
                f"the ESCI index under {settings.index_dir} {state}; these files and "
                f"model need version {version}: run with --build-index"
            )
        examples, products = files
        items, skipped = load_corpus(products, examples, selection, settings.var_dir)
        if not items:
            raise ConfigError(f"no {selection.locale} product of the selection in {products}")
        catalog = Catalog(
            items=tuple(items),
            matches=(),
            skipped=MappingProxyType(skipped),
            source_files=files,
        )
        report = build_index(
            settings, catalog=catalog, embedder=embedder, show_progress=show_progress
        )
        built = report.built
    return SearchIndex.open(settings, embedder=embedder), built
