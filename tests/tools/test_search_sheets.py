"""Recall by spec sheet on hand-made items: the lookup and what counts as stated (item_search
on the real index is in test_item_search_widening)."""

from __future__ import annotations

from app.catalog.item import Item
from app.recall.filters import SearchFilters
from app.tools._picker_terms import Term, make_term
from app.tools._search_sheets import SheetLookup, unstated


def term(text: str) -> Term:
    made = make_term(text)
    assert made is not None
    return made


def laptop(n: int, title: str, price: float, *features: str) -> Item:
    return Item(
        item_id=f"icecat:{n}",
        platform="icecat",
        title=title,
        price_usd=price,
        source="icecat",
        features=features,
    )


ITEMS = {
    i.item_id: i
    for i in (
        laptop(1, "Acer Chromebook notebook 11.6in", 382.95, "touchscreen"),
        laptop(2, "HP Pavilion 14 Notebook", 454.95, "touchscreen", "backlit keyboard"),
        laptop(3, "MSI Modern 14 Notebook", 764.45, "backlit keyboard"),
        laptop(4, "Huawei MateBook X Pro Notebook", 2151.94, "touchscreen"),
        laptop(5, "Samsung Galaxy A41 smartphone", 199.0, "touchscreen"),
        laptop(6, "Lenovo ThinkPad Notebook", 600.0, "Bluetooth"),
    )
}


def test_the_lookup_finds_the_product_listing_the_most_asked_terms_first() -> None:
    lookup = SheetLookup(ITEMS)
    asked = [term("touchscreen"), term("backlit keyboard")]
    found = lookup.stating(asked, "laptop", "laptop", SearchFilters.build(price_max=900), limit=5)
    assert [i.item_id for i in found] == ["icecat:2", "icecat:1", "icecat:3"]
    assert lookup.stating(asked, "laptop", "laptop", SearchFilters(), limit=1)[0].item_id == (
        "icecat:2"
    )
    assert lookup.stating([term("hdmi")], "laptop", "laptop", SearchFilters(), limit=5) == []
    assert lookup.stating(asked, "laptop", "laptop", SearchFilters(), limit=0) == []


def test_a_term_is_unstated_when_no_title_or_sheet_says_it() -> None:
    asked = [term("touchscreen"), term("bluetooth"), term("notebook")]
    said = unstated(asked, [ITEMS["icecat:6"], ITEMS["icecat:3"]])
    assert [t.text for t in said] == ["touchscreen"]
