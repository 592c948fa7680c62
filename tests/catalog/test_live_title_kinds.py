"""A catalog that lists no categories (its kinds come from its titles, as Myntra's do):
facets computed again after a live change keep the kinds the build's profile read."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
import redis

from app.catalog.importer import import_files
from app.catalog.offer_store import OfferStore
from app.config.settings import Settings
from app.recall.index_build import build_index
from app.recall.live_update import LiveWriter
from app.runtime import Runtime

SHOP = "title-shop"
REDIS_URL = "redis://127.0.0.1:6379/10"
KINDS = ("Kurta", "Dupatta", "Sherwani")
COLOURS = ("Red", "Blue", "Green", "Black", "White", "Yellow")


@pytest.fixture
def catalog(tmp_path: Path, data_dir: Path) -> Settings:
    """18 titles, 6 per kind, no category, imported and indexed in a fresh folder."""
    folder = tmp_path
    rows = [
        {
            "id": f"{kind}-{colour}".lower(),
            "title": f"Roadster {colour} Cotton {kind}",
            "brand": "Roadster",
            "price": 20 + n,
        }
        for n, (kind, colour) in enumerate(itertools.product(KINDS, COLOURS))
    ]
    source = folder / "items.jsonl"
    source.write_text("\n".join(json.dumps(row) for row in rows) + "\n")
    report = import_files([source], OfferStore.of(folder / "var"), shop=SHOP, currency="USD")
    assert report.imported == len(rows)
    settings = Settings(var_dir=folder / "var", data_dir=data_dir, redis_url=REDIS_URL)
    build_index(settings, show_progress=False)
    return settings


async def test_facets_after_a_live_change_keep_the_title_kinds(catalog: Settings) -> None:
    settings = catalog
    client = redis.Redis.from_url(REDIS_URL)
    client.flushdb()
    try:
        async with Runtime(settings) as runtime:
            index = runtime.index
            assert index.live is not None
            before = {c.value for c in index.facets.categories}
            assert {k.lower() for k in KINDS} <= before, before
            offer = next(iter(OfferStore.of(settings.var_dir).offers((SHOP,))))
            changed = offer.model_copy(update={"price": 99.0})
            LiveWriter.open(settings, index.embedder).upsert([(changed, "", 1)], actor="test")
            await index.live.refresh()
            assert index.cache_version != index.manifest.version, "the change was applied"
            assert {c.value for c in index.facets.categories} == before
    finally:
        client.flushdb()
        client.close()
