"""The local reranker: a freshly trained small model against the contract, the gate it learnt
on real catalog titles, which model folder it loads, and the ConfigError when none exists."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from app.catalog.item_table import read_items
from app.config.settings import Settings
from app.errors import ConfigError
from app.recall._int8_linear import RANGES_FILE, load_ranges
from app.recall._reranker_local import LocalReranker
from app.recall.index_manifest import current_paths
from app.recall.reranker import (
    TRAINING_FILE,
    Reranker,
    build_reranker,
    local_model_dir,
    trained_models,
)
from app.recall.reranker_training import TrainReport
from tests.contracts.reranker_contract import RerankerContract, small_model

pytestmark = pytest.mark.slow

GAMING_KEYBOARD = "amazon:50f1ddc72bef"  # Razer Blackwidow Mechanical Gaming Keyboard
WRIST_REST = "icecat:385291"  # Kensington Gel Keyboard Wrist Rest Blue
GAMING_MOUSE = "walmart:7e430a644a73"  # Razer Lachesis Gaming Mouse


@pytest.fixture(scope="module")
def small(built_index: Settings) -> tuple[Settings, TrainReport]:
    return small_model(built_index)


@pytest.fixture(scope="module")
def local(small: tuple[Settings, TrainReport]) -> LocalReranker:
    return LocalReranker(small[1].model_dir)


class TestLocalReranker(RerankerContract):
    @pytest.fixture
    def reranker(self, local: LocalReranker) -> Reranker:
        return local

    def test_is_local(self, reranker: Reranker) -> None:
        assert reranker.remote is False


@pytest.fixture(scope="module")
def local_int8(small: tuple[Settings, TrainReport]) -> LocalReranker:
    return LocalReranker(small[1].model_dir, int8=True)


class TestLocalRerankerInt8(RerankerContract):
    @pytest.fixture
    def reranker(self, local_int8: LocalReranker) -> Reranker:
        return local_int8


def test_int8_keeps_the_ranking_and_says_so_in_its_id(
    local: LocalReranker, local_int8: LocalReranker
) -> None:
    docs = ["Razer Lachesis Gaming Mouse", "C2G 2m USB cable", "HP LaserJet printer"]
    full = local.score("computer mouse", docs)
    quantised = local_int8.score("computer mouse", docs)
    assert quantised != full
    assert sorted(docs, key=lambda d: -quantised[docs.index(d)]) == sorted(
        docs, key=lambda d: -full[docs.index(d)]
    )
    assert local_int8.model_id == f"{local.model_id}+int8"


def test_an_int8_score_depends_on_the_pair_alone_not_on_the_titles_beside_it(
    local_int8: LocalReranker, built_index: Settings
) -> None:
    """Each token's activations are quantised on their own: torch's dynamic int8 (one scale
    per batch) had scored a hoodie 0.92 or 0.77 as the candidates beside it changed."""
    items = read_items(current_paths(built_index.index_dir).items)
    titles = sorted({item.title for item in items.values()}, key=len)[::97][:24]
    local_int8.cache.clear()
    together = local_int8.score("wireless mouse", titles)
    alone = []
    for title in titles:
        local_int8.cache.clear()
        alone.append(local_int8.score("wireless mouse", [title])[0])
    local_int8.cache.clear()
    reversed_batch = local_int8.score("wireless mouse", titles[::-1])[::-1]
    assert max(abs(a - b) for a, b in zip(together, alone, strict=True)) < 0.005
    assert max(abs(a - b) for a, b in zip(reversed_batch, alone, strict=True)) < 0.005


def test_int8_ranges_are_saved_at_training_and_measured_again_when_unreadable(
    small: tuple[Settings, TrainReport], tmp_path: Path
) -> None:
    saved = load_ranges(small[1].model_dir)
    assert saved
    assert all(low < high for low, high in saved.values())
    copy = tmp_path / small[1].model_dir.name
    shutil.copytree(small[1].model_dir, copy)
    (copy / RANGES_FILE).write_text("{not json")
    assert load_ranges(copy) is None
    reloaded = LocalReranker(copy, int8=True)  # measures them again on its held-out pairs
    measured = load_ranges(copy)
    assert measured is not None
    assert measured.keys() == saved.keys()
    for name, bounds in saved.items():
        assert measured[name] == pytest.approx(bounds, abs=1e-3), name
    assert reloaded.score("usb cable", ["C2G 2m USB cable"])[0] > 0.0


def test_gaming_keyboard_scores_the_keyboard_above_a_wrist_rest_and_a_mouse(
    local: LocalReranker, built_index: Settings
) -> None:
    items = read_items(current_paths(built_index.index_dir).items)
    keyboard, rest, mouse = (items[i].title for i in (GAMING_KEYBOARD, WRIST_REST, GAMING_MOUSE))
    assert "Keyboard" in keyboard
    assert "Wrist Rest" in rest
    assert "Mouse" in mouse
    scores = local.score("gaming keyboard", [keyboard, rest, mouse])
    assert scores[0] > scores[1], scores
    assert scores[0] > scores[2], scores


def test_repeated_pairs_come_from_the_cache(local: LocalReranker) -> None:
    local.cache.clear()
    first = local.score("usb cable", ["C2G 2m USB cable", "Razer Lachesis Gaming Mouse"])
    assert len(local.cache) == 2
    assert local.score("usb cable", ["Razer Lachesis Gaming Mouse"]) == [first[1]]
    assert len(local.cache) == 2


def test_factory_loads_the_newest_trained_model(small: tuple[Settings, TrainReport]) -> None:
    settings, report = small
    settings = settings.model_copy(update={"reranker_model": None})  # whatever the env names
    assert trained_models(settings.models_dir)[0] == report.model_dir
    reranker = build_reranker(settings.model_copy(update={"reranker_int8": False}))
    assert reranker.model_id == report.model_dir.name
    assert reranker.remote is False
    assert build_reranker(settings).model_id == f"{report.model_dir.name}+int8"


def test_reranker_model_setting_names_the_folder(
    small: tuple[Settings, TrainReport], tmp_path: Path
) -> None:
    _, report = small
    chosen = Settings(var_dir=tmp_path, reranker_model=str(report.model_dir), reranker_int8=False)
    assert build_reranker(chosen).model_id == report.model_dir.name


def test_no_trained_model_is_a_config_error_saying_what_to_run(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="pickwise models train-reranker"):
        build_reranker(Settings(var_dir=tmp_path, reranker_model=None))


def test_a_folder_without_a_model_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not a trained cross-encoder"):
        build_reranker(Settings(var_dir=tmp_path, reranker_model=str(tmp_path)))


def test_the_saved_model_loads_in_flag_reranker_with_the_same_scores(
    local: LocalReranker, small: tuple[Settings, TrainReport]
) -> None:
    from FlagEmbedding import FlagReranker

    flag = FlagReranker(str(small[1].model_dir), devices="cpu", max_length=local.max_length)
    docs = ["Razer Lachesis Gaming Mouse", "C2G 2m USB cable", "HP LaserJet printer"]
    theirs = flag.compute_score([["computer mouse", d] for d in docs], normalize=True)
    assert theirs == pytest.approx(local.score("computer mouse", docs), abs=1e-4)


def test_a_model_under_the_quality_floor_leaves_the_gate_off_saying_why(tmp_path: Path) -> None:
    """A cross-encoder trained on a small catalog's few labels (held-out AUC 0.167) would
    gate at random: the factory refuses it as it refuses a missing one."""
    settings = Settings(var_dir=tmp_path, reranker_model=None)
    folder = settings.models_dir / "reranker-weak"
    folder.mkdir(parents=True)
    record = {"finished_at": "2026-12-06T03:00:00+00:00", "heldout_auc": 0.1673}
    (folder / TRAINING_FILE).write_text(json.dumps(record))
    with pytest.raises(ConfigError, match=r"held-out AUC 0\.167, under RERANKER_MIN_AUC 0\.7"):
        build_reranker(settings)
    lenient = settings.model_copy(update={"reranker_min_auc": 0.1})
    assert local_model_dir(lenient) == folder
