"""ditto ER loader: one item per distinct record, every labelled pair kept, bad lines counted."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from app.catalog._tally import SkipTally
from app.catalog.ditto import (
    DITTO_DATASETS,
    DittoLoad,
    ditto_item_id,
    ditto_price_usd,
    load_ditto,
    load_ditto_dataset,
)

WALMART_AMAZON = DITTO_DATASETS[0]
ABT_BUY = DITTO_DATASETS[2]


@pytest.fixture(scope="module")
def ditto(data_dir: Path) -> DittoLoad:
    return load_ditto(data_dir / "ditto-er", SkipTally())


def _walmart(title: str = "sony dscw120 camera", brand: str = "sony", price: str = "99.0") -> str:
    return (
        f"COL title VAL {title} COL category VAL cameras COL brand VAL {brand} "
        f"COL modelno VAL dscw120p COL price VAL {price} "
    )


def _write_splits(root: Path, folder: str, lines: list[str]) -> None:
    target = root / folder
    target.mkdir(parents=True)
    (target / "train.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (target / "valid.txt").write_text("", encoding="utf-8")
    (target / "test.txt").write_text(lines[0] + "\n", encoding="utf-8")


def test_real_distinct_records_per_platform(ditto: DittoLoad) -> None:
    counts = Counter((item.source, item.platform) for item in ditto.items)
    assert counts == {
        ("ditto-walmart-amazon", "walmart"): 1_688,
        ("ditto-walmart-amazon", "amazon"): 5_247,
        ("ditto-amazon-google", "amazon"): 1_288,
        ("ditto-amazon-google", "google"): 2_074,
        ("ditto-abt-buy", "abt"): 1_068,
        ("ditto-abt-buy", "buy"): 1_035,
    }
    assert len({item.item_id for item in ditto.items}) == len(ditto.items)


def test_real_labelled_pairs_are_all_kept(ditto: DittoLoad) -> None:
    counts = Counter((m.dataset, m.split, m.same_product) for m in ditto.matches)
    assert len(ditto.matches) == 31_277
    assert (
        counts["walmart-amazon", "train", True] + counts["walmart-amazon", "train", False] == 6_144
    )
    assert sum(n for (ds, _, same), n in counts.items() if ds == "abt-buy" and same) == 1_028
    ids = {item.item_id for item in ditto.items}
    assert all(m.left_id in ids and m.right_id in ids for m in ditto.matches)
    assert all(
        m.left_id.startswith("walmart:") for m in ditto.matches if m.dataset == "walmart-amazon"
    )
    assert all(m.right_id.startswith("buy:") for m in ditto.matches if m.dataset == "abt-buy")


def test_real_fields_and_display_case(ditto: DittoLoad) -> None:
    by_title = {item.title: item for item in ditto.items if item.platform == "walmart"}
    item = by_title[
        "Elite Screens Cinewhite cinema235 Series Fixed Frame Wide Screen - 85 Diagonal"
    ]
    assert item.brand == "Elite Screens"
    assert item.category == "electronics - general"
    assert item.model_number == "r85wh1-wide"
    assert item.price_usd == pytest.approx(409.0)
    assert item.rating is None
    assert item.image_url is None
    abt = [i for i in ditto.items if i.platform == "abt"]
    assert all(i.brand is None for i in abt)
    assert sum(1 for i in abt if i.description) > 1_000
    assert sum(1 for i in ditto.items if i.price_usd is None) > 0


def test_ids_hash_the_raw_record_and_are_stable() -> None:
    record = {"title": "sony  dscw120", "price": "99.0"}
    same = {"title": "sony dscw120", "price": "99.0"}
    assert ditto_item_id("walmart", record) == ditto_item_id("walmart", same)
    assert ditto_item_id("walmart", record) != ditto_item_id("amazon", record)
    assert ditto_item_id("walmart", record) != ditto_item_id("walmart", {**record, "price": "98.0"})
    assert ditto_item_id("walmart", record).startswith("walmart:")
    assert len(ditto_item_id("walmart", record).split(":")[1]) == 12


@pytest.mark.parametrize(
    ("text", "usd"),
    [("409.0", 409.0), ("24.99", 24.99), ("", None), ("  ", None), ("0", None), ("0.0", None)],
)
def test_ditto_price_parsing(text: str, usd: float | None) -> None:
    assert ditto_price_usd(text) == usd


@pytest.mark.parametrize("text", ["abc", "$12.99", "-3.0", "nan", "inf", "12,99"])
def test_ditto_bad_price_text_is_a_skip(text: str) -> None:
    result = ditto_price_usd(text)
    assert not isinstance(result, float | None)
    assert result.reason == "bad_price"


def test_malformed_lines_are_counted_and_skipped(tmp_path: Path) -> None:
    good = f"{_walmart()}\t{_walmart('sony dsc-w120 7.2mp', 'sony')}\t1"
    lines = [
        good,
        f"{_walmart()}\t{_walmart(price='twelve')}\t0",
        f"{_walmart()}\t{_walmart(title='')}\t0",
        f"{_walmart()}\t0",
        f"{_walmart()}\t{_walmart()}\tmaybe",
        f"{_walmart()}\tCOL title VAL only a title\t0",
        f"garbage\t{_walmart()}\t0",
        "",
        f"{_walmart()}\t{_walmart('canon sd1000', 'canon', '')}\t0",
    ]
    _write_splits(tmp_path, WALMART_AMAZON.folder, lines)
    tally = SkipTally()

    loaded = load_ditto_dataset(WALMART_AMAZON, tmp_path, tally)

    assert tally.counts() == {
        "ditto-walmart-amazon:bad_label": 1,
        "ditto-walmart-amazon:bad_price": 1,
        "ditto-walmart-amazon:malformed_line": 3,
        "ditto-walmart-amazon:no_title": 1,
    }
    assert [(m.split, m.same_product) for m in loaded.matches] == [
        ("train", True),
        ("train", False),
        ("test", True),
    ]
    assert len(loaded.items) == 3  # the left record recurs in every pair but is one item
    walmart = [i for i in loaded.items if i.platform == "walmart"]
    assert len(walmart) == 1
    assert walmart[0].title == "Sony dscw120 Camera"
    unpriced = next(i for i in loaded.items if i.brand == "Canon")
    assert unpriced.price_usd is None
    assert loaded.matches[0].left_id == loaded.matches[2].left_id


def test_textual_dataset_keeps_description_and_tidies_spacing(tmp_path: Path) -> None:
    left = (
        "COL name VAL lg 2.0 cu . ft . microwave lmv2031sw "
        "COL description VAL ( white ) , 1100 w COL price VAL 199.0"
    )
    right = "COL name VAL lg lmv2031sw microwave COL description VAL  COL price VAL "
    _write_splits(tmp_path, ABT_BUY.folder, [f"{left} \t{right} \t1"])

    loaded = load_ditto_dataset(ABT_BUY, tmp_path, SkipTally())

    abt, buy = loaded.items
    assert abt.title == "LG 2.0 cu. ft. Microwave lmv2031sw"
    assert abt.description == "(white), 1100 w"
    assert (abt.platform, buy.platform) == ("abt", "buy")
    assert buy.description == ""
    assert buy.price_usd is None
