"""The matching evaluation on the real ditto files: pair counts as published, the F1 floors
the matcher reaches on the test split, the end-to-end variant over the built index, and the
committed weights being what refitting on train and valid gives."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from app.catalog._match_weights import FITTED_MODEL, FITTED_THRESHOLD
from app.catalog.loader import Catalog
from app.catalog.matching import ProductMatcher
from app.catalog.matching_fit import fit_matcher
from app.cli import _eval_matching
from app.cli.main import app
from app.config.settings import Settings
from app.eval.matching_eval import run_matching_eval
from app.recall.search_index import SearchIndex

# Published test pairs (positives) per dataset; floors are the measured F1 minus 0.02.
TEST_PAIRS = {"walmart-amazon": (2049, 193), "amazon-google": (2293, 234), "abt-buy": (1916, 206)}
PAIRWISE_F1_FLOOR = {"walmart-amazon": 0.84, "amazon-google": 0.58, "abt-buy": 0.87}
END_TO_END_F1_FLOOR = 0.84


def test_cli_json_reports_every_dataset(
    monkeypatch: pytest.MonkeyPatch, settings: Settings
) -> None:
    monkeypatch.setattr(_eval_matching, "get_settings", lambda: settings)
    result = CliRunner().invoke(app, ["eval", "matching", "--json", "--pairs-only"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert set(report) == set(TEST_PAIRS)
    for name, (pairs, positives) in TEST_PAIRS.items():
        scores = report[name]
        assert {"precision", "recall", "f1", "pairs"} <= set(scores)
        assert (scores["pairs"], scores["positives"]) == (pairs, positives)
        assert scores["f1"] >= PAIRWISE_F1_FLOOR[name], (name, scores)
        assert scores["threshold"] == FITTED_THRESHOLD


def test_cli_rejects_an_unknown_split() -> None:
    result = CliRunner().invoke(app, ["eval", "matching", "--split", "train", "--pairs-only"])
    assert result.exit_code != 0
    assert "split" in result.output


@pytest.fixture(scope="module")
def index(built_index: Settings) -> Iterator[SearchIndex]:
    opened = SearchIndex.open(built_index)
    yield opened
    asyncio.run(opened.close())


@pytest.mark.slow
def test_end_to_end_on_walmart_amazon(
    built_index: Settings, catalog: Catalog, index: SearchIndex
) -> None:
    report = run_matching_eval(
        built_index, datasets=["walmart-amazon"], catalog=catalog, index=index
    )
    scores = report["walmart-amazon"]
    e2e = scores["end_to_end"]
    assert e2e["pairs"] == TEST_PAIRS["walmart-amazon"][0]
    assert 0 < e2e["items"] < e2e["pairs"]
    assert e2e["f1"] >= END_TO_END_F1_FLOOR, e2e
    # Candidate generation can only lose pairs the matcher would accept, never add any.
    assert e2e["recall"] <= scores["recall"]


@pytest.mark.slow
def test_committed_weights_are_the_refit(catalog: Catalog, matcher: ProductMatcher) -> None:
    fit = fit_matcher(catalog, matcher=matcher)
    assert fit.threshold == FITTED_THRESHOLD
    assert fit.model.bias == pytest.approx(FITTED_MODEL.bias, abs=1e-3)
    for name, weight in FITTED_MODEL.weights.items():
        assert fit.model.weights[name] == pytest.approx(weight, abs=1e-3), name
