"""The behaviour every `Reranker` backend must show: one score per document, in the documents'
order, each in [0, 1]; `ascore` agrees with `score`; bad calls are `InvalidRequest`.

Backend test classes inherit `RerankerContract` and provide a `reranker` fixture. The small
trained model they need comes from `small_model()`, trained once per test process.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

import pytest

from app.config.registry import REGISTRY
from app.config.settings import Settings
from app.errors import InvalidRequest
from app.recall.reranker import Reranker
from app.recall.reranker_training import RerankerTrainConfig, TrainReport, train_reranker

QUERY = "gaming keyboard"
DOCUMENTS = (
    "Razer Blackwidow Mechanical Gaming Keyboard",
    "Kensington Gel Keyboard Wrist Rest Blue",
    "Razer Lachesis Gaming Mouse",
    "Case Logic laps-117 17 - 17.3 - Inch Laptop Sleeve Black",
    "CHERRY G80-3000 keyboard USB QWERTY US English Gray",
)

_trained: dict[str, tuple[Settings, TrainReport]] = {}


def small_model(settings: Settings) -> tuple[Settings, TrainReport]:
    """Settings whose models folder holds a freshly trained small reranker, and its report.

    Trained once per process into a temporary var folder that links the real index, so
    the suite never adds test models to `var/models`.
    """
    if "small" not in _trained:
        root = Path(tempfile.mkdtemp(prefix="pickwise-reranker-test-"))
        atexit.register(shutil.rmtree, root, ignore_errors=True)
        (root / "index").symlink_to(settings.index_dir.resolve(), target_is_directory=True)
        scoped = settings.model_copy(update={"var_dir": root})
        report = train_reranker(scoped, RerankerTrainConfig.small(), show_progress=False)
        _trained["small"] = (scoped, report)
    return _trained["small"]


class RerankerContract:
    """Inherit and provide a `reranker` fixture returning the backend under test."""

    @pytest.fixture
    def reranker(self) -> Reranker:
        raise NotImplementedError

    def test_is_a_reranker(self, reranker: Reranker) -> None:
        assert isinstance(reranker, Reranker)
        assert isinstance(reranker.model_id, str)
        assert reranker.model_id
        assert isinstance(reranker.remote, bool)

    def test_one_score_per_document_in_order_within_unit_interval(self, reranker: Reranker) -> None:
        scores = reranker.score(QUERY, DOCUMENTS)
        assert len(scores) == len(DOCUMENTS)
        assert all(isinstance(s, float) and 0.0 <= s <= 1.0 for s in scores)
        backwards = reranker.score(QUERY, DOCUMENTS[::-1])
        assert backwards == pytest.approx(scores[::-1], abs=1e-5)
        assert len(set(scores)) > 1, "every document got the same score"

    def test_a_score_does_not_depend_on_the_other_documents(self, reranker: Reranker) -> None:
        query = "mechanical keyboard"
        together = reranker.score(query, DOCUMENTS)
        alone = [reranker.score(query, [d])[0] for d in DOCUMENTS]
        assert alone == pytest.approx(together, abs=1e-4)

    def test_repeated_documents_get_the_same_score(self, reranker: Reranker) -> None:
        docs = [DOCUMENTS[0], DOCUMENTS[2], DOCUMENTS[0], DOCUMENTS[2]]
        scores = reranker.score("wireless mouse", docs)
        assert scores[0] == pytest.approx(scores[2])
        assert scores[1] == pytest.approx(scores[3])

    def test_same_scores_with_the_cache_off(self, reranker: Reranker) -> None:
        cached = reranker.score(QUERY, DOCUMENTS)
        with REGISTRY.overridden(RERANKER_CACHE_SIZE=0):
            fresh = reranker.score(QUERY, DOCUMENTS)
        assert fresh == pytest.approx(cached, abs=1e-5)

    async def test_ascore_agrees_with_score(self, reranker: Reranker) -> None:
        awaited = await reranker.ascore("laptop sleeve", DOCUMENTS)
        assert awaited == pytest.approx(reranker.score("laptop sleeve", DOCUMENTS), abs=1e-5)

    async def test_no_documents_no_scores(self, reranker: Reranker) -> None:
        assert reranker.score(QUERY, []) == []
        assert await reranker.ascore(QUERY, []) == []

    async def test_blank_query_is_an_invalid_request(self, reranker: Reranker) -> None:
        with pytest.raises(InvalidRequest, match="empty"):
            reranker.score("   ", DOCUMENTS)
        with pytest.raises(InvalidRequest, match="empty"):
            await reranker.ascore("", DOCUMENTS)

    def test_too_many_documents_is_an_invalid_request(self, reranker: Reranker) -> None:
        with (
            REGISTRY.overridden(RERANKER_MAX_DOCUMENTS=3),
            pytest.raises(InvalidRequest, match="RERANKER_MAX_DOCUMENTS"),
        ):
            reranker.score(QUERY, DOCUMENTS)
