"""The judgment file reader and the ranx metrics on hand-made judgments and rankings whose
scores are worked out by hand, including what counts as a scored query."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from app.errors import ConfigError, InvalidRequest
from app.eval._judgment_file import read_judgments
from app.eval._ranking_metrics import (
    QuerySets,
    condensed,
    judged_share,
    score_rankings,
    significance,
)

CSV = """query,docid,rating
red shoe,1,3
red shoe,2,1
red shoe,3,2
red shoe,4,0
blue hat,5,2
blue hat,6,0
only ones,7,1
nothing,8,0
"""


def write(tmp_path: Path, text: str, name: str = "j.csv") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def log2(x: float) -> float:
    return math.log2(x)


def test_reads_ratings_by_item_id_and_follows_aliases(tmp_path: Path) -> None:
    j = read_judgments(
        write(tmp_path, CSV + "blue hat,50,3\n"), id_prefix="p:", aliases={"p:50": "p:5"}
    )
    assert j.graded["red shoe"] == {"p:1": 3, "p:2": 1, "p:3": 2, "p:4": 0}
    assert j.graded["blue hat"] == {"p:5": 3, "p:6": 0}  # alias of a judged docid: max rating
    assert (j.rows, j.merged, j.queries_in_file) == (9, 1, 4)
    assert j.queries_with(1) == ["blue hat", "only ones", "red shoe"]
    assert j.queries_with(2) == ["blue hat", "red shoe"]


def test_the_source_column_says_who_pooled_each_kept_rating(tmp_path: Path) -> None:
    text = "query,docid,rating,source\nlamp,1,3,human\nlamp,2,2,llm\nlamp,3,1,\n"
    text += "lamp,20,0,human\nlamp,21,3,llm\n"  # 20 and 21 fold into item 2
    j = read_judgments(
        write(tmp_path, text), id_prefix="p:", aliases={"p:20": "p:2", "p:21": "p:2"}
    )
    assert j.graded["lamp"] == {"p:1": 3, "p:2": 3, "p:3": 1}
    assert j.origin("lamp", "p:1") == "human"
    assert j.origin("lamp", "p:2") == "llm"  # the origin of the higher rating kept
    assert j.origin("lamp", "p:3") is None  # a blank source says nothing
    assert j.origin("desk", "p:1") is None
    assert read_judgments(write(tmp_path, CSV), id_prefix="p:").origins == {}


def test_items_missing_from_the_index_are_dropped_and_counted(tmp_path: Path) -> None:
    j = read_judgments(write(tmp_path, CSV), id_prefix="p:", known={"p:1", "p:2", "p:5"})
    assert j.graded["red shoe"] == {"p:1": 3, "p:2": 1}
    assert j.unknown == ("p:3", "p:4", "p:6", "p:7", "p:8")
    with pytest.raises(InvalidRequest, match="none of the 8 judged docids"):
        read_judgments(write(tmp_path, CSV), id_prefix="q:", known={"p:1"})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("query,doc,rating\na,1,1\n", "lacks column"),
        ("query,docid,rating\na,1,4\n", "line 2: rating 4 is outside 0-3"),
        ("query,docid,rating\na,1,x\n", "line 2: rating 'x' is not an integer"),
        ("query,docid,rating\na,1,1.5\n", "not an integer"),
        ("query,docid,rating\n ,1,1\n", "line 2: blank query"),
        ("query,docid,rating\na,,1\n", "line 2: docid '' is blank"),
        ("query,docid,rating\na,1\n", "line 2: rating '' is not an integer"),
        ("query,docid,rating\na,1,1,9\n", "line 2: more fields than the header"),
        (
            "query,docid,rating\na,1,1\nb,2,2\na,1,3\n",
            "line 4: ('a', '1') rated 3, but 1 on line 2",
        ),
        ("query,docid,rating\n", "no judgments"),
    ],
)
def test_bad_files_are_rejected_with_the_line(tmp_path: Path, text: str, expected: str) -> None:
    with pytest.raises(InvalidRequest, match=_escaped(expected)):
        read_judgments(write(tmp_path, text))


def _escaped(text: str) -> str:
    return re.escape(text)


def test_every_bad_row_is_counted_and_a_repeated_identical_row_is_fine(tmp_path: Path) -> None:
    text = "query,docid,rating\na,1,1\na,1,1\nb,2,9\nc,3,-1\n,4,1\n"
    with pytest.raises(InvalidRequest, match="3 bad row"):
        read_judgments(write(tmp_path, text))


def test_a_missing_file_is_a_configuration_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        read_judgments(tmp_path / "absent.csv")


def test_metrics_match_the_hand_computation(tmp_path: Path) -> None:
    j = read_judgments(write(tmp_path, CSV), id_prefix="p:")
    sets = QuerySets.of(j, relevant=2)
    assert (sets.graded, sets.binary) == (
        ["blue hat", "only ones", "red shoe"],
        ["blue hat", "red shoe"],
    )
    rankings = {
        "red shoe": ["p:2", "p:9", "p:1", "p:4"],  # gains 1, unjudged, 3, 0; p:3 missed
        "blue hat": ["p:6", "p:5"],  # 0 then the relevant one
        "only ones": [],  # found nothing
        "nothing": ["p:8"],  # no positive rating: not scored at all
    }
    scores = score_rankings(j, rankings, sets)
    red_dcg = 1 / log2(2) + 3 / log2(4)
    red_idcg = 3 / log2(2) + 2 / log2(3) + 1 / log2(4)
    blue = (2 / log2(3)) / 2
    assert scores["ndcg@10"] == pytest.approx((red_dcg / red_idcg + blue + 0.0) / 3)
    assert scores["recall@20"] == pytest.approx((1 / 2 + 1) / 2)  # red: p:1 found, p:3 not
    assert scores["recall@100"] == pytest.approx(0.75)
    assert scores["mrr@20"] == pytest.approx((1 / 3 + 1 / 2) / 2)
    assert scores["judged@10"] == pytest.approx((3 / 4 + 1) / 2)  # "only ones" has no results
    cond = score_rankings(j, condensed(j, rankings), sets)
    cond_red = (1 / log2(2) + 3 / log2(3)) / red_idcg
    assert cond["ndcg@10"] == pytest.approx((cond_red + blue) / 3)


def test_only_the_top_ten_count_as_judged(tmp_path: Path) -> None:
    j = read_judgments(write(tmp_path, CSV), id_prefix="p:")
    ranking = ["p:1"] + [f"u:{n}" for n in range(9)] + ["p:2", "p:3"]
    assert judged_share(j, {"red shoe": ranking}, ["red shoe"]) == pytest.approx(0.1)


def test_significance_is_paired_per_metric(tmp_path: Path) -> None:
    j = read_judgments(write(tmp_path, CSV), id_prefix="p:")
    sets = QuerySets.of(j, relevant=2)
    good = {"red shoe": ["p:1", "p:3", "p:2"], "blue hat": ["p:5"], "only ones": ["p:7"]}
    bad = {"red shoe": ["p:2", "p:1"], "blue hat": ["p:6"], "only ones": []}
    p = significance(j, {"good": good, "bad": bad, "same": dict(good)}, sets, "good")
    assert set(p) == {"bad", "same"}
    assert set(p["bad"]) == {"ndcg@10", "recall@20", "recall@100", "mrr@20"}
    assert p["same"]["ndcg@10"] is None  # identical scores: the t statistic is undefined
    assert p["bad"]["ndcg@10"] is not None
    assert 0 < p["bad"]["ndcg@10"] < 0.2
    fisher = significance(j, {"good": good, "bad": bad}, sets, "good", stat_test="fisher")
    assert fisher["bad"]["ndcg@10"] is not None
    assert 0 < fisher["bad"]["ndcg@10"] <= 1
