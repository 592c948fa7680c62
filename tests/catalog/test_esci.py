"""ESCI loaders: the three samples, the locale filter, and the official products parquet."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from app.catalog._tally import SkipTally
from app.catalog.esci import (
    ESCI_COLUMNS,
    ESCI_SAMPLE_FILES,
    esci_description,
    load_esci_csv,
    load_esci_products,
    load_esci_samples,
    load_vespa_products,
)
from app.errors import ConfigError


def _sample_rows(data_dir: Path) -> list[dict[str, str]]:
    """Rows in the official product schema, taken from the two CSV samples."""
    rows: list[dict[str, str]] = []
    for name in (ESCI_SAMPLE_FILES[0], ESCI_SAMPLE_FILES[2]):
        with (data_dir / "esci-sample" / name).open(encoding="utf-8", newline="") as handle:
            rows.extend({c: row[c] for c in ESCI_COLUMNS} for row in csv.DictReader(handle))
    return rows


def _write_official(path: Path, rows: list[dict[str, str | None]]) -> Path:
    schema = pa.schema([(column, pa.string()) for column in ESCI_COLUMNS])
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), path)
    return path


def test_real_samples_us(data_dir: Path) -> None:
    tally = SkipTally()
    items = load_esci_samples(data_dir / "esci-sample", "us", tally)
    assert len(items) == 546  # 485 grandi9 + 16 vespa + 45 jahnavi, no product in two files
    assert tally.counts() == {}
    sources = {item.source for item in items}
    assert sources == {"esci-grandi9", "esci-vespa", "esci-jahnavi"}
    assert all(i.platform == "amazon" and i.item_id.startswith("amazon:") for i in items)
    assert all(i.price_usd is None and i.category is None for i in items)


def test_real_sample_fields(data_dir: Path) -> None:
    items = {i.item_id: i for i in load_esci_samples(data_dir / "esci-sample", "us", SkipTally())}
    chairs = items["amazon:B08CZ6TC2L"]
    assert chairs.title.startswith("Yaheetech Dining Chairs Velvet Armchairs")
    assert chairs.brand == "Yaheetech"
    assert chairs.color == "Grey"
    assert "<br>" not in chairs.description
    assert chairs.description.startswith("Set of 6 Kitchen Dining Chairs")
    assert "\nSTRONG METAL LEGS:" in chairs.description  # bullets follow, one per line
    stereo = items["amazon:B08VSJGP1N"]
    assert stereo.source == "esci-vespa"
    assert stereo.brand == "Rimoody"
    assert "<b>" not in stereo.description
    assert "Features" in stereo.description


def test_locale_filter(data_dir: Path) -> None:
    jahnavi = data_dir / "esci-sample" / ESCI_SAMPLE_FILES[2]
    us = load_esci_csv(jahnavi, "us", SkipTally(), "esci-jahnavi")
    es = load_esci_csv(jahnavi, "ES", SkipTally(), "esci-jahnavi")
    assert (len(us), len(es)) == (45, 55)
    assert not {i.item_id for i in us} & {i.item_id for i in es}
    assert load_esci_samples(data_dir / "esci-sample", "jp", SkipTally()) == []


def test_official_parquet_loader(data_dir: Path, tmp_path: Path) -> None:
    rows: list[dict[str, str | None]] = [{**row} for row in _sample_rows(data_dir)]
    rows.append(dict(rows[0]))  # the same product twice: kept once
    rows.append({**rows[1], "product_id": "B000NOTITLE", "product_title": None})
    rows.append({**rows[1], "product_id": "B000NOLOCAL", "product_locale": None})
    rows.append(
        {
            **rows[1],
            "product_id": "B000MARKUP1",
            "product_brand": None,
            "product_title": "Acme&trade; <i>Widget</i>",
            "product_bullet_point": None,
        }
    )
    path = _write_official(tmp_path / "shopping_queries_dataset_products.parquet", rows)
    tally = SkipTally()

    us = load_esci_products(path, "us", tally=tally)
    es = load_esci_products(path, locale="es")

    assert len(us) == 485 + 45 + 1
    assert len(es) == 55
    assert tally.counts() == {"esci-products:no_locale": 1, "esci-products:no_title": 1}
    widget = next(i for i in us if i.item_id == "amazon:B000MARKUP1")
    assert (widget.title, widget.brand) == ("Acme Widget", None)
    from_csv = {
        i.item_id: i for i in load_esci_samples(data_dir / "esci-sample", "us", SkipTally())
    }
    for item in us:
        if item.item_id in from_csv:
            expected = from_csv[item.item_id]
            assert (item.title, item.description, item.brand) == (
                expected.title,
                expected.description,
                expected.brand,
            )


def test_official_parquet_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        load_esci_products(tmp_path / "missing.parquet")
    wrong = tmp_path / "wrong.parquet"
    pq.write_table(pa.table({"product_id": ["B1"], "title": ["x"]}), wrong)
    with pytest.raises(ConfigError, match="product_title"):
        load_esci_products(wrong)
    garbage = tmp_path / "garbage.parquet"
    garbage.write_text("not parquet")
    with pytest.raises(ConfigError, match="cannot read"):
        load_esci_products(garbage)


def test_bad_vespa_lines_are_counted(tmp_path: Path) -> None:
    good = {"put": "id:commerce:product::B0001", "fields": {"title": "Lamp", "locale": "us"}}
    lines = [
        json.dumps(good),
        '{"put": "id:commerce:product::B0002", "fields": {',
        json.dumps({"put": "id:commerce:product::B0003"}),
        json.dumps({"fields": {"id": "B0004", "title": "", "locale": "us"}}),
        json.dumps({"fields": {"id": "B0005", "title": "Chair", "locale": "es"}}),
        "",
    ]
    path = tmp_path / "feed.jsonl"
    path.write_text("\n".join(lines), encoding="utf-8")
    tally = SkipTally()

    items = load_vespa_products(path, "us", tally)

    assert [(i.item_id, i.title) for i in items] == [("amazon:B0001", "Lamp")]
    assert tally.counts() == {
        "esci-vespa:bad_json": 1,
        "esci-vespa:malformed_row": 1,
        "esci-vespa:no_title": 1,
    }


def test_bad_csv_rows_are_counted_and_wrong_header_is_config_error(tmp_path: Path) -> None:
    path = tmp_path / "sample.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=["query", *ESCI_COLUMNS])
        writer.writeheader()
        base = dict.fromkeys(ESCI_COLUMNS, "") | {"product_locale": "us"}
        writer.writerow(base | {"product_id": "B1", "product_title": "Desk"})
        writer.writerow(base | {"product_id": "", "product_title": "No id"})
        writer.writerow(base | {"product_id": "B2"})
        writer.writerow(base | {"product_id": "B1", "product_title": "Desk again"})
    tally = SkipTally()
    items = load_esci_csv(path, "us", tally, "esci-test")
    assert [(i.item_id, i.title) for i in items] == [("amazon:B1", "Desk")]
    assert tally.counts() == {"esci-test:no_id": 1, "esci-test:no_title": 1}

    headless = tmp_path / "headless.csv"
    headless.write_text("id,title\nB1,Desk\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="product_title"):
        load_esci_csv(headless, "us", SkipTally(), "esci-test")


def test_description_joins_text_and_bullets() -> None:
    assert esci_description("<p>Soft &amp; warm</p>", "Wool\n\n<b>Washable</b>") == (
        "Soft & warm\nWool\nWashable"
    )
    assert esci_description(None, None) == ""


def test_official_parquet_written_by_pandas(data_dir: Path, tmp_path: Path) -> None:
    """pandas writes missing text as nulls and a categorical locale as a dictionary column."""
    import pandas as pd

    frame = pd.read_csv(data_dir / "esci-sample" / ESCI_SAMPLE_FILES[2], dtype=str)
    frame = frame[list(ESCI_COLUMNS)].astype({"product_locale": "category"})
    path = tmp_path / "products.parquet"
    frame.to_parquet(path)
    tally = SkipTally()
    assert len(load_esci_products(path, "us", tally=tally)) == 45
    assert len(load_esci_products(path, "es", tally=tally)) == 55
    assert tally.counts() == {}
