"""Builds the whole catalog from the datasets folder: Icecat, ditto ER and the ESCI samples.

This is the one entry point the index build and the CLI use; it checks the files first so a
wrong `PICKWISE_DATA_DIR` fails with one clear ConfigError instead of a partial catalog.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from app.catalog._tally import SkipTally
from app.catalog.dedupe import dedupe_items, remap_matches
from app.catalog.ditto import DITTO_DATASETS, DITTO_SPLITS, load_ditto
from app.catalog.esci import ESCI_SAMPLE_FILES, load_esci_samples
from app.catalog.icecat import ICECAT_FILES, load_icecat
from app.catalog.item import PLATFORMS, Item, MatchLabel
from app.errors import ConfigError, NotFound

logger = logging.getLogger("app.catalog")

__all__ = ["Catalog", "SkipTally", "catalog_files", "load_catalog"]

ICECAT_DIR = "icecat"
DITTO_DIR = "ditto-er"
ESCI_SAMPLE_DIR = "esci-sample"


@dataclass(frozen=True)
class Catalog:
    """Every catalog item, the labelled same-product pairs, and what loading had to skip.

    `skipped` counts bad rows as `{"<source>:<reason>": n}`. `aliases` maps the id of each
    item dropped as a within-platform duplicate to the id of the item kept in its place.
    """

    items: tuple[Item, ...]
    matches: tuple[MatchLabel, ...]
    skipped: Mapping[str, int]
    source_files: tuple[Path, ...]
    aliases: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    shops: tuple[str, ...] = PLATFORMS
    """The shops reports list, in order (the demo's six, or an imported catalog's)."""
    _index: dict[str, Item] = field(default_factory=dict, init=False, repr=False, compare=False)

    def platform_counts(self) -> dict[str, int]:
        """Items per shop: every shop of `shops` in order, then any other by name."""
        counts: Counter[str] = Counter(item.platform for item in self.items)
        others = sorted(set(counts) - set(self.shops))
        return {shop: counts[shop] for shop in (*self.shops, *others)}

    def by_id(self) -> Mapping[str, Item]:
        """item_id -> Item, built on first use and kept."""
        if not self._index and self.items:
            self._index.update((item.item_id, item) for item in self.items)
        return MappingProxyType(self._index)

    def resolve(self, item_id: str) -> Item:
        """The item for an id, following an alias left by dedupe; NotFound when unknown."""
        index = self.by_id()
        item = index.get(self.aliases.get(item_id, item_id))
        if item is None:
            raise NotFound(f"no catalog item {item_id!r}")
        return item


def catalog_files(data_dir: Path) -> tuple[Path, ...]:
    """Every file `load_catalog` reads, in reading order."""
    icecat = tuple(data_dir / ICECAT_DIR / name for name in ICECAT_FILES)
    ditto = tuple(
        dataset.split_path(data_dir / DITTO_DIR, split)
        for dataset in DITTO_DATASETS
        for split in DITTO_SPLITS
    )
    esci = tuple(data_dir / ESCI_SAMPLE_DIR / name for name in ESCI_SAMPLE_FILES)
    return icecat + ditto + esci


def _check_files(data_dir: Path) -> tuple[Path, ...]:
    if not data_dir.is_dir():
        raise ConfigError(
            f"datasets folder {data_dir} does not exist; set PICKWISE_DATA_DIR to the folder "
            "holding icecat/, ditto-er/ and esci-sample/"
        )
    files = catalog_files(data_dir)
    missing = [str(path.relative_to(data_dir)) for path in files if not path.is_file()]
    if missing:
        shown = ", ".join(missing[:6]) + (
            f" and {len(missing) - 6} more" if len(missing) > 6 else ""
        )
        raise ConfigError(
            f"datasets folder {data_dir} lacks {len(missing)} catalog file(s): {shown}"
        )
    return files


def load_catalog(data_dir: Path, *, locale: str = "us") -> Catalog:
    """Load, normalise and dedupe every catalog source under `data_dir`.

    ESCI products are kept for `locale` only. Raises ConfigError when the folder or one of
    its files is missing; bad rows are skipped, counted in `Catalog.skipped` and logged.
    """
    started = time.perf_counter()
    files = _check_files(data_dir)
    tally = SkipTally()
    icecat = load_icecat([data_dir / ICECAT_DIR / name for name in ICECAT_FILES], tally)
    ditto = load_ditto(data_dir / DITTO_DIR, tally)
    esci = load_esci_samples(data_dir / ESCI_SAMPLE_DIR, locale, tally)
    deduped = dedupe_items([*icecat, *ditto.items, *esci])
    matches = remap_matches(ditto.matches, deduped.aliases)
    catalog = Catalog(
        items=tuple(deduped.items),
        matches=tuple(matches),
        skipped=MappingProxyType(tally.counts()),
        source_files=files,
        aliases=MappingProxyType(deduped.aliases),
    )
    logger.info(
        "catalog: %d items (%d duplicates merged), %d labelled pairs, %d rows skipped, %.1fs",
        len(catalog.items),
        len(deduped.aliases),
        len(catalog.matches),
        sum(catalog.skipped.values()),
        time.perf_counter() - started,
    )
    return catalog
