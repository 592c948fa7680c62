"""A small imported catalog for the live-update tests: the three Shopify sample files
imported into a fresh var dir and indexed (real embedder, real qdrant-edge shard)."""

from __future__ import annotations

from pathlib import Path

from app.catalog.importer import import_files
from app.catalog.offer_store import OfferStore
from app.catalog.schema import Offer
from app.config.settings import Settings
from app.recall.index_build import build_index

SHOP = "sample-shop"
LIVE_REDIS_URL = "redis://127.0.0.1:6379/14"


def live_catalog(var: Path, data_dir: Path) -> Settings:
    """Import the Shopify sample into `var` and build its index."""
    files = sorted((data_dir / "shopify-sample").glob("*.csv"))
    report = import_files(files, OfferStore.of(var), shop=SHOP, currency="EUR")
    assert report.rejected == 0
    assert report.imported > 50
    settings = Settings(var_dir=var, data_dir=data_dir, redis_url=LIVE_REDIS_URL)
    build_index(settings, show_progress=False)
    return settings


def stored(settings: Settings, offer_id: str) -> Offer:
    """The offer the catalog stores under `offer_id` in the sample shop."""
    for offer in OfferStore.of(settings.var_dir).offers((SHOP,)):
        if offer.id == offer_id:
            return offer
    raise KeyError(offer_id)
