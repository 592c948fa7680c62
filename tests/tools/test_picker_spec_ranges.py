"""Sizes and lengths a title states as a range ('for 32"-60" screens', "37 - 70 inch TVs")
serve an asked amount within it; numbers that end a name or are no size begin none. An
amount whose part goes unsaid serves no part the title sizes elsewhere."""

from __future__ import annotations

import pytest

from app.tools.terms._specs import Spec, find_specs, spec_said, spec_stated

INCH_55 = Spec(55.0, "inch", "55 inch")


@pytest.mark.parametrize(
    ("title", "said"),
    [
        ('Newstar Wall Mount for 32"-60" Screen', '32"-60", 55 inch within it'),
        ("Sanus mount for 37 - 70 inch TVs", "37 - 70 inch, 55 inch within it"),
        (
            "Ematic Wall Mount Kit for 37-inch to 60-inch TV",
            "37-inch to 60-inch, 55 inch within it",
        ),
    ],
)
def test_a_range_serves_an_amount_within_it(title: str, said: str) -> None:
    specs = find_specs(title)
    assert spec_said(INCH_55, specs) == said
    assert spec_stated(specs, INCH_55)


@pytest.mark.parametrize(
    "title",
    ['Wall Mount for 32"-50" Screen', "Wall mount for 60 - 80 inch TVs", "Samsung 65 inch TV"],
)
def test_an_amount_outside_every_range_is_not_served(title: str) -> None:
    specs = find_specs(title)
    assert spec_said(INCH_55, specs) is None
    assert not spec_stated(specs, INCH_55)


@pytest.mark.parametrize(
    "title",
    ["Belkin USB 3.0 - 6 ft cable", "HDMI 2.0-4K switch", "Brother TN-2110 60 inch"],
)
def test_a_name_or_a_version_begins_no_range(title: str) -> None:
    assert not any(s.range_from is not None for s in find_specs(title))


def test_the_exact_amount_still_reads_as_said() -> None:
    assert spec_said(INCH_55, find_specs("Samsung 55 inch TV")) == "55 inch"


def test_an_unsaid_part_is_not_the_part_the_title_sizes() -> None:
    more_ram = Spec(4.0, "gb", "4gb", part="ram", above=True)
    old = find_specs("HP EliteBook 8730w Notebook Intel Core 2 Quad 4 GB DDR2-SDRAM 320 GB")
    assert spec_said(more_ram, old) is None
    new = find_specs("HP Pavilion Notebook Intel Core i5 8 GB DDR4-SDRAM 256 GB SSD")
    assert spec_said(more_ram, new) == "8 gb, more than 4gb"
    assert spec_said(Spec(320.0, "gb", "320gb"), old) == "320gb"
