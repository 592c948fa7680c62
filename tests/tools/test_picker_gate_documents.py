"""What the relevance gate reads for an item: the title, and the category its spec sheet
implies when the title never names the asked product; that category marks accessories too, as
does a title that names the product only to describe another ("Triple-Monitor Dock")."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from app.catalog.item import Item
from app.tools.picker._filter import hard_filter
from app.tools.picker._gate import accessories, run_gate
from app.tools.picker._gate_document import gate_document
from app.tools.plan.shopping_plan import ShoppingPlan
from app.tools.search._product import names_as_compound_modifier
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
        # the title names another product: the spec fields it shares with notebooks do not
        # make it one (a part's size, "512 GB SSD", names no product of its own)
        (
            "Lenovo Legion T530 i7-9700 32 GB DDR4-SDRAM 1512 GB HDD+SSD Tower Black PC",
            "notebook",
            "laptop",
            "lenovo legion t530 i7-9700 32 gb ddr4-sdram 1512 gb hdd+ssd tower black pc",
        ),
        (
            'Acer Spin 3 SP314-54N-50W3 Hybrid (2-in-1) Silver 35.6 cm (14") 512 GB SSD',
            "notebook",
            "laptop",
            'acer spin 3 sp314-54n-50w3 notebook hybrid (2-in-1) silver 35.6 cm (14") 512 gb ssd',
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
    code = {"DELL": "SE2719H", "Kingston": "KC2500", "Acer": "SP314-54N-50W3"}.get(title.split()[0])
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
    title = "Kensington SP80 15.6 Deluxe Topload"
    items: list[Item] = [item(1, title, 10.0, platform="icecat", **listed)]
    p = ShoppingPlan(category=wanted)
    inputs = inputs_for(items, p, query=wanted)
    marked = accessories(inputs, filtered_for(items, p, query=wanted))
    assert (marked == {"icecat:1"}) is accessory


@pytest.mark.parametrize(
    ("title", "noun", "describes"),
    [
        ("Tripp Lite Triple-Monitor USB-C Docking Station with 4K HDMI", "monitor", True),
        ("Ergotron Dual-Monitor Arm", "monitor", True),
        ("StarTech Dual-Monitor KVM Switch", "monitor", True),
        ("Xiaomi Mi Power-Bank 10000", "bank", False),
        ("Xiaomi Power-Bank with cable", "bank", False),
        ("C2G RCA Plug x2 Y-Cable RCA Plug", "cable", False),
        ("AOC 27B2H computer monitor", "monitor", False),
        ("Philips Dual-Monitor Stand and 27B2H monitor", "monitor", False),
    ],
)
def test_a_noun_inside_a_compound_can_describe_another_product(
    title: str, noun: str, describes: bool
) -> None:
    assert names_as_compound_modifier(title, noun) is describes


def test_a_dock_named_for_monitors_is_no_monitor() -> None:
    dock = item(1, "Tripp Lite Triple-Monitor USB-C Docking Station with 4K HDMI", 146.94)
    screen = item(2, "AOC 27B2H computer monitor 68.6 cm", 142.94)
    p = ShoppingPlan(category="monitor")
    inputs = inputs_for([dock, screen], p, query="monitor 4k")
    assert accessories(inputs, filtered_for([dock, screen], p, query="monitor 4k")) == {"amazon:1"}
