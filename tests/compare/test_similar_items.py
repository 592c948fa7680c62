"""similar_items through `invoke_tool` on the real index: other products of the item's
category, never the item or the same product on another shop (by codes or by the matcher),
within the plan's budget, shop scope and ruled-out words; structured errors for bad input."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from app.catalog.currency import usd_rates
from app.catalog.matching import ProductMatcher
from app.recall.filters import SearchFilters
from app.recall.search_index import SearchIndex
from app.tools.base import ToolContext, ToolError, invoke_tool
from app.tools.browse.similar_items import SimilarItemsResult, SimilarItemsTool, limits_of
from app.tools.plan.shopping_plan import Constraint, ShoppingPlan
from tests.compare.conftest import listing

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def tool(index: SearchIndex, matcher: ProductMatcher) -> SimilarItemsTool:
    return SimilarItemsTool(index, matcher)


def similar(tool: SimilarItemsTool, args: Any, plan: ShoppingPlan | None = None) -> Any:
    ctx = ToolContext("s", "t", plan=plan or ShoppingPlan())
    return asyncio.run(invoke_tool(tool, args, ctx)).output


def test_the_same_mouse_on_another_shop_is_left_out(
    tool: SimilarItemsTool, index: SearchIndex, matcher: ProductMatcher
) -> None:
    anchor = listing(
        index,
        "amazon",
        "Agama m-300 USB Black Blister Retractable Mini Mouse for Notebook Great Portability",
    )
    twin = listing(
        index, "walmart", "Genius Agama m-300 Retractable Mini Mouse - Optical - USB - Black"
    )
    assert matcher.same_product(anchor, twin)
    nearest = asyncio.run(
        index.store.similar(
            index.collection, anchor.item_id, SearchFilters(), limit=5, same=("category",)
        )
    )
    assert twin.item_id in {h.item_id for h in nearest}, "the twin is among the raw neighbours"

    result = similar(tool, {"item_id": anchor.item_id, "k": 5})
    assert isinstance(result, SimilarItemsResult), result
    ids = [i.item_id for i in result.items]
    assert len(ids) == 5
    assert anchor.item_id not in ids
    assert twin.item_id not in ids
    assert result.left_out["same_product"] >= 1
    assert result.category == anchor.category == "mice"
    assert all(index.items[i].category == "mice" for i in ids)
    assert [i.score for i in result.items] == sorted((i.score for i in result.items), reverse=True)
    for item_id in ids:
        other = index.items[item_id]
        assert other.platform == anchor.platform or not matcher.same_product(anchor, other)
    rendered = result.render()
    assert all(f"[{i}]" in rendered for i in ids)


def test_a_listing_sharing_the_model_number_is_left_out(
    tool: SimilarItemsTool, index: SearchIndex
) -> None:
    walmart = listing(index, "walmart", "Belkin f8v3311b10 HDMI Cable")
    amazon = listing(index, "amazon", "Belkin f8v3311b10 HDMI to HDMI Cable 10 Feet")
    result = similar(tool, {"item_id": amazon.item_id, "k": 10})
    assert isinstance(result, SimilarItemsResult), result
    assert walmart.item_id not in {i.item_id for i in result.items}
    assert result.items


def test_the_plan_budget_shops_and_ruled_out_words_hold(
    tool: SimilarItemsTool, index: SearchIndex
) -> None:
    anchor = listing(index, "amazon", "Belkin f8v3311b10 HDMI to HDMI Cable 10 Feet")
    open_result = similar(tool, {"item_id": anchor.item_id, "k": 10})
    assert isinstance(open_result, SimilarItemsResult)
    assert any("belkin" in i.title.lower() for i in open_result.items)
    assert any((i.price_usd or 0) > 12 for i in open_result.items)

    plan = ShoppingPlan(
        budget_usd=12.0,
        exclude=(Constraint(term="belkin", evidence="no belkin"),),
        platforms=("amazon",),
    )
    result = similar(tool, {"item_id": anchor.item_id, "k": 10}, plan)
    assert isinstance(result, SimilarItemsResult), result
    assert result.items
    belkin = re.compile(r"(?<![0-9a-z])belkin(?![0-9a-z])", re.IGNORECASE)
    for item in result.items:
        assert item.platform == "amazon"
        assert item.price_usd is not None
        assert item.price_usd <= 12.0
        assert not belkin.search(f"{item.title} {item.brand or ''} {item.category or ''}")
    assert result.limits == {"platforms": ["amazon"], "budget_usd": 12.0, "exclude": ["belkin"]}
    assert "Plan limits applied" in result.render()


def test_a_budget_said_in_rupees_is_also_checked_in_rupees() -> None:
    rate = usd_rates()["INR"]
    plan = ShoppingPlan(budget_usd=round(1500 * rate, 2), budget_amount=1500.0, currency="INR")
    assert limits_of(plan).listed_max == (1500.0, "INR")
    headroom = ShoppingPlan(budget_usd=round(1650 * rate, 2), budget_amount=1500.0, currency="INR")
    listed = limits_of(headroom).listed_max
    assert listed is not None
    assert listed[1] == "INR"
    assert listed[0] == pytest.approx(1650, abs=0.5)
    assert limits_of(ShoppingPlan(budget_usd=20.0)).listed_max is None


def test_an_unknown_item_is_a_not_found_error(tool: SimilarItemsTool) -> None:
    failure = similar(tool, {"item_id": "amazon:doesnotexist"})
    assert isinstance(failure, ToolError)
    assert failure.code == "not_found"
    assert "amazon:doesnotexist" in failure.message


@pytest.mark.parametrize(
    "args",
    [
        {},
        {"item_id": ""},
        {"item_id": "amazon:x", "k": 0},
        {"item_id": "amazon:x", "k": 21},
        {"item_id": "amazon:x", "limit": 3},
        {"item_id": "x" * 81},
        "not json",
    ],
)
def test_bad_arguments_are_structured_errors(tool: SimilarItemsTool, args: Any) -> None:
    failure = similar(tool, args)
    assert isinstance(failure, ToolError)
    assert failure.code == "invalid_arguments"
    assert failure.retry
