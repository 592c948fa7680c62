"""price_compare through `invoke_tool` on the real index: a Walmart listing gets its Amazon
offer with the cheapest marked and the saving, never itself; unpriced offers are never
cheapest; one product's listings are grouped; slots, plan scope and bad arguments."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.catalog.matching import ProductMatcher
from app.config.params.compare import COMPARE_DEFAULT_ITEMS
from app.recall.search_index import SearchIndex
from app.tools.base import ToolContext, ToolError, invoke_tool
from app.tools.candidates import Candidate
from app.tools.compare._result import ComparedItem, PriceCompareResult
from app.tools.compare.price_compare import PriceCompareTool
from app.tools.plan.shopping_plan import ShoppingPlan
from tests.compare.conftest import listing

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def tool(index: SearchIndex, matcher: ProductMatcher) -> PriceCompareTool:
    return PriceCompareTool(index, matcher)


def compare(
    tool: PriceCompareTool, args: Any, ctx: ToolContext | None = None
) -> PriceCompareResult:
    outcome = asyncio.run(invoke_tool(tool, args, ctx or ToolContext("s", "t")))
    assert isinstance(outcome.output, PriceCompareResult), outcome.output
    return outcome.output


def error(tool: PriceCompareTool, args: Any, ctx: ToolContext | None = None) -> ToolError:
    outcome = asyncio.run(invoke_tool(tool, args, ctx or ToolContext("s", "t")))
    assert isinstance(outcome.output, ToolError), outcome.output
    return outcome.output


def compared(result: PriceCompareResult) -> dict[str, ComparedItem]:
    return {item.item_id: item for group in result.products for item in group.items}


def test_walmart_listing_gets_its_cheaper_amazon_offer(
    tool: PriceCompareTool, index: SearchIndex
) -> None:
    walmart = listing(index, "walmart", "Belkin f8v3311b10 HDMI Cable")
    amazon = listing(index, "amazon", "Belkin f8v3311b10 HDMI to HDMI Cable 10 Feet")
    result = compare(tool, {"item_ids": [walmart.item_id]})
    item = compared(result)[walmart.item_id]
    offer = next(o for o in item.offers if o.item_id == amazon.item_id)
    assert walmart.price_usd is not None
    assert amazon.price_usd is not None
    assert amazon.price_usd < walmart.price_usd
    assert offer.cheapest
    assert item.cheapest_offer_id == amazon.item_id
    assert item.saving_usd == offer.saving_usd == round(walmart.price_usd - amazon.price_usd, 2)
    assert "same model number" in offer.evidence
    assert f"saves ${item.saving_usd:,.2f}" in result.render()
    assert (result.compared, result.with_offers) == (1, 1)


def test_offers_are_never_the_item_or_its_platform(
    tool: PriceCompareTool, index: SearchIndex
) -> None:
    ids = [
        listing(index, "walmart", "Belkin f8v3311b10 HDMI Cable").item_id,
        listing(index, "walmart", "HP q3675a Image Transfer Kit").item_id,
        listing(index, "walmart", "Sakar Crayola Digital Camcorder").item_id,
    ]
    result = compare(tool, {"item_ids": ids})
    for item in compared(result).values():
        assert item.offers
        assert all(o.item_id != item.item_id for o in item.offers)
        assert all(o.platform != item.platform for o in item.offers)


def test_unpriced_offers_are_listed_but_never_cheapest(
    tool: PriceCompareTool, index: SearchIndex
) -> None:
    walmart = listing(index, "walmart", "HP q3675a Image Transfer Kit")
    unpriced = listing(
        index, "amazon", "Hewlett Packard q3675a Image Transfer Kit for HP Color Laserjet 4650"
    )
    item = compared(compare(tool, {"item_ids": [walmart.item_id]}))[walmart.item_id]
    offer = next(o for o in item.offers if o.item_id == unpriced.item_id)
    assert offer.price_usd is None
    assert not offer.cheapest
    assert offer.saving_usd is None
    assert item.offers[-1].price_usd is None
    priced = [o for o in item.offers if o.price_usd is not None]
    cheapest = min(priced, key=lambda o: o.price_usd or 0.0)
    assert [o.item_id for o in item.offers if o.cheapest] == [cheapest.item_id]
    assert item.saving_usd == round((walmart.price_usd or 0.0) - (cheapest.price_usd or 0.0), 2)


def test_item_sold_nowhere_else_has_no_offers(tool: PriceCompareTool, index: SearchIndex) -> None:
    labels = listing(
        index,
        "icecat",
        "HERMA Multi-purpose labels 16x22 mm red paper matt hand inscription 1344 pcs.",
    )
    result = compare(tool, {"item_ids": [labels.item_id]})
    item = compared(result)[labels.item_id]
    assert item.offers == []
    assert item.cheapest_offer_id is None
    assert item.saving_usd is None
    assert result.with_offers == 0
    assert "no offer of this product on another platform" in result.render()


def test_listings_of_one_product_are_grouped(tool: PriceCompareTool, index: SearchIndex) -> None:
    walmart = listing(index, "walmart", "Belkin f8v3311b10 HDMI Cable")
    amazon = listing(index, "amazon", "Belkin f8v3311b10 HDMI to HDMI Cable 10 Feet")
    other = listing(index, "walmart", "Sakar Crayola Digital Camcorder")
    result = compare(tool, {"item_ids": [walmart.item_id, other.item_id, amazon.item_id]})
    groups = [[i.item_id for i in g.items] for g in result.products]
    assert groups == [[walmart.item_id, amazon.item_id], [other.item_id]]
    assert result.compared == 3


def test_slot_candidates_are_the_default(tool: PriceCompareTool, index: SearchIndex) -> None:
    walmart = [i for i in index.items.values() if i.platform == "walmart"]
    ctx = ToolContext("s", "t")
    ctx.candidates.replace(
        "laptop",
        [
            Candidate(item_id=i.item_id, slot="laptop", query="q", recall_score=1.0, rank=n)
            for n, i in enumerate(walmart[:8], start=1)
        ],
    )
    result = compare(tool, {"slot": "laptop"}, ctx)
    assert result.slot == "laptop"
    assert list(compared(result)) == [i.item_id for i in walmart[: COMPARE_DEFAULT_ITEMS.get()]]
    assert compare(tool, {"slot": "laptop", "max_items": 2}, ctx).compared == 2


def test_plan_platforms_limit_the_offers(tool: PriceCompareTool, index: SearchIndex) -> None:
    walmart = listing(index, "walmart", "HP q3675a Image Transfer Kit")
    ctx = ToolContext("s", "t", plan=ShoppingPlan(platforms=("icecat",)))
    item = compared(compare(tool, {"item_ids": [walmart.item_id]}, ctx))[walmart.item_id]
    assert item.offers
    assert {o.platform for o in item.offers} == {"icecat"}


def test_unknown_ids_are_reported(tool: PriceCompareTool, index: SearchIndex) -> None:
    walmart = listing(index, "walmart", "Belkin f8v3311b10 HDMI Cable")
    result = compare(tool, {"item_ids": ["amazon:doesnotexist", walmart.item_id]})
    assert result.unknown_item_ids == ["amazon:doesnotexist"]
    assert result.compared == 1
    assert error(tool, {"item_ids": ["amazon:doesnotexist"]}).code == "not_found"


@pytest.mark.parametrize(
    "args",
    [
        {"item_ids": "walmart:02f071b33bc3"},
        {"item_ids": []},
        {"item_ids": [""]},
        {"max_items": 0},
        {"slot": ""},
        {"item": ["walmart:02f071b33bc3"]},
        "not json",
    ],
)
def test_bad_arguments_are_structured_errors(tool: PriceCompareTool, args: Any) -> None:
    failure = error(tool, args)
    assert failure.code == "invalid_arguments"
    assert failure.retry


def test_empty_slot_says_to_search_first(tool: PriceCompareTool) -> None:
    failure = error(tool, {"slot": "tv"})
    assert failure.code == "invalid_request"
    assert "item_search" in failure.message
