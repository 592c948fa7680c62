"""Training queries for a relevance ranker are held apart from the evaluation: no dev query
and no close variant of one is chosen, from WebShop's queries or from the catalog's
categories."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from app.catalog.item import Item
from app.config import Settings
from app.eval.relevance_training import held_apart, query_words, training_queries

LABELS = Path(__file__).resolve().parents[2] / "data" / "relevance" / "icecat_train_labels.csv"
DEV = ["laptop", "bluetooth headphones", "hdmi cable", "aa battery"]


@pytest.mark.parametrize(
    "query",
    ["laptops", "a laptop", "gaming laptop", "bluetooth headphone", "HDMI cables", "aa batteries"],
)
def test_a_dev_query_or_a_close_variant_is_not_held_apart(query: str) -> None:
    assert not held_apart(query, DEV)


@pytest.mark.parametrize(
    "query", ["toner cartridge", "hp laptop 16gb ssd ram", "wireless charger for automobile"]
)
def test_other_queries_are_held_apart(query: str) -> None:
    assert held_apart(query, DEV)


def test_query_words_are_singular_content_words() -> None:
    assert query_words("The Batteries for a Camera") == {"battery", "camera"}


def item(n: int, category: str, brand: str) -> Item:
    return Item(
        item_id=f"shop:{n}",
        platform="shop",
        title=f"{brand} {category} {n}",
        brand=brand,
        category=category,
        source="shop",
    )


def test_chosen_queries_name_listed_kinds_and_keep_every_dev_query_out() -> None:
    items = [item(n, "Laptops", "Acme") for n in range(40)]
    items += [item(100 + n, "Toner Cartridges", "Inko") for n in range(40)]
    shop = ["cheap laptops", "ink cartridge refill", "hair extension", "gaming laptop"]
    chosen = training_queries(items, shop, ["laptops", "toner"], webshop=10, catalog=10)
    queries = [q for q, _ in chosen]
    assert "hair extension" not in queries, "names no kind the catalog lists"
    assert "gaming laptop" not in queries
    assert "cheap laptops" not in queries
    assert "ink cartridge refill" in queries
    assert "toner cartridges" not in queries, "a dev query with one word more"
    assert "inko toner cartridges" in queries
    assert all(held_apart(q, ["laptops", "toner"]) for q in queries)


def test_the_shipped_training_labels_keep_every_dev_query_and_variant_out(
    settings: Settings,
) -> None:
    with (settings.data_dir / "icecat" / "judgments_dev.csv").open(
        encoding="utf-8", newline=""
    ) as f:
        dev = sorted({row["query"] for row in csv.DictReader(f)})
    with LABELS.open(encoding="utf-8", newline="") as f:
        labels = list(csv.DictReader(f))
    queries = {row["query"] for row in labels}
    assert len(queries) >= 100
    assert {row["source"] for row in labels} == {"llm"}
    assert {row["rating"] for row in labels} <= {"0", "1", "2", "3"}
    close = [q for q in queries if not held_apart(q, dev)]
    assert not close, close
