"""Within-platform dedupe: first listing kept, later ids aliased, labels remapped."""

from __future__ import annotations

from app.catalog.dedupe import dedupe_items, remap_matches
from app.catalog.item import Item, MatchLabel


def _item(
    item_id: str,
    title: str,
    *,
    brand: str | None = "Sony",
    price: float | None = 99.0,
    model: str | None = None,
) -> Item:
    platform = item_id.split(":")[0]
    return Item(item_id=item_id, platform=platform, title=title, brand=brand, price_usd=price,
                model_number=model, source="test")  # fmt: skip


def test_same_title_brand_price_is_one_item() -> None:
    items = [
        _item("amazon:a", "Sony DSC-W120 Camera"),
        _item("amazon:b", "sony  dsc-w120 camera", brand="SONY"),
        _item("amazon:c", "Sony DSC-W120 Camera", price=89.0),
        _item("amazon:d", "Sony DSC-W120 Camera", brand=None),
        _item("walmart:e", "Sony DSC-W120 Camera"),
        _item("amazon:f", "Sony DSC-W120 Camera", price=99.004),
    ]
    deduped = dedupe_items(items)
    assert [i.item_id for i in deduped.items] == ["amazon:a", "amazon:c", "amazon:d", "walmart:e"]
    assert deduped.aliases == {"amazon:b": "amazon:a", "amazon:f": "amazon:a"}


def test_unknown_prices_match_each_other() -> None:
    deduped = dedupe_items([_item("buy:a", "Lamp", price=None), _item("buy:b", "Lamp", price=None)])
    assert deduped.aliases == {"buy:b": "buy:a"}


def test_different_model_numbers_stay_apart() -> None:
    items = [
        _item("amazon:a", "Dell Lid - Sangeet", model='sangeet - 14"'),
        _item("amazon:b", "Dell Lid - Sangeet", model='sangeet - 15"'),
        _item("amazon:c", "Dell Lid - Sangeet", model='Sangeet - 14"'),
    ]
    deduped = dedupe_items(items)
    assert [i.item_id for i in deduped.items] == ["amazon:a", "amazon:b"]
    assert deduped.aliases == {"amazon:c": "amazon:a"}


def test_repeated_id_is_dropped_without_alias() -> None:
    deduped = dedupe_items([_item("amazon:a", "Lamp"), _item("amazon:a", "Lamp")])
    assert [i.item_id for i in deduped.items] == ["amazon:a"]
    assert deduped.aliases == {}


def test_labels_follow_the_survivor() -> None:
    labels = [
        MatchLabel(dataset="walmart-amazon", split="train", left_id="walmart:x",
                   right_id="amazon:b", same_product=True),
        MatchLabel(dataset="walmart-amazon", split="test", left_id="walmart:x",
                   right_id="amazon:z", same_product=False),
    ]  # fmt: skip
    remapped = remap_matches(labels, {"amazon:b": "amazon:a", "walmart:q": "walmart:x"})
    assert [(m.left_id, m.right_id, m.split) for m in remapped] == [
        ("walmart:x", "amazon:a", "train"),
        ("walmart:x", "amazon:z", "test"),
    ]
    assert remapped[1] is labels[1]
