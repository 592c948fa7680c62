"""The gate model of an imported catalog learns from that catalog alone: the Myntra import
(no category column) trains on the kinds its titles name, reads no demo dataset file, and
`index build` says when no gate model exists for it yet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.catalog.product_nouns import head, names_as_product
from app.catalog.profile import build_profile
from app.config.settings import Settings, get_settings
from app.recall._reranker_data import DataInputs, PairSet, build_pairs
from app.recall.reranker_training import (
    RerankerTrainConfig,
    data_fingerprint,
    gate_model_note,
    label_files,
    load_data_inputs,
)

pytestmark = pytest.mark.slow

CONFIG = RerankerTrainConfig.small()


@pytest.fixture(scope="module")
def no_datasets(myntra_settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Settings:
    """The Myntra var dir with a datasets folder that does not exist: nothing may read it."""
    return myntra_settings.model_copy(update={"data_dir": tmp_path_factory.mktemp("none") / "x"})


@pytest.fixture(scope="module")
def inputs(no_datasets: Settings) -> DataInputs:
    return load_data_inputs(no_datasets)


@pytest.fixture(scope="module")
def pairs(inputs: DataInputs) -> PairSet:
    return build_pairs(inputs, CONFIG)


def test_no_demo_file_is_read_or_hashed(no_datasets: Settings, inputs: DataInputs) -> None:
    assert not no_datasets.data_dir.exists()
    assert label_files(no_datasets) == ()
    assert len(data_fingerprint(no_datasets)) == 64
    assert not inputs.examples
    assert not inputs.evaluation.item_ids
    assert not inputs.evaluation.queries
    assert not inputs.matches


def test_pairs_come_from_the_catalogs_own_kinds(pairs: PairSet, inputs: DataInputs) -> None:
    every = pairs.train + pairs.heldout
    assert len(pairs.train) > 500
    assert len(pairs.heldout) > 50
    assert all(p.item_id in inputs.items for p in every)
    assert {p.source for p in every} <= {"import-category", "import-modifier", "accessory"}
    kinds = build_profile(inputs.items.values()).categories
    positives = [p for p in every if p.source == "import-category" and p.label == 1.0]
    assert len({p.query for p in positives}) >= 10
    for pair in positives:
        category = inputs.category_of(inputs.items[pair.item_id])
        assert category in kinds, pair
        word = head(category)
        assert word is not None, pair
        assert names_as_product(pair.title, word), pair
    assert {p.label for p in pairs.train} == {0.0, 1.0}


def test_index_build_says_the_gate_model_is_missing(
    no_datasets: Settings, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from app.cli.main import app

    # a RERANKER_MODEL in the environment would be the configured gate model, never missing
    monkeypatch.delenv("RERANKER_MODEL", raising=False)
    note = gate_model_note(no_datasets.model_copy(update={"reranker_model": None}))
    assert note is not None
    assert "train-reranker" in note
    monkeypatch.setenv("PICKWISE_VAR_DIR", str(no_datasets.var_dir))
    monkeypatch.setenv("PICKWISE_DATA_DIR", str(tmp_path / "none"))
    get_settings.cache_clear()
    try:
        result = CliRunner().invoke(app, ["index", "build", "--json"])
    finally:
        get_settings.cache_clear()
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["built"] is False
    assert payload["gate"] == note
