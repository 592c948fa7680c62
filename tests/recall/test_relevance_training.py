"""The relevance model's training input is held apart from the evaluation (no dev query or
close variant among the labels it reads), its validation split keeps each query on one side,
and a trained model orders a relevant item above an irrelevant one for a training query."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from app.config.settings import Settings
from app.eval.relevance_training import held_apart
from app.recall.relevance_model import open_relevance_model, relevance_models
from app.recall.relevance_training import (
    Label,
    read_labels,
    relevance_config,
    split_by_query,
    train_relevance,
)

REPO = Path(__file__).resolve().parents[2]


def dev_queries(settings: Settings) -> set[str]:
    files = [settings.data_dir / "icecat" / "judgments_dev_extended.csv"]
    files.append(REPO / "data" / "relevance" / "icecat_dev_extra.csv")
    found: set[str] = set()
    for path in files:
        with path.open(encoding="utf-8") as handle:
            found |= {row["query"] for row in csv.DictReader(handle)}
    return found


def test_the_labels_training_reads_hold_no_dev_query_or_close_variant(
    settings: Settings,
) -> None:
    labels = read_labels()
    dev = dev_queries(settings)
    assert len(dev) >= 100
    assert len(labels) >= 1500
    queries = {label.query for label in labels}
    assert not queries & dev
    assert [q for q in sorted(queries) if not held_apart(q, dev)] == []


def test_labels_are_item_ids_with_ratings_0_to_3() -> None:
    labels = read_labels()
    assert all(label.item_id.startswith("icecat:") for label in labels)
    assert {label.rating for label in labels} == {0, 1, 2, 3}
    assert Label("q", "s:1", 3).target == 1.0


def test_the_validation_split_keeps_each_query_on_one_side() -> None:
    labels = read_labels()
    train, held = split_by_query(labels, relevance_config().heldout_fraction)
    assert len(train) + len(held) == len(labels)
    assert not {x.query for x in train} & {x.query for x in held}
    assert 0.05 < len(held) / len(labels) < 0.3


QUICK = relevance_config().replace(epochs=1, max_length=32)
"""The recipe on one epoch and shorter inputs: what a test can afford."""


@pytest.mark.slow
def test_a_trained_model_orders_relevant_above_irrelevant(
    built_index: Settings, tmp_path: Path
) -> None:
    """Trained into a temporary var folder that links the real index; its validation queries
    were never trained on."""
    (tmp_path / "index").symlink_to(built_index.index_dir.resolve())
    settings = built_index.model_copy(update={"var_dir": tmp_path})
    report = train_relevance(settings, QUICK, show_progress=False)
    assert report.reused is False
    assert relevance_models(settings.models_dir) == [report.model_dir]
    assert report.record["train_pairs"] + report.record["heldout_pairs"] == len(read_labels())
    assert report.record["heldout_auc"] > 0.8
    assert report.record["heldout_ndcg10"] > report.record["heldout_ndcg10_shuffled"]
    model, why = open_relevance_model(settings)
    assert model is not None, why
    good, bad = model.score(
        "hp toner", ["HP 305A Black Original LaserJet Toner Cartridge", "HP Pavilion 15 laptop"]
    )
    assert good > bad + 0.1
    assert train_relevance(settings, QUICK, show_progress=False).reused is True


def test_without_a_trained_model_there_is_none_to_open(tmp_path: Path) -> None:
    model, why = open_relevance_model(Settings(var_dir=tmp_path))
    assert model is None
    assert why is not None
    assert "pickwise models train-relevance" in why
