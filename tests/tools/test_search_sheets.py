"""Recall by spec sheet on hand-made items: the lookup and what counts as stated (item_search
on the real index is in test_item_search_widening)."""

from __future__ import annotations

from app.catalog.item import Item
from app.recall.filters import SearchFilters
from app.tools.plan.shopping_plan import Constraint, ShoppingPlan
from app.tools.search._args import ItemSearchArgs, resolve_scope
from app.tools.search._postfilters import ItemMatchers
from app.tools.search._probe import PriceVerdict
from app.tools.search._sheets import SheetLookup, sheet_price_verdict, unstated
from app.tools.terms._terms import Term, make_term


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


def lookup_of(*items: Item) -> SheetLookup:
    return SheetLookup({i.item_id: i for i in items})


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


def test_the_lookup_finds_titles_stating_a_terms_amounts_of_its_part() -> None:
    lookup = lookup_of(
        laptop(1, "Acer notebook 8 GB DDR4-SDRAM 32 GB eMMC", 299.0),
        laptop(2, "MSI notebook 32 GB DDR4-SDRAM 1 TB SSD", 1999.0),
        laptop(3, "Kingston 32GB memory card", 9.0),
        laptop(4, "ASUS ROG gaming notebook 32 GB DDR4-SDRAM 512 GB SSD", 2199.0),
        laptop(5, "HP notebook 16 GB DDR4-SDRAM 32 GB SSD", 899.0),
    )
    found = lookup.stating([term("32gb ram")], "laptop", "gaming laptop", SearchFilters(), limit=5)
    assert [i.item_id for i in found] == ["icecat:4", "icecat:2"]
    assert lookup.stating([term("ram")], "laptop", "laptop", SearchFilters(), limit=5) == []


def test_the_lookup_finds_titles_saying_every_word_of_a_term() -> None:
    lookup = lookup_of(
        laptop(1, "Tripp Lite 6-Outlet Surge Protector", 22.95),
        laptop(2, "Tripp Lite 3-Outlet Surge Protector, 2-USB Charging Ports", 22.95),
        laptop(3, "StarTech 7-Port USB Hub with Surge Protection", 70.95),
        laptop(4, "Belkin USB Surge Protector", 30.0),
    )
    asked = [term("usb ports")]
    found = lookup.stating(asked, "surge protector", "surge protector", SearchFilters(), limit=5)
    assert [i.item_id for i in found] == ["icecat:2"]
    unsaid = [term("lightning")]
    assert lookup.stating(unsaid, "surge protector", "", SearchFilters(), limit=5) == []


def test_the_lookup_finds_titles_naming_any_line_of_a_graphics_card() -> None:
    lookup = lookup_of(
        laptop(1, "HP notebook Intel UHD Graphics", 499.0),
        laptop(2, "MSI Gaming notebook NVIDIA GeForce GTX 1650", 899.0),
        laptop(3, "ASUS notebook AMD Radeon RX 5500M", 999.0),
    )
    found = lookup.stating([term("graphics card")], "laptop", "laptop", SearchFilters(), limit=5)
    assert sorted(i.item_id for i in found) == ["icecat:2", "icecat:3"]


def test_a_term_is_unstated_when_no_title_or_sheet_says_it() -> None:
    asked = [term("touchscreen"), term("bluetooth"), term("notebook")]
    said = unstated(asked, [ITEMS["icecat:6"], ITEMS["icecat:3"]])
    assert [t.text for t in said] == ["touchscreen"]


ROUTERS = {
    i.item_id: i
    for i in (
        laptop(7, "AVM FRITZ!Box 6660 Cable wireless router", 282.95, "Wi-Fi", "Wi-Fi 6"),
        laptop(8, "ASUS ZenWiFi AX (XT8) wireless router", 653.95, "Wi-Fi 6"),
        laptop(9, "TP-Link wireless router", 29.95, "Wi-Fi"),
    )
}


def verdict_for(price_max: float, plan: ShoppingPlan | None = None) -> PriceVerdict | None:
    scope = resolve_scope(
        ItemSearchArgs(query="router wifi 6", price_usd_max=price_max),
        plan or ShoppingPlan(),
        default_top_k=10,
        max_top_k=50,
    )
    lookup = SheetLookup(ROUTERS)
    return sheet_price_verdict(
        lookup, [term("wifi 6")], "router", scope, ItemMatchers(scope), limit=20
    )


def test_a_must_have_only_pricier_sheets_list_is_blocked_by_the_budget() -> None:
    verdict = verdict_for(150)
    assert verdict is not None
    assert (verdict.product, verdict.blocked, verdict.cheapest_usd) == (
        "router with wifi 6",
        2,
        282.95,
    )


def test_no_budget_verdict_when_something_else_blocks_too() -> None:
    assert verdict_for(300) is None  # one fits: the lookup would have found it
    excluded = ShoppingPlan(exclude=(Constraint(term="asus"),))
    assert verdict_for(150, excluded) is None
