"""An imported catalog through the whole path: `index build` builds from it (not the demo
sources), and a pick over the Shopify sample names the variant of the size asked, with the
listed price and currency beside the converted one."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from app.catalog.importer import import_files
from app.catalog.offer_store import OfferStore
from app.catalog.profile import read_profile
from app.cli.pick_cmd import pick_payload, plan_with_options, run_pick
from app.config.settings import Settings
from app.recall.index_build import build_index
from app.recall.index_manifest import current_paths
from app.tools._picker_result import ItemPickerResult


@pytest.fixture(scope="module")
def shopify_settings(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> Settings:
    """A var dir holding only the three Shopify sample files, indexed."""
    var = tmp_path_factory.mktemp("shopify-var")
    files = sorted((data_dir / "shopify-sample").glob("*.csv"))
    report = import_files(files, OfferStore.of(var), shop="sample-shop", currency="EUR")
    assert report.rejected == 0
    settings = Settings(var_dir=var, data_dir=data_dir)
    build = build_index(settings, show_progress=False)
    assert build.manifest.platforms == {"sample-shop": report.imported}
    return settings


def test_a_second_build_of_the_same_import_does_nothing(shopify_settings: Settings) -> None:
    assert build_index(shopify_settings, show_progress=False).built is False


def test_the_profile_is_saved_with_the_index(shopify_settings: Settings) -> None:
    profile = read_profile(current_paths(shopify_settings.index_dir).folder)
    assert profile is not None
    assert profile.shops == {"sample-shop": profile.items}
    assert profile.attributes["size"] == {"large": 2, "small": 1, "medium": 1, "regular": 1}
    assert profile.currencies == {"EUR": profile.items}


def test_a_pick_names_the_size_asked(shopify_settings: Settings) -> None:
    query = "a varsity top for women in size large"
    plan = plan_with_options(query, platforms=["sample-shop"])
    outcome = asyncio.run(run_pick(shopify_settings, query, plan))
    assert outcome.ok, outcome.output
    assert isinstance(outcome.output, ItemPickerResult)
    picks = pick_payload(outcome.output)["picks"]
    top = picks[0]
    assert top["title"] == "Classic Varsity Top - Large"
    assert top["attributes"]["size"] == "Large"
    assert (top["price"], top["currency"]) == (60.0, "EUR")
    assert top["price_usd"] == pytest.approx(60.0 * 1.03)
    varsity = [p for p in picks if p["title"].startswith("Classic Varsity Top")]
    assert len(varsity) == 1, "the three sizes are one product"


def test_a_shop_the_catalog_lacks_is_a_clear_tool_error(shopify_settings: Settings) -> None:
    plan = plan_with_options("a varsity top", platforms=["nowhere"])
    outcome = asyncio.run(run_pick(shopify_settings, "a varsity top", plan))
    assert not outcome.ok
    assert "no shop nowhere in this catalog; it has sample-shop" in outcome.output.render()
