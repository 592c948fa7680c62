"""An imported catalog through the whole path: `index build` builds from it (not the demo
sources), and a pick over the Shopify sample names the variant of the size asked, with the
listed price and currency beside the converted one; its facets are stored with the index
(and printed by `catalog facets`), and its similar items are other products."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.catalog.facets import read_facets
from app.catalog.importer import import_files
from app.catalog.offer_store import OfferStore
from app.catalog.profile import read_profile
from app.cli.catalog_cmd import app as catalog_app
from app.cli.pick_cmd import pick_payload, plan_with_options, run_pick
from app.cli.search_cmd import run_search
from app.config import get_settings
from app.config.settings import Settings
from app.recall.index_build import build_index
from app.recall.index_manifest import current_paths
from app.recall.search_index import SearchIndex
from app.recall.similar_items import SimilarFinder
from app.tools.picker._result import ItemPickerResult
from app.tools.search import ItemSearchResult


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


@pytest.mark.parametrize(("query", "size"), [("a varsity top, size M", "Medium")])
def test_a_size_asked_by_its_letter_picks_that_size(
    shopify_settings: Settings, query: str, size: str
) -> None:
    """The sample lists sizes as words; "size M" had left no size to hold (Large was picked)."""
    plan = plan_with_options(query, platforms=["sample-shop"])
    outcome = asyncio.run(run_pick(shopify_settings, query, plan))
    assert outcome.ok, outcome.output
    assert isinstance(outcome.output, ItemPickerResult)
    picks = pick_payload(outcome.output)["picks"]
    assert picks
    assert {p["attributes"].get("size") for p in picks} == {size}


def test_a_sold_out_listing_is_not_picked_and_is_named(shopify_settings: Settings) -> None:
    """The sample's one pink armchair is out of stock: it is left out, and named as the best
    match the shopper cannot have now."""
    offers = OfferStore.of(shopify_settings.var_dir).offers()
    sold_out = {o.title for o in offers if o.availability == "out_of_stock"}
    assert "Pink Armchair" in sold_out
    plan = plan_with_options("a pink armchair", platforms=["sample-shop"])
    outcome = asyncio.run(run_pick(shopify_settings, "a pink armchair", plan))
    assert outcome.ok, outcome.output
    assert isinstance(outcome.output, ItemPickerResult)
    part = outcome.output.slots[0]
    assert not {p.title for p in part.picks} & sold_out
    assert part.not_in_stock >= 1
    assert part.unavailable_ahead == ["Pink Armchair"]
    # the shop's only armchair is sold out: no beanbag or tuxedo stands in for it
    assert (part.picks, part.other_products > 0) == ([], True)


@pytest.mark.parametrize(
    ("query", "listed", "word"),
    [("a planter", ("plant pot", "pot"), "pot"), ("a lamp for the bedroom", ("light",), "light")],
)
def test_a_product_the_shop_lists_under_another_name_is_found_under_it(
    shopify_settings: Settings, query: str, listed: tuple[str, ...], word: str
) -> None:
    """No title says planter or lamp and their cosines stay under the relevance floor; the
    search tries the names shops also list them as, and the answer says which one."""
    plan = plan_with_options(query, platforms=["sample-shop"])
    outcome = asyncio.run(run_pick(shopify_settings, query, plan))
    assert outcome.ok, outcome.output
    assert isinstance(outcome.output, ItemPickerResult)
    part = outcome.output.slots[0]
    assert part.picks, part
    assert all(word in p.title.lower() for p in part.picks)
    assert part.unnamed == plan.category
    assert part.listed_as in listed


@pytest.mark.parametrize(
    ("request_", "query", "absent"),
    [("a pair of jeans for men", "jeans men", "jeans"), ("earrings", "earrings", None)],
)
def test_a_product_no_item_names_is_said_to_be_absent(
    shopify_settings: Settings, request_: str, query: str, absent: str | None
) -> None:
    """The sample sells no jeans: the search says the catalog lists none (the shown items are
    other products), while earrings, which it sells, are found as earrings."""
    plan = plan_with_options(request_, platforms=["sample-shop"])
    outcome = asyncio.run(run_search(shopify_settings, {"query": query}, plan))
    assert outcome.ok, outcome.output
    assert isinstance(outcome.output, ItemSearchResult)
    assert outcome.output.absent == absent
    assert outcome.output.hits
    if absent is None:
        assert "earring" in outcome.output.hits[0].title.lower()


@pytest.mark.parametrize("request_", ["jewelry under $30", "some jewellery for my wife"])
def test_a_broad_product_is_found_as_the_kinds_it_covers(
    shopify_settings: Settings, request_: str
) -> None:
    """No title says jewelry: the sample's necklaces, earrings and bracelets are jewelry, so
    they are picked as the product asked, with no claim that the shop lacks it."""
    plan = plan_with_options(request_, platforms=["sample-shop"])
    outcome = asyncio.run(run_pick(shopify_settings, request_, plan))
    assert outcome.ok, outcome.output
    assert isinstance(outcome.output, ItemPickerResult)
    part = outcome.output.slots[0]
    kinds = ("necklace", "earring", "bracelet", "choker", "pendant")
    assert part.picks, part
    assert all(any(k in p.title.lower() for k in kinds) for p in part.picks), part.picks
    assert (part.unnamed, part.listed_as) == (None, None)
    searched = asyncio.run(run_search(shopify_settings, {"query": request_}, plan))
    assert isinstance(searched.output, ItemSearchResult)
    assert searched.output.absent is None


def test_a_shop_the_catalog_lacks_is_a_clear_tool_error(shopify_settings: Settings) -> None:
    plan = plan_with_options("a varsity top", platforms=["nowhere"])
    outcome = asyncio.run(run_pick(shopify_settings, "a varsity top", plan))
    assert not outcome.ok
    assert "no shop nowhere in this catalog; it has sample-shop" in outcome.output.render()


def test_facets_are_stored_with_the_index_and_printed_by_the_cli(
    shopify_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = current_paths(shopify_settings.index_dir)
    stored = read_facets(paths.folder)
    assert stored is not None, "index build writes the facets beside the item table"
    assert [(s.value, s.count) for s in stored.shops] == [("sample-shop", stored.items)]
    assert stored.display_currency == "EUR"
    assert [c.value for c in stored.currencies] == ["EUR"]
    size = next(a for a in stored.attributes if a.name == "size")
    assert {v.value: v.count for v in size.values} == {
        "large": 2,
        "small": 1,
        "medium": 1,
        "regular": 1,
    }
    priced = [c for c in stored.categories if c.prices is not None]
    assert priced
    assert all(c.prices and c.prices.currency == "EUR" for c in priced)

    monkeypatch.setenv("PICKWISE_VAR_DIR", str(shopify_settings.var_dir))
    get_settings.cache_clear()
    try:
        result = CliRunner().invoke(catalog_app, ["facets", "--json", "--top", "500"])
    finally:
        get_settings.cache_clear()
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    assert printed["index_version"] == paths.version
    assert printed["facets"] == stored.model_dump(mode="json")


def test_similar_items_leave_out_the_other_sizes_of_the_item(shopify_settings: Settings) -> None:
    index = SearchIndex.open(shopify_settings)
    try:
        anchor = next(i for i in index.items.values() if i.title == "Classic Varsity Top - Large")
        sizes = {
            i.item_id
            for i in index.items.values()
            if i.group_id == anchor.group_id and i.item_id != anchor.item_id
        }
        assert len(sizes) == 2
        found = asyncio.run(SimilarFinder.build(index).similar(anchor.item_id, k=5))
        ids = [hit.item.item_id for hit in found.hits]
        assert ids, "the catalog has other products of its kind"
        assert anchor.item_id not in ids
        assert not sizes & set(ids)
        assert found.left_out["same_product"] >= len(sizes)
        if anchor.category:
            assert all(hit.item.category == anchor.category for hit in found.hits)
    finally:
        asyncio.run(index.close())
