"""The BM25 recall source on a real index of a few hundred Icecat products, filters included."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from app.catalog.item import Item
from app.catalog.loader import load_catalog
from app.catalog.standards import canonical_standards, standards_fingerprint
from app.config.settings import Settings
from app.errors import InvalidRequest
from app.recall.bm25 import Bm25Index, bm25_recipe
from app.recall.bm25_retriever import Bm25Retriever
from app.recall.filters import SearchFilters, brand_key
from app.recall.pipeline import RecallConfig, RecallPipeline
from app.recall.retriever import Hit, Retriever

SAMPLE_SIZE = 400


@pytest.fixture(scope="module")
def items() -> list[Item]:
    """The first few hundred Icecat products of the real catalog."""
    catalog = load_catalog(Settings().data_dir)
    return [i for i in catalog.items if i.platform == "icecat"][:SAMPLE_SIZE]


@pytest.fixture(scope="module")
def by_id(items: list[Item]) -> dict[str, Item]:
    return {i.item_id: i for i in items}


@pytest.fixture(scope="module")
def retriever(items: list[Item]) -> Bm25Retriever:
    return Bm25Retriever(Bm25Index.build(items))


def payload(item: Item) -> dict[str, Any]:
    """The filterable fields of an item, as `SearchFilters.matches` reads them."""
    return {
        "platform": item.platform,
        "price_usd": item.price_usd,
        "rating": item.rating,
        "brand_key": brand_key(item.brand),
    }


def test_is_a_retriever_named_bm25(retriever: Bm25Retriever) -> None:
    assert isinstance(retriever, Retriever)
    assert retriever.source == "bm25"


async def test_a_part_number_finds_its_product_first(
    retriever: Bm25Retriever, items: list[Item]
) -> None:
    counts = Counter(t.lower() for i in items for t in i.title.split())
    target = next(i for i in items if i.model_number and counts[i.model_number.lower()] == 1)
    assert target.model_number is not None
    hits = await retriever.recall(target.model_number, SearchFilters(), top_k=5)
    assert hits[0].item_id == target.item_id


async def test_hits_are_hits_best_first_and_capped(retriever: Bm25Retriever) -> None:
    hits = await retriever.recall("black toner cartridge", SearchFilters(), top_k=10)
    assert len(hits) == 10
    assert all(isinstance(h, Hit) and h.score > 0 for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert len({h.item_id for h in hits}) == 10


async def test_a_query_of_stop_words_only_finds_nothing(retriever: Bm25Retriever) -> None:
    assert await retriever.recall("the of and", SearchFilters(), top_k=10) == []


async def test_top_k_below_one_is_an_invalid_request(retriever: Bm25Retriever) -> None:
    with pytest.raises(InvalidRequest):
        await retriever.recall("cable", SearchFilters(), top_k=0)


@pytest.mark.parametrize(
    "filters",
    [
        SearchFilters.build(platforms="icecat"),
        SearchFilters.build(price_min=20, price_max=100),
        SearchFilters.build(price_max=15),
        SearchFilters.build(brands_in=["hp"]),
        SearchFilters.build(brands_in=["HP", "Canon"], price_min=30),
        SearchFilters.build(brands_out=["HP", "startech.com"]),
    ],
    ids=["platform", "price-range", "price-max", "brand-in", "brands-in+price", "brands-out"],
)
async def test_filtered_hits_are_exactly_the_unfiltered_hits_that_pass(
    retriever: Bm25Retriever,
    by_id: dict[str, Item],
    filters: SearchFilters,
) -> None:
    query = "black toner cartridge usb cable"
    everything = await retriever.recall(query, SearchFilters(), top_k=SAMPLE_SIZE)
    expected = [h for h in everything if filters.matches(payload(by_id[h.item_id]))]
    filtered = await retriever.recall(query, filters, top_k=SAMPLE_SIZE)
    assert expected  # the example exercises the filter
    assert [h.item_id for h in filtered] == [h.item_id for h in expected]
    assert [h.score for h in filtered] == pytest.approx([h.score for h in expected])
    top = await retriever.recall(query, filters, top_k=5)
    assert [h.score for h in top] == pytest.approx([h.score for h in expected[:5]])
    expected_scores = {h.item_id: h.score for h in expected}
    assert all(expected_scores[h.item_id] == pytest.approx(h.score) for h in top)


async def test_tied_scores_come_in_item_id_order(retriever: Bm25Retriever) -> None:
    hits = await retriever.recall("black toner cartridge usb cable", SearchFilters(), top_k=400)
    keys = [(-h.score, h.item_id) for h in hits]
    assert keys == sorted(keys)
    assert len({h.score for h in hits}) < len(hits)  # the example has ties


async def test_brand_filters_keep_or_drop_that_brand(
    retriever: Bm25Retriever, by_id: dict[str, Item]
) -> None:
    only_hp = await retriever.recall(
        "toner cartridge", SearchFilters.build(brands_in=["HP"]), top_k=20
    )
    no_hp = await retriever.recall(
        "toner cartridge", SearchFilters.build(brands_out=["hp"]), top_k=20
    )
    assert only_hp
    assert no_hp
    assert {by_id[h.item_id].brand for h in only_hp} == {"HP"}
    assert "HP" not in {by_id[h.item_id].brand for h in no_hp}


async def test_another_platform_finds_nothing(retriever: Bm25Retriever) -> None:
    filters = SearchFilters.build(platforms=["walmart", "amazon"])
    assert await retriever.recall("cable", filters, top_k=10) == []


async def test_through_the_pipeline_alone_the_bm25_order_is_kept(
    retriever: Bm25Retriever,
) -> None:
    filters = SearchFilters.build(price_max=50)
    direct = await retriever.recall("patch cable", filters, top_k=10)
    response = await RecallPipeline([retriever], RecallConfig(depth=10)).run(
        "patch cable", filters, top_k=10
    )
    assert [h.item_id for h in response.hits] == [h.item_id for h in direct]
    assert [h.source_scores["bm25"] for h in response.hits] == [h.score for h in direct]
    assert dict(response.per_source_counts) == {"bm25": len(direct)}


@pytest.fixture(scope="module")
def usb_items() -> list[Item]:
    """Every catalog product whose title says usb, cable or hub: USB-C among many USB A/B."""
    catalog = load_catalog(Settings().data_dir)
    return [i for i in catalog.items if {"usb", "cable", "hub"} & set(i.title.lower().split())]


def test_a_usb_c_request_finds_usb_c_titles_first(usb_items: list[Item]) -> None:
    index = Bm25Index.build(usb_items)
    titles = {i.item_id: canonical_standards(i.title.lower()) for i in usb_items}
    assert sum("usb-c" in t for t in titles.values()) >= 10
    for query in ("usb c cable", "usb type-c cable", "type c cable"):
        hits = index.search(query, SearchFilters(), top_k=10)
        assert all("usb-c" in titles[h.item_id] for h in hits), (query, hits)
    plain = index.search("usb hub", SearchFilters(), top_k=len(usb_items))
    assert any("usb-c" in titles[h.item_id] for h in plain)


def test_the_index_version_follows_the_standards_spellings() -> None:
    """The BM25 titles carry the names, so a change of spellings must rebuild the index."""
    assert f"|title-standards={standards_fingerprint()}" in bm25_recipe()


@pytest.fixture(scope="module")
def drive_items() -> list[Item]:
    """Every catalog product whose title says drive, disk, ssd or hdd."""
    catalog = load_catalog(Settings().data_dir)
    wanted = {"drive", "disk", "ssd", "hdd"}
    return [i for i in catalog.items if wanted & set(i.title.lower().split())]


def test_a_short_name_and_a_capacity_find_titles_that_spell_them_out(
    drive_items: list[Item],
) -> None:
    index = Bm25Index.build(drive_items)
    titles = {i.item_id: i.title for i in drive_items}
    verbatim = next(
        i.item_id for i in drive_items if "internal solid state drive M.2 1000 GB" in i.title
    )
    for query in ("ssd 1tb", "ssd 1 tb", "solid state drive 1000 gb"):
        hits = index.search(query, SearchFilters(), top_k=5)
        assert verbatim in [h.item_id for h in hits], (query, [titles[h.item_id] for h in hits])


def test_an_untitled_item_is_found_by_the_category_its_spec_sheet_gives() -> None:
    """Dell's 27-inch monitors never say "monitor"; their spec sheets make them one."""
    catalog = load_catalog(Settings().data_dir)
    sized = [i for i in catalog.items if '(27")' in i.title]
    dell = next(i for i in sized if i.title.startswith("DELL SE2719H"))
    assert "monitor" not in f"{dell.title} {dell.description}".lower()
    index = Bm25Index.build(sized)
    hits = index.search("monitor", SearchFilters(), top_k=len(sized))
    assert dell.item_id in [h.item_id for h in hits]


def test_an_untitled_item_is_found_by_the_short_name_of_its_spec_sheet_category() -> None:
    """Kingston's KC2500 titles say neither "ssd" nor "solid state drive"; its sheet does."""
    catalog = load_catalog(Settings().data_dir)
    sized = [i for i in catalog.items if "500 GB" in i.title or "500GB" in i.title]
    kingston = next(i for i in sized if "KC2500" in i.title)
    assert "ssd" not in f"{kingston.title} {kingston.description}".lower()
    index = Bm25Index.build(sized)
    hits = index.search("ssd", SearchFilters(), top_k=len(sized))
    assert kingston.item_id in [h.item_id for h in hits]


def test_a_single_letter_or_digit_is_a_word_of_the_query() -> None:
    """ "d battery" asks for D cells and "iphone 4" for that model: a one-character word
    counts, so the titles that say it come before the other batteries and iPhones."""
    catalog = load_catalog(Settings().data_dir)
    batteries = [i for i in catalog.items if "battery" in i.title.lower().split()]
    phones = [i for i in catalog.items if "iphone" in i.title.lower()]
    for pool, query, word in ((batteries, "d battery", "d"), (phones, "iphone 4", "4")):
        titles = {i.item_id: re.findall(r"\w+", i.title.lower()) for i in pool}
        saying = [i for i in pool if word in titles[i.item_id]]
        assert 3 <= len(saying) < len(pool) / 2, (query, len(saying), len(pool))
        index = Bm25Index.build(pool)
        hits = index.search(query, SearchFilters(), top_k=3)
        assert all(word in titles[h.item_id] for h in hits), (query, hits)
