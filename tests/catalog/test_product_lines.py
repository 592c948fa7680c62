"""A maker's product line says what a product is when its title names none: the relevance
gate reads the kind beside the line, and the title names the product by it."""

from __future__ import annotations

import pytest

from app.catalog.product_lines import line_kind, with_line_kind
from app.tools.picker._gate_document import gate_document
from app.tools.search._product import names_product
from tests.tools.picker_fixtures import item

THINKPAD = 'Lenovo ThinkPad T14 Gen 2 Black 35.6 cm (14") 16 GB 512 GB SSD Wi-Fi 6'
TAB = 'Samsung Galaxy Tab S6 Lite SM-P610N 26.4 cm (10.4") 4 GB 64 GB Wi-Fi 5 Gray Android 10'


@pytest.mark.parametrize(
    ("title", "kind"),
    [
        ("samsung galaxy tab s6 lite", "tablet"),
        ("lenovo thinkpad x1 carbon", "laptop"),
        ("apple macbook air 13", "laptop"),
        ("samsung galaxy s10 128 gb", None),  # a phone line the list does not name
        ("the tablature tab key", None),
    ],
)
def test_a_line_says_its_kind(title: str, kind: str | None) -> None:
    assert line_kind(title) == kind


def test_the_kind_goes_right_after_the_line() -> None:
    assert with_line_kind("samsung galaxy tab s6 lite") == "samsung galaxy tab tablet s6 lite"


@pytest.mark.parametrize(
    ("title", "product", "named"),
    [
        (TAB, "tablet", True),
        ("Lenovo ThinkPad X1 Carbon 14 i7 16GB", "laptop", True),
        # a sized part is no product the title names: the search reads it as the gate does
        (THINKPAD, "laptop", True),
        # a product the title names is what it is: the line names what it is for
        ("Samsung Galaxy Tab Multimedia Dock", "tablet", False),
        ("Arkon Sun Shade for Samsung Galaxy Tab", "tablet", False),
        ("Lenovo ThinkPad X60 Tablet 8 cell Li-Ion battery", "laptop", False),
    ],
)
def test_a_title_names_the_product_its_line_says(title: str, product: str, named: bool) -> None:
    assert names_product(item(1, title), product) is named


def test_the_gate_reads_the_lines_kind_where_the_title_names_no_product() -> None:
    assert "galaxy tab tablet s6" in gate_document(item(1, TAB), "tablet")
    assert "thinkpad laptop t14" in gate_document(item(3, THINKPAD), "laptop")
    dock = "Samsung Galaxy Tab Multimedia Dock"
    assert gate_document(item(2, dock), "tablet") == dock.lower()
