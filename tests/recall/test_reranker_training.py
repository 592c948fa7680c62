"""Reranker training end to end on the small configuration: it learns the gate (held-out AUC
well above chance), writes the model folder with its record, and reuses it when nothing
changed; the CLI reports the same run."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from app.cli.models_cmd import app
from app.config import get_settings
from app.config.settings import Settings
from app.recall._torch_device import resolve_device
from app.recall.reranker_training import (
    RerankerTrainConfig,
    TrainReport,
    model_dir_for,
    train_reranker,
)
from tests.contracts.reranker_contract import small_model

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def small(built_index: Settings) -> tuple[Settings, TrainReport]:
    return small_model(built_index)


def test_small_training_learns_the_gate(small: tuple[Settings, TrainReport]) -> None:
    _, report = small
    assert report.reused is False
    assert report.heldout_auc > 0.75, report.heldout_auc
    assert report.train_pairs == RerankerTrainConfig.small().max_train_pairs
    assert report.heldout_pairs > 200


def test_the_model_folder_holds_the_model_and_its_record(
    small: tuple[Settings, TrainReport],
) -> None:
    settings, report = small
    folder = report.model_dir
    assert folder == model_dir_for(settings, RerankerTrainConfig.small())
    assert folder.parent == settings.models_dir
    assert folder.name.startswith("reranker-")
    assert (folder / "config.json").is_file()
    assert (folder / "tokenizer.json").is_file()
    record = json.loads((folder / "training.json").read_text())
    assert record["config"] == RerankerTrainConfig.small().as_dict()
    assert record["heldout_auc"] == report.heldout_auc
    assert set(record["timings_s"]) == {"data", "train", "evaluate", "total"}
    assert record["device"] == resolve_device(settings.torch_device)
    counted = sum(c["train_pos"] + c["train_neg"] for c in record["pair_counts"].values())
    assert counted == record["train_pairs"]
    heldout = (folder / "heldout.jsonl").read_text().splitlines()
    assert len(heldout) == record["heldout_pairs"]
    assert {"query", "title", "label", "score"} <= set(json.loads(heldout[0]))


def test_same_data_and_config_reuse_the_folder(small: tuple[Settings, TrainReport]) -> None:
    settings, report = small
    stamp = (report.model_dir / "training.json").stat().st_mtime_ns
    again = train_reranker(settings, RerankerTrainConfig.small(), show_progress=False)
    assert again.reused is True
    assert again.model_dir == report.model_dir
    assert again.heldout_auc == report.heldout_auc
    assert (report.model_dir / "training.json").stat().st_mtime_ns == stamp


def test_another_config_gets_another_folder(built_index: Settings) -> None:
    small = RerankerTrainConfig.small()
    assert model_dir_for(built_index, small) == model_dir_for(built_index, small.replace())
    assert model_dir_for(built_index, small) != model_dir_for(built_index, small.replace(seed=14))
    assert model_dir_for(built_index, small) != model_dir_for(
        built_index, RerankerTrainConfig.default()
    )


def test_cli_reports_the_trained_model(
    small: tuple[Settings, TrainReport], monkeypatch: pytest.MonkeyPatch
) -> None:
    settings, report = small
    monkeypatch.setenv("PICKWISE_VAR_DIR", str(settings.var_dir))
    monkeypatch.setenv("PICKWISE_DATA_DIR", str(settings.data_dir))
    get_settings.cache_clear()
    try:
        result = CliRunner().invoke(app, ["train-reranker", "--small", "--json"])
        assert result.exit_code == 0, result.output
        shown = json.loads(result.output)
        assert shown["reused"] is True
        assert shown["model_dir"] == str(report.model_dir)
        assert shown["heldout_auc"] == report.heldout_auc
        text = CliRunner().invoke(app, ["train-reranker", "--small"])
        assert text.exit_code == 0, text.output
        assert text.output.strip().splitlines()[-1] == f"held-out AUC: {report.heldout_auc:.4f}"
    finally:
        get_settings.cache_clear()
