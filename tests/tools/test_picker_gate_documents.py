"""What the relevance gate reads for an item: the title, and the category its spec sheet
implies when the title never names the asked product; that category marks accessories too."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from app.catalog.item import Item
from app.tools._picker_filter import hard_filter
from app.tools._picker_gate import accessories, gate_document, run_gate
from app.tools.shopping_plan import ShoppingPlan
from tests.tools.picker_fixtures import filtered_for, inputs_for, item

DELL = 'DELL SE2719H 68.6 cm (27") 1920 x 1080 pixels Full HD LCD Black'
DELL_AS_MONITOR = 'dell se2719h computer monitor 68.6 cm (27") 1920 x 1080 pixels full hd lcd black'
"""The cross-encoder reads only the first few dozen tokens: the category goes right after the
model code, where Icecat's titles put it when they name one."""


class _NamingReranker:
    """Scores 0.9 a document that says `word`, else 0.05, keeping what it was sent."""

    model_id = "naming"
    remote = False

    def __init__(self, word: str) -> None:
        self.word = word
        self.seen: list[str] = []

    def score(self, query: str, documents: Sequence[str]) -> list[float]:
        self.seen.extend(documents)
        return [0.9 if self.word in d else 0.05 for d in documents]

    async def ascore(self, query: str, documents: Sequence[str]) -> list[float]:
        return self.score(query, documents)


@pytest.mark.parametrize(
    ("title", "inferred", "noun", "document"),
    [
        (DELL, "computer monitor", "monitor", DELL_AS_MONITOR),
        # the title names the product: the guess adds nothing and could only mislead
        (
            "Philips LCD monitor 190S1SS",
            "computer monitor",
            "monitor",
            "philips lcd monitor 190s1ss",
        ),
        ("Epson Lamp - ELPLP43", "large format media", "lamp", "epson lamp - elplp43"),
        (DELL, None, "monitor", DELL.lower()),
        (DELL, "computer monitor", None, DELL.lower()),
        (
            "Kingston KC2500 M.2 500 GB PCI Express 3.0 NVMe",
            "internal solid state drive",
            "ssd",
            "kingston kc2500 internal solid state drive ssd m.2 500 gb pci express 3.0 nvme",
        ),
        # no model code in the title: the category goes last
        (
            "Philips Perfect replacement SRP",
            "remote control",
            "remote",
            "philips perfect replacement srp remote control",
        ),
    ],
)
def test_the_document_adds_the_implied_category_only_where_the_title_is_silent(
    title: str, inferred: str | None, noun: str | None, document: str
) -> None:
    code = {"DELL": "SE2719H", "Kingston": "KC2500"}.get(title.split()[0])
    listed = item(1, title, platform="icecat", inferred_category=inferred, model_number=code)
    assert gate_document(listed, noun) == document


async def test_a_monitor_titled_by_its_specs_alone_passes_the_gate() -> None:
    items = [
        item(
            1,
            DELL,
            171.95,
            platform="icecat",
            inferred_category="computer monitor",
            model_number="SE2719H",
        ),
        item(2, 'AOC 27B2H computer monitor 68.6 cm (27")', 149.0, platform="icecat"),
        item(3, 'HP 27" monitor arm', 60.0, platform="icecat"),
    ]
    p = ShoppingPlan(category="monitor")
    inputs = inputs_for(items, p, query="monitor")
    model = _NamingReranker("monitor")
    gate = await run_gate(inputs, hard_filter(inputs), model, k=3, floor=0.3)
    assert gate.on
    assert DELL_AS_MONITOR in model.seen
    assert "icecat:1" not in gate.sunk
    assert gate.scores["icecat:1"] == pytest.approx(0.9)


@pytest.mark.parametrize(
    ("listed", "wanted", "accessory"),
    [
        ({"inferred_category": "notebook case"}, "laptop", True),
        ({"category": "notebook", "inferred_category": None}, "laptop", False),
        ({"inferred_category": "notebook"}, "laptop", False),
    ],
)
def test_an_implied_accessory_category_marks_an_accessory(
    listed: dict[str, str | None], wanted: str, accessory: bool
) -> None:
    items: list[Item] = [
        item(1, "Kensington SP80 15.6 Deluxe Topload", platform="icecat", **listed)
    ]
    p = ShoppingPlan(category=wanted)
    inputs = inputs_for(items, p, query=wanted)
    marked = accessories(inputs, filtered_for(items, p, query=wanted))
    assert (marked == {"icecat:1"}) is accessory
