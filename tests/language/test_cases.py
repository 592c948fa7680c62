"""The labelled corpus: each shopper phrase produces the plan fields it is labelled with,
and the corpus itself is well formed (stable ids, splits by the hash of the id)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from app.errors import ConfigError
from app.eval.language_cases import EXTRACTORS, Case, judge_case, load_cases, split_of

CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case_produces_its_labelled_fields(case: Case) -> None:
    wrong = [v for v in judge_case(case) if not v.ok]
    assert not wrong, "\n".join(f"{v.field}: expected {v.expected!r}, got {v.got!r}" for v in wrong)


def test_every_extractor_has_cases_in_both_splits() -> None:
    splits = Counter((c.extractor, c.split) for c in CASES)
    for extractor in EXTRACTORS:
        assert splits[extractor, "dev"] > 0, extractor
        if extractor != "platforms":
            assert splits[extractor, "heldout"] > 0, extractor


def test_about_a_fifth_is_held_out() -> None:
    share = sum(c.split == "heldout" for c in CASES) / len(CASES)
    assert 0.15 < share < 0.25


def test_the_split_follows_the_id_alone() -> None:
    assert split_of("stated-ceiling-becomes-the-budget-252c80") == "dev"
    assert split_of("stated-ceiling-becomes-the-budget-a57579") == "heldout"


def test_a_wrong_label_is_caught() -> None:
    case = next(c for c in CASES if c.expect.get("budget_usd"))
    wrong = Case(**{**case.__dict__, "expect": {"budget_usd": case.expect["budget_usd"] + 1}})
    assert [v.ok for v in judge_case(wrong)] == [False]


@pytest.mark.parametrize(
    "entry",
    [
        {"id": "x", "split": "heldout", "extractor": "negation", "messages": ["a"], "expect": {}},
        {"id": "x", "split": "dev", "extractor": "spelling", "messages": ["a"]},
        {"id": "x", "split": "dev", "extractor": "negation", "messages": "a"},
        {
            "id": "x",
            "split": "dev",
            "extractor": "negation",
            "messages": ["a"],
            "expect": {"colour": 1},
        },
    ],
)
def test_a_malformed_case_is_a_config_error(tmp_path: Path, entry: dict[str, object]) -> None:
    assert split_of("x") == "dev"
    path = tmp_path / "cases.yaml"
    path.write_text(yaml.safe_dump([entry]))
    with pytest.raises(ConfigError):
        load_cases(path)
