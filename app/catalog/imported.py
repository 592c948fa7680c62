"""The catalog an index is built from: the imported one when the var dir holds one, else the
demo catalog the loaders build from the datasets folder."""

from __future__ import annotations

import logging
from pathlib import Path
from types import MappingProxyType

from app.catalog.item import Item
from app.catalog.loader import Catalog, load_catalog
from app.catalog.offer_store import OfferStore
from app.config.settings import Settings

__all__ = ["DIGEST_FILE", "load_imported", "load_index_catalog"]

log = logging.getLogger(__name__)

DIGEST_FILE = "catalog.digest"
"""Written beside the store at each load: the imported content's hash, which the index
version hashes as its source file."""


def load_imported(store: OfferStore) -> Catalog:
    """Every imported offer as an Item, with the content digest as the catalog's one source
    file (an unchanged catalog maps to the index already built)."""
    items = tuple(Item.from_offer(offer) for offer in store.offers())
    digest = store.path.parent / DIGEST_FILE
    text = store.content_digest() + "\n"
    if not digest.is_file() or digest.read_text() != text:
        digest.write_text(text)
    shops = tuple(store.shop_counts())
    log.info("imported catalog: %d items of %d shop(s)", len(items), len(shops))
    return Catalog(
        items=items,
        matches=(),
        skipped=MappingProxyType({}),
        source_files=(Path(digest),),
        shops=shops,
    )


def load_index_catalog(settings: Settings) -> Catalog:
    """The imported catalog of `settings.var_dir` when there is one, else the demo catalog."""
    store = OfferStore.of(settings.var_dir)
    if store.exists():
        return load_imported(store)
    return load_catalog(settings.data_dir, locale=settings.esci_locale)
