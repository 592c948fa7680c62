"""Reranker training data: real pairs from every source, nothing from the Icecat evaluation
set, held-out groups and queries never seen in training, negatives from unrelated
categories, ESCI labels used as meant, and the same pairs for the same seed."""

from __future__ import annotations

import csv
from collections import Counter

import pytest

from app.catalog.product_nouns import (
    accessory_targets,
    head,
    is_broad,
    names_as_product,
    normalise_query,
    overlaps,
    query_variants,
    singular,
)
from app.config.settings import Settings
from app.recall._reranker_data import DataInputs, PairSet, build_pairs
from app.recall.reranker_training import RerankerTrainConfig, load_data_inputs

pytestmark = pytest.mark.slow

CONFIG = RerankerTrainConfig.small().replace(max_train_pairs=None, max_heldout_pairs=None)


@pytest.fixture(scope="module")
def inputs(built_index: Settings) -> DataInputs:
    return load_data_inputs(built_index)


@pytest.fixture(scope="module")
def pairs(inputs: DataInputs) -> PairSet:
    return build_pairs(inputs, CONFIG)


def test_no_pair_touches_the_icecat_judgments(pairs: PairSet, built_index: Settings) -> None:
    with (built_index.data_dir / "icecat" / "judgments_dev.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    judged_ids = {f"icecat:{r['docid'].strip()}" for r in rows}
    judged_queries = {normalise_query(r["query"]) for r in rows}
    assert len(judged_ids) > 1000
    assert "gaming keyboard" in judged_queries
    every = pairs.train + pairs.heldout
    assert not {p.item_id for p in every} & judged_ids
    assert not {normalise_query(p.query) for p in every} & judged_queries


def test_held_out_groups_and_queries_never_appear_in_training(pairs: PairSet) -> None:
    train_groups = {p.group for p in pairs.train}
    held_groups = {p.group for p in pairs.heldout}
    assert held_groups
    assert not train_groups & held_groups
    train_queries = {normalise_query(p.query) for p in pairs.train}
    assert not train_queries & {normalise_query(p.query) for p in pairs.heldout}
    held_categories = {p.query for p in pairs.heldout if p.source.endswith("-category")}
    train_categories = {p.query for p in pairs.train if p.source.endswith("-category")}
    crossing = [(a, b) for a in held_categories for b in train_categories if overlaps(a, b)]
    assert not crossing


def test_every_source_gives_positives_and_negatives(pairs: PairSet) -> None:
    counts = pairs.counts()
    for source in (
        "icecat-category",
        "ditto-category",
        "icecat-modifier",
        "ditto-modifier",
        "accessory",
        "esci-grandi9",
    ):
        assert counts[source]["train_pos"] > 20, source
        assert counts[source]["train_neg"] > 20, source
    labels = Counter(p.label for p in pairs.train)
    assert set(labels) == {0.0, 1.0}
    assert labels[0.0] > labels[1.0]


def test_category_negatives_are_other_products(pairs: PairSet, inputs: DataInputs) -> None:
    negatives = [p for p in pairs.train if p.source.endswith("-category") and p.label == 0.0]
    assert len(negatives) > 1000
    for pair in negatives:
        category = (inputs.items[pair.item_id].category or "").lower()
        assert category, pair
        assert not overlaps(pair.query, category), (pair.query, category)
        word = head(pair.query)
        assert word is not None
        assert not names_as_product(pair.title, word), pair


def test_esci_labels_are_used_as_meant(pairs: PairSet, inputs: DataInputs) -> None:
    label = {(e.query, e.item_id): e.label for e in inputs.examples}
    assert set(label.values()) >= {"E", "S", "I"}
    for pair in pairs.train + pairs.heldout:
        given = label.get((pair.query, pair.item_id))
        if given is not None:
            assert given != "S", pair
            assert pair.label == (1.0 if given == "E" else 0.0), pair


def test_the_same_seed_gives_the_same_pairs(inputs: DataInputs, pairs: PairSet) -> None:
    again = build_pairs(inputs, CONFIG)
    assert again == pairs
    other = build_pairs(inputs, CONFIG.replace(seed=CONFIG.seed + 1))
    assert other.train != pairs.train
    assert {p.group for p in other.heldout} != {p.group for p in pairs.heldout}


def test_product_type_rules() -> None:
    assert [singular(w) for w in ("mice", "batteries", "cases", "tvs", "gps")] == [
        "mouse",
        "battery",
        "case",
        "tv",
        "gps",
    ]
    assert head("laptop computers") == "laptop"
    assert head("desktop pc") == "desktop"
    assert (head("mini pc"), head("all-in-one computer")) == ("pc", "computer")
    assert head("usb flash drives") == "drive"
    assert is_broad("electronics - general")
    assert is_broad("computers accessories")
    assert not is_broad("keyboards")
    assert overlaps("printers", "laser printers")
    assert overlaps("laptops", "notebook")
    assert not overlaps("mouse", "mouse pads")
    assert not overlaps("inkjet printer", "laser printer")
    assert names_as_product("Razer Blackwidow Mechanical Gaming Keyboard", "keyboard")
    assert not names_as_product("Kensington Gel Keyboard Wrist Rest Blue", "keyboard")
    assert not names_as_product("Targus TBS64902 notebook case 30.5 cm", "laptop")
    assert accessory_targets("Case Logic sleeve for 15in laptops", frozenset({"laptop"})) == [
        ("laptops", "laptop")
    ]
    assert query_variants("notebook case") == ["notebook cases", "laptop case"]
