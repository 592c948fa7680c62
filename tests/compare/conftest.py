"""Fixtures of the price-comparison tests: the real catalog and a matcher over its statistics."""

from __future__ import annotations

import pytest

from app.catalog.loader import Catalog, load_catalog
from app.catalog.matching import ProductMatcher
from app.config.settings import Settings


@pytest.fixture(scope="session")
def catalog(settings: Settings) -> Catalog:
    """The whole catalog from the real datasets, as the index build loads it."""
    return load_catalog(settings.data_dir, locale=settings.esci_locale)


@pytest.fixture(scope="session")
def matcher(catalog: Catalog) -> ProductMatcher:
    """The fitted matcher over the catalog's word and code frequencies."""
    return ProductMatcher.from_items(catalog.items)
