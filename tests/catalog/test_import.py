"""`pickwise catalog import` end to end through the CLI: bad rows reported and skipped, the
JSON report and exit codes, idempotent re-import, every format and the mapping file."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from app.catalog.offer_store import OfferStore
from app.catalog.schema import Offer
from app.cli.catalog_cmd import app
from app.config import get_settings
from app.config.settings import Settings
from app.eval.bench_catalog import bench_import

HEADER = "sku,name,maker,cost,money,about\n"
BAD_ROWS = [
    "1,Steel Kettle,Acme,19.99,USD,<p>Boils <b>fast</b></p>",
    "2,,Acme,10.00,USD,no title here",
    "3,Glass Kettle,Acme,abc,USD,price is a word",
    "4,Copper Kettle,Acme,-5,USD,negative price",
    "5,Bad \udcff Kettle,Acme,12,USD,broken bytes",
    "1,Steel Kettle Again,Acme,21.00,USD,duplicate id",
    "7,Stone Kettle,Acme,30,XYZ,unknown currency",
    "8,Plain Kettle,Acme,25,EUR,<div><br/></div>",
    "9,Travel Kettle,,9.5,GBP,",
]
MAPS = [
    "--map", "id=sku", "--map", "title=name", "--map", "brand=maker",
    "--map", "price=cost", "--map", "currency=money", "--map", "description=about",
]  # fmt: skip


@pytest.fixture
def var_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh var dir, with settings re-read for it."""
    var = tmp_path / "var"
    monkeypatch.setenv("PICKWISE_VAR_DIR", str(var))
    get_settings.cache_clear()
    yield var
    get_settings.cache_clear()


def run_import(*args: str | Path) -> tuple[int, dict[str, Any]]:
    result = CliRunner().invoke(app, ["import", *map(str, args), "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, json.loads(result.stdout)


def offers(var_dir: Path) -> dict[str, Offer]:
    return {f"{o.shop}:{o.id}": o for o in OfferStore.of(var_dir).offers()}


def write_bad_rows(path: Path) -> None:
    text = HEADER + "\n".join(BAD_ROWS) + "\n"
    path.write_bytes(text.encode("utf-8", errors="surrogateescape"))


def test_bad_rows_are_reported_and_the_rest_imports(var_dir: Path, tmp_path: Path) -> None:
    source = tmp_path / "kettles.csv"
    write_bad_rows(source)
    code, report = run_import(source, *MAPS, "--shop", "Acme")
    assert code == 0
    assert (report["imported"], report["updated"], report["rejected"]) == (3, 0, 6)
    reasons = {e["row"]: e["reason"] for e in report["errors"]}
    assert all(e["file"] == str(source) for e in report["errors"])
    assert sorted(reasons) == [3, 4, 5, 6, 7, 8]
    assert reasons[3].startswith("title:")
    assert reasons[4] == "price 'abc' is not a number"
    assert reasons[5].startswith("price: Input should be greater than or equal to 0")
    assert reasons[6] == "column 'name' is not valid UTF-8"
    assert reasons[7] == "duplicate id '1' (first at " + str(source) + " row 2)"
    assert reasons[8].startswith("currency: unknown currency 'XYZ'")
    assert report["imported"] + report["rejected"] == len(BAD_ROWS)
    assert report["warnings"] == [
        {
            "file": str(source),
            "row": 9,
            "reason": "description is HTML only; imported without a description",
        }
    ]
    stored = offers(var_dir)
    assert sorted(stored) == ["acme:1", "acme:8", "acme:9"]
    assert stored["acme:1"].title == "Steel Kettle"
    assert stored["acme:1"].description == "Boils fast"
    assert stored["acme:8"].description == ""
    assert stored["acme:9"].brand is None


def test_reimport_changes_nothing_and_a_changed_row_updates(var_dir: Path, tmp_path: Path) -> None:
    source = tmp_path / "kettles.csv"
    write_bad_rows(source)
    run_import(source, *MAPS, "--shop", "acme")
    before = offers(var_dir)
    code, again = run_import(source, *MAPS, "--shop", "acme")
    assert code == 0
    assert (again["imported"], again["updated"], again["unchanged"]) == (0, 0, 3)
    assert offers(var_dir) == before
    source.write_text(HEADER + "1,Steel Kettle,Acme,17.50,USD,<p>Boils <b>fast</b></p>\n")
    _, changed = run_import(source, *MAPS, "--shop", "acme")
    assert (changed["imported"], changed["updated"]) == (0, 1)
    assert offers(var_dir)["acme:1"].price == 17.5


def test_nothing_importable_exits_2(var_dir: Path, tmp_path: Path) -> None:
    source = tmp_path / "broken.csv"
    source.write_text(HEADER + "1,,Acme,1,USD,x\n2,Kettle,Acme,abc,USD,y\n")
    code, report = run_import(source, *MAPS, "--shop", "acme")
    assert code == 2
    assert (report["imported"], report["rejected"]) == (0, 2)
    assert not OfferStore.of(var_dir).exists()


def test_a_mapped_column_the_file_lacks_is_a_clear_error(var_dir: Path, tmp_path: Path) -> None:
    source = tmp_path / "kettles.csv"
    write_bad_rows(source)
    result = CliRunner().invoke(app, ["import", str(source), "--map", "id=nope", "--shop", "a"])
    assert result.exit_code != 0
    assert "no column 'nope'" in str(result.exception)


def test_shopify_variants_are_grouped(var_dir: Path, data_dir: Path) -> None:
    files = sorted((data_dir / "shopify-sample").glob("*.csv"))
    assert len(files) == 3
    code, report = run_import(*files, "--shop", "sample-shop")
    assert code == 0
    assert report["rejected"] == 0
    stored = offers(var_dir)
    varsity = sorted(
        (o for o in stored.values() if o.group_id == "classic-varsity-top"),
        key=lambda o: o.price or 0,
    )
    assert len(varsity) == 3
    assert {o.attributes["size"] for o in varsity} == {"Small", "Medium", "Large"}
    assert {o.title for o in varsity} == {
        "Classic Varsity Top - Small",
        "Classic Varsity Top - Medium",
        "Classic Varsity Top - Large",
    }
    assert {(o.price, o.currency, o.brand) for o in varsity} == {(60.0, "USD", "partners-demo")}
    groups = {o.group_id for o in stored.values()}
    assert "ocean-blue-shirt" in groups
    assert len(stored) == report["imported"]
    anchor = [o for o in stored.values() if o.group_id == "leather-anchor"]
    assert sorted(o.attributes["color"] for o in anchor) == ["Gold", "Silver"]
    assert {o.availability for o in anchor} == {"in_stock", "out_of_stock"}
    earrings = [o for o in stored.values() if o.group_id == "boho-earrings"]
    assert len(earrings) == 1
    assert earrings[0].image_url is not None


def test_google_merchant_feed(var_dir: Path, tmp_path: Path) -> None:
    feed = tmp_path / "feed.tsv"
    rows = [
        ["id", "title", "description", "link", "image_link", "availability", "price", "brand",
         "gtin", "item_group_id", "google_product_category", "color", "size", "gender"],
        ["TS-S", "Tee Small", "Cotton tee", "https://shop.example/ts", "https://img.example/ts.jpg",
         "in stock", "15.00 USD", "Basics", "4006381333931", "TS",
         "Apparel & Accessories > Clothing > Shirts & Tops", "white", "S", "male"],
        ["TS-M", "Tee Medium", "Cotton tee", "", "", "out of stock", "15.00 USD", "Basics", "",
         "TS", "212", "white", "M", "male"],
        ["MUG", "Mug", "", "", "", "preorder", "12,50 EUR", "Basics", "", "", "", "", "", ""],
        ["BAD", "Bad price", "", "", "", "in stock", "abc USD", "", "", "", "", "", "", ""],
    ]  # fmt: skip
    feed.write_text("\n".join("\t".join(r) for r in rows) + "\n")
    code, report = run_import(feed, "--shop", "tees")
    assert code == 0
    assert (report["imported"], report["rejected"]) == (3, 1)
    assert report["errors"][0]["row"] == 5
    assert report["errors"][0]["reason"] == "price 'abc USD' is not a number"
    stored = offers(var_dir)
    small = stored["tees:TS-S"]
    assert (small.price, small.currency, small.availability) == (15.0, "USD", "in_stock")
    assert small.category_path == ["Apparel & Accessories", "Clothing", "Shirts & Tops"]
    assert small.attributes == {"color": "white", "size": "S", "gender": "male"}
    assert (small.group_id, small.gtin, small.url) == (
        "TS",
        "4006381333931",
        "https://shop.example/ts",
    )
    medium = stored["tees:TS-M"]
    assert medium.category_path == []
    assert medium.availability == "out_of_stock"
    mug = stored["tees:MUG"]
    assert (mug.price, mug.currency, mug.availability) == (12.5, "EUR", "preorder")


def test_jsonl_parquet_and_a_toml_mapping(var_dir: Path, tmp_path: Path) -> None:
    lines = [
        {
            "id": "j1",
            "title": "Lamp",
            "price": 40,
            "currency": "GBP",
            "attributes": {"colour": "Red"},
        },
        {"id": "j2", "title": "Lamp XL", "category_path": ["Home", "Lamps"], "rating": 4.5},
    ]
    jsonl = tmp_path / "lamps.jsonl"
    jsonl.write_text("\n".join(json.dumps(x) for x in lines) + "\n{not json\n")
    table = pa.table(
        {"ref": ["p1", "p2"], "label": ["Desk", ""], "usd": [99.0, 5.0], "tone": ["oak", "x"]}
    )
    parquet = tmp_path / "desks.parquet"
    pq.write_table(table, parquet)
    mapping = tmp_path / "desks.toml"
    mapping.write_text(
        'shop = "furniture"\ncurrency = "USD"\n[map]\nid = "ref"\ntitle = "label"\nprice = "usd"\n'
        '[attributes]\ncolor = "tone"\n'
    )
    code, report = run_import(jsonl, "--shop", "lamps")
    assert code == 0
    assert (report["imported"], report["rejected"]) == (2, 1)
    assert report["errors"][0]["row"] == 3
    code, report = run_import(parquet, "--mapping", mapping)
    assert (report["imported"], report["rejected"]) == (1, 1)
    assert report["errors"][0]["row"] == 2
    stored = offers(var_dir)
    assert stored["lamps:j1"].attributes == {"color": "Red"}
    assert stored["lamps:j2"].category_path == ["Home", "Lamps"]
    assert (stored["furniture:p1"].price, stored["furniture:p1"].attributes) == (
        99.0,
        {"color": "oak"},
    )


def test_import_bench_reads_the_whole_myntra_file(data_dir: Path) -> None:
    figures = bench_import(Settings(data_dir=data_dir), repeats=1)
    assert figures["rows"] == 12_491
    assert figures["import_rows_per_s"] > 0
    assert figures["reimport_rows_per_s"] > 0
