"""Recall by product type on hand-made items: which items a product's shelf holds, when a
search needs it, and the shelf's floor under the relevance gate (item_search and the agent
on the real index are in test_item_search_widening and test_offline_agent)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from app.catalog.item import Item
from app.recall.filters import SearchFilters
from app.tools.picker._filter import hard_filter
from app.tools.picker._gate import run_gate
from app.tools.plan.shopping_plan import ShoppingPlan
from app.tools.search._product import names_product, on_shelf
from app.tools.search._shelves import ShelfLookup, needs_shelf
from tests.tools.picker_fixtures import inputs_for


def item(item_id: str, title: str, price: float, *, typed: str | None = None) -> Item:
    platform, _ = item_id.split(":")
    return Item(
        item_id=item_id,
        platform=platform,
        title=title,
        price_usd=price,
        source=platform,
        category=typed if platform != "icecat" else None,
        inferred_category=typed if platform == "icecat" else None,
    )


SHUTTLE = item(
    "icecat:1", "Shuttle XPC nano NC1010XA 4 GB 128 GB SSD Mini PC Black", 354.95, typed="Mini PC"
)
CHROMEBOX = item("icecat:2", "Acer Chromebox CXI3 16 GB 128 GB SSD", 1082.95, typed="mini pc")
ALL_IN_ONE = item(
    "icecat:3", "Lenovo IdeaCentre A340 60.5 cm (23.8in)", 610.95, typed="All-in-One PC"
)
TOWER = item("icecat:4", "HP Compaq dc7700 Convertible Minitower PC", 49.95, typed="PC")
UNTYPED = item("icecat:5", "Sylvanian Families Comfy Living Room Set", 24.95)
CD = item("google:6", "i Spy Fantasy with Mini CD for PC", 19.99)
NERO = item("google:7", "Nero 7 Ultra Edition Enhanced Mini PC & Home Entrmnt Soln", 83.97)
PAPER = item("amazon:8", "Aspen Laser Paper 500 Sheets", 29.68, typed="laser printers")
ITEMS = {i.item_id: i for i in (SHUTTLE, CHROMEBOX, ALL_IN_ONE, TOWER, UNTYPED, CD, NERO, PAPER)}


def ids(items: list[Item]) -> list[str]:
    return [i.item_id for i in items]


def test_a_shelf_holds_the_items_typed_as_the_product_under_the_filters() -> None:
    shelves = ShelfLookup(ITEMS)
    assert ids(shelves.shelved("mini pc", SearchFilters())) == ["icecat:1", "icecat:2"]
    assert ids(shelves.shelved("mini pcs", SearchFilters.build(price_max=500))) == ["icecat:1"]
    assert ids(shelves.shelved("all-in-one computer", SearchFilters())) == ["icecat:3"]
    assert shelves.shelved("gaming pc", SearchFilters()) == []


def test_a_type_is_its_words_in_order_under_the_catalogs_name() -> None:
    tape = item("icecat:9", "Brother M831 printer label Gold", 9.94, typed="printer label")
    labeller = item("icecat:10", "DYMO LabelManager 210D QWERTY", 69.45, typed="label printer")
    assert on_shelf(labeller, "label maker")
    assert not on_shelf(tape, "label maker")
    assert not on_shelf(tape, "label printer")


def test_a_desktop_is_filed_under_the_types_of_its_kind() -> None:
    """Icecat never types a desktop as one: PC, all-in-one PC and mini PC are desktops."""
    desktops = ShelfLookup(ITEMS).shelved("desktop computer", SearchFilters())
    assert ids(desktops) == ["icecat:1", "icecat:2", "icecat:3", "icecat:4"]
    notebook = item("icecat:11", "HP ProBook 450 G7 Notebook", 780.95, typed="notebook")
    assert not on_shelf(notebook, "desktop")
    assert not on_shelf(TOWER, "laptop")


def test_a_sort_of_desktop_is_shelved_only_when_its_title_says_it() -> None:
    """An office PC is no gaming desktop; Icecat names its gaming PCs by their line."""
    rog = item("icecat:12", "ASUS ROG G15DH-DS562 PC AMD Ryzen 5 3600X 16 GB", 1124.95, typed="PC")
    legion = item("icecat:13", "Lenovo Legion T530 Intel Core i7 32 GB Tower", 1191.95, typed="PC")
    shelves = ShelfLookup({**ITEMS, rog.item_id: rog, legion.item_id: legion})
    for asked in ("gaming desktop", "gaming pc", "gaming computers"):
        assert ids(shelves.shelved(asked, SearchFilters())) == ["icecat:12", "icecat:13"]
    assert not on_shelf(TOWER, "gaming desktop")
    assert on_shelf(TOWER, "desktop pc")
    assert on_shelf(TOWER, "pc")
    assert not on_shelf(TOWER, "business desktop")


def test_a_shop_listings_category_is_a_browse_node_not_a_type() -> None:
    assert not on_shelf(PAPER, "laser printer")
    assert ShelfLookup(ITEMS).shelved("laser printers", SearchFilters()) == []
    assert on_shelf(SHUTTLE, "mini pc")
    assert not on_shelf(TOWER, "mini pc")


def test_a_two_word_product_needs_its_shelf_when_few_typed_hits_are_of_it() -> None:
    assert needs_shelf([CD, NERO, SHUTTLE, UNTYPED, TOWER], "mini pc")
    assert not needs_shelf([CD, SHUTTLE, CHROMEBOX, TOWER], "mini pc")
    # one-word products are found by their word
    assert not needs_shelf([CD, UNTYPED, TOWER], "pc")


def test_with_shop_listings_only_the_shelf_is_needed_when_none_names_the_product() -> None:
    assert needs_shelf([CD], "mini pc")
    assert not needs_shelf([CD, NERO], "mini pc")
    assert needs_shelf([], "mini pc")


class _TitleWordReranker:
    """Scores 0.95 a document that says `word`, else 0.05: a cross-encoder that reads a
    word, not what the product is."""

    model_id = "title-word"
    remote = False

    def __init__(self, word: str) -> None:
        self.word = word

    def score(self, query: str, documents: Sequence[str]) -> list[float]:
        return [0.95 if self.word in d else 0.05 for d in documents]

    async def ascore(self, query: str, documents: Sequence[str]) -> list[float]:
        return self.score(query, documents)


@pytest.mark.asyncio
async def test_the_gate_scores_an_item_of_the_asked_type_at_least_the_shelf_floor() -> None:
    items = [CD, CHROMEBOX, TOWER]
    inputs = inputs_for(items, ShoppingPlan(category="mini pc"), query="mini pc")
    model = _TitleWordReranker("mini cd")
    gate = await run_gate(inputs, hard_filter(inputs), model, k=3, floor=0.3, shelf=1.0)
    assert gate.scores == {"google:6": 0.95, "icecat:2": 1.0, "icecat:4": 0.05}
    assert gate.shelved == {"icecat:2"}
    assert gate.sunk == {"icecat:4"}
    plain = await run_gate(inputs, hard_filter(inputs), model, k=3, floor=0.3)
    assert plain.scores["icecat:2"] == 0.05
    assert plain.shelved == frozenset()


@pytest.mark.asyncio
async def test_the_gate_sinks_an_item_filed_as_another_kind_of_the_asked_machine() -> None:
    """The cross-encoder scored notebooks up to 0.73 for "desktop"; one the catalog files as
    a notebook sinks whatever its score, and its reason says how the catalog files it; for a
    laptop, a PC does."""
    notebook = item(
        "icecat:12", "ASUS K571GT Notebook Gray 15.6in Core i7", 899.95, typed="notebook"
    )
    items = [notebook, TOWER]
    inputs = inputs_for(items, ShoppingPlan(category="desktop"), query="desktop core i7")
    gate = await run_gate(inputs, hard_filter(inputs), _TitleWordReranker("core"), k=3, floor=0.3)
    assert gate.scores["icecat:12"] == 0.95
    assert (gate.misfiled, gate.sunk) == ({"icecat:12"}, {"icecat:12", "icecat:4"})
    laptops = inputs_for(items, ShoppingPlan(category="laptop"), query="laptop core i7")
    gate = await run_gate(laptops, hard_filter(laptops), _TitleWordReranker("core"), k=3, floor=0.3)
    assert gate.misfiled == {"icecat:4"}
    assert "icecat:12" not in gate.sunk


def test_an_item_filed_as_the_product_names_it() -> None:
    assert names_product(TOWER, "desktop pc")
    assert not names_product(CD, "desktop pc")
