"""The first-stage ceiling: each source and their union at the cut and at depth, the fused
top, and the queries that lose the most, checked by hand on small rankings (through the
evaluation and the CLI: tests/eval/test_judgments_eval.py)."""

from __future__ import annotations

import pytest

from app.eval._judgment_file import Judgments
from app.eval._recall_ceiling import CeilingInput, recall_ceiling


def near(value: float) -> object:
    """The report rounds to four places."""
    return pytest.approx(value, abs=1e-4)


JUDGED = Judgments(
    graded={
        "lamp": {"a": 3, "b": 2, "c": 2, "d": 0},
        "fan": {"x": 2, "y": 1},
        "nothing relevant": {"z": 1},
    },
    source="hand",
    rows=7,
    origins={"lamp": {"a": "human", "b": "llm", "c": "llm"}, "fan": {"x": "human"}},
)


def ceiling(cut: int = 2) -> dict:
    """Sources ranked to depth 4, the fused list cut at 2 (the cut stands in for 100)."""
    given = CeilingInput(
        sources={
            "bm25": {"lamp": ["d", "a", "q", "b"], "fan": ["y", "x"]},
            "dense": {"lamp": ["a", "e", "c", "f"], "fan": ["x"]},
        },
        first_stage="hybrid_weighted",
        fused={"lamp": ["a", "e", "b"], "fan": ["x", "y"]},
        depth=4,
    )
    queries = ["fan", "lamp", "nothing relevant"]
    return recall_ceiling(JUDGED, queries, 2, given, cut=cut, worst=5)


def test_recall_of_each_source_and_their_union_at_the_cut_and_at_depth() -> None:
    found = ceiling()
    assert found["queries"] == 2  # "nothing relevant" has no item rated 2 or more
    recall = found["recall"]
    # lamp: relevant a, b, c; fan: relevant x
    assert recall["bm25@2"] == near((1 / 3 + 1) / 2)  # lamp d,a; fan y,x
    assert recall["bm25@4"] == near((2 / 3 + 1) / 2)
    assert recall["dense@2"] == near((1 / 3 + 1) / 2)
    assert recall["dense@4"] == near((2 / 3 + 1) / 2)
    assert recall["union@2"] == near((1 / 3 + 1) / 2)  # lamp d, a, e
    assert recall["union@4"] == near(1.0)  # lamp a, b, c: each found by one source or the other
    assert recall["hybrid_weighted@2"] == near((1 / 3 + 1) / 2)
    assert found["gap"] == pytest.approx(1 - (1 / 3 + 1) / 2, abs=1e-4)


def test_the_worst_queries_say_what_the_sources_held_and_what_nobody_rated() -> None:
    worst = ceiling()["worst"]
    assert [row["query"] for row in worst] == ["lamp"]  # fan lost nothing
    lamp = worst[0]
    assert (lamp["relevant"], lamp["found"], lamp["in_union_at_depth"]) == (3, 1, 3)
    assert lamp["unrated_in_top"] == 1  # "e" in the fused top 2 has no rating
    assert lamp["share_of_gap"] == pytest.approx((2 / 3) / 2, abs=1e-4)


def test_a_deeper_cut_finds_more_and_lowers_the_gap() -> None:
    assert ceiling(cut=3)["gap"] < ceiling(cut=2)["gap"]


def test_recall_split_by_who_pooled_the_relevant_pairs() -> None:
    by_origin = ceiling()["by_origin"]
    assert list(by_origin) == ["human", "llm"]
    human, llm = by_origin["human"], by_origin["llm"]
    assert (human["queries"], human["pairs"]) == (2, 2)  # lamp a, fan x
    assert (llm["queries"], llm["pairs"]) == (1, 2)  # lamp b, c
    assert (human["missed"], llm["missed"]) == (0, 2)  # the fused top 2: lamp a,e; fan x
    # bm25@2: lamp d,a; fan y,x -> human a and x found, llm none
    assert human["recall"]["bm25@2"] == near(1.0)
    assert llm["recall"]["bm25@2"] == near(0.0)
    # the fused top 2: lamp a,e; fan x
    assert human["recall"]["hybrid_weighted@2"] == near(1.0)
    assert llm["recall"]["hybrid_weighted@2"] == near(0.0)
    assert llm["recall"]["dense@2"] == near(0.0)  # lamp a,e
    assert set(human["recall"]) == {"bm25@2", "dense@2", "union@2", "hybrid_weighted@2"}


def test_no_source_column_no_split() -> None:
    bare = Judgments(graded=JUDGED.graded, source="hand", rows=7)
    given = CeilingInput(
        sources={"bm25": {"lamp": ["a"]}}, first_stage="f", fused={"lamp": ["a"]}, depth=4
    )
    assert recall_ceiling(bare, ["lamp"], 2, given, cut=2)["by_origin"] == {}


def test_the_split_union_holds_what_either_source_holds() -> None:
    llm = ceiling(cut=3)["by_origin"]["llm"]["recall"]
    # at 3: bm25 lamp d,a,q; dense lamp a,e,c; llm pairs b, c
    assert llm["bm25@3"] == near(0.0)
    assert llm["dense@3"] == near(0.5)
    assert llm["union@3"] == near(0.5)  # the union of five items, not its first three
