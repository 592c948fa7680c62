"""The product types that file a product, and those that file a rival kind of it."""

from __future__ import annotations

from app.catalog.shelves import (
    rival_shelf_keys,
    says_sort,
    shelf_key,
    shelf_keys,
    unshelved_words,
)


def test_a_product_is_filed_under_its_name_its_catalog_name_and_its_kinds_types() -> None:
    assert shelf_keys("usb stick") == {shelf_key("usb stick"), shelf_key("usb flash drive")}
    assert shelf_key("pc") in shelf_keys("desktop computer")
    assert shelf_key("workstation") in shelf_keys("gaming desktop")
    assert shelf_key("pc") not in shelf_keys("laptop")
    assert shelf_key("pc") in shelf_keys("gaming pc")
    assert shelf_key("workstation") in shelf_keys("gaming computer")


def test_a_sort_of_a_kind_is_what_its_type_does_not_say() -> None:
    assert unshelved_words("gaming desktop", "PC") == ("gaming",)
    assert unshelved_words("gaming pc", "workstation") == ("gaming",)
    assert unshelved_words("desktop computer", "PC") == ()
    assert unshelved_words("mini pc", "Mini PC") == ()
    assert unshelved_words("thumb drive", "USB flash drive") == ()
    assert says_sort({"asus", "rog", "pc"}, "gaming")
    assert not says_sort({"hp", "compaq", "pc"}, "gaming")
    assert says_sort({"hp", "business", "pc"}, "business")


def test_computers_have_rival_kinds_and_most_products_none() -> None:
    assert shelf_key("notebook") in rival_shelf_keys("desktop pc")
    assert shelf_key("notebook") in rival_shelf_keys("tablet pc")
    assert shelf_key("pc") in rival_shelf_keys("tablet")
    assert shelf_key("workstation") in rival_shelf_keys("gaming laptop")
    assert shelf_key("notebook") in rival_shelf_keys("gaming pc")
    assert rival_shelf_keys("mini pc") == frozenset()
    assert shelf_key("notebook") not in rival_shelf_keys("notebook")
    assert shelf_key("hybrid 2-in-1") not in rival_shelf_keys("laptop")
    assert rival_shelf_keys("usb flash drive") == frozenset()
