"""Fixtures of the price-comparison and similar-item tests: the real catalog, a matcher over
its statistics, the opened index, and the one listing of a shop with a given title."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from app.catalog.item import Item
from app.catalog.loader import Catalog, load_catalog
from app.catalog.matching import ProductMatcher
from app.config.settings import Settings
from app.recall.search_index import SearchIndex


@pytest.fixture(scope="session")
def catalog(settings: Settings) -> Catalog:
    """The whole catalog from the real datasets, as the index build loads it."""
    return load_catalog(settings.data_dir, locale=settings.esci_locale)


@pytest.fixture(scope="session")
def matcher(catalog: Catalog) -> ProductMatcher:
    """The fitted matcher over the catalog's word and code frequencies."""
    return ProductMatcher.from_items(catalog.items)


@pytest.fixture(scope="module")
def index(built_index: Settings) -> Iterator[SearchIndex]:
    """The built index, opened once per test module."""
    opened = SearchIndex.open(built_index)
    yield opened
    asyncio.run(opened.close())


def listing(index: SearchIndex, platform: str, title: str) -> Item:
    """The one indexed item of `platform` with exactly this title."""
    found = [i for i in index.items.values() if i.platform == platform and i.title == title]
    assert len(found) == 1, (platform, title, found)
    return found[0]
