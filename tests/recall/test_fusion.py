"""Fusion: RRF and weighted min-max on hand-checked examples, CombMNZ, ties, determinism."""

from __future__ import annotations

import pytest

from app.errors import InvalidRequest
from app.recall.fusion import (
    combmnz,
    fuse,
    minmax_normalise,
    near_best_cut,
    rrf,
    weighted_minmax,
)
from app.recall.retriever import Hit


def run(*pairs: tuple[str, float]) -> list[Hit]:
    return [Hit(item_id, score) for item_id, score in pairs]


RUNS = {
    "bm25": run(("a", 12.0), ("b", 9.0), ("c", 3.0)),
    "dense": run(("b", 0.9), ("d", 0.8), ("a", 0.5)),
}


def test_rrf_on_a_hand_checked_example() -> None:
    fused = rrf(RUNS, k=60)
    # a: bm25 rank 1, dense rank 3 -> 1/61 + 1/63 = 0.0163934 + 0.0158730 = 0.0322664
    # b: bm25 rank 2, dense rank 1 -> 1/62 + 1/61 = 0.0161290 + 0.0163934 = 0.0325224
    # c: bm25 rank 3 only          -> 1/63                                = 0.0158730
    # d: dense rank 2 only         -> 1/62                                = 0.0161290
    assert [h.item_id for h in fused] == ["b", "a", "d", "c"]
    scores = {h.item_id: h.score for h in fused}
    assert scores["a"] == pytest.approx(1 / 61 + 1 / 63)
    assert scores["b"] == pytest.approx(1 / 62 + 1 / 61)
    assert scores["c"] == pytest.approx(1 / 63)
    assert scores["d"] == pytest.approx(1 / 62)


def test_rrf_weights_scale_each_source() -> None:
    fused = rrf(RUNS, k=60, weights={"bm25": 2.0, "dense": 0.5})
    # a: 2/61 + 0.5/63 = 0.0327869 + 0.0079365 = 0.0407234
    # b: 2/62 + 0.5/61 = 0.0322581 + 0.0081967 = 0.0404548
    # c: 2/63          = 0.0317460
    # d: 0.5/62        = 0.0080645
    assert [h.item_id for h in fused] == ["a", "b", "c", "d"]
    assert fused[0].score == pytest.approx(2 / 61 + 0.5 / 63)


def test_weighted_minmax_on_a_hand_checked_example() -> None:
    fused = weighted_minmax(RUNS, weights={"bm25": 0.6, "dense": 0.4})
    # bm25 min 3, max 12, span 9:  a (12-3)/9 = 1.0, b (9-3)/9 = 0.6667, c 0.0
    # dense min 0.5, max 0.9, span 0.4: b 1.0, d (0.8-0.5)/0.4 = 0.75, a 0.0
    # a: 0.6*1.0    + 0.4*0.0  = 0.6
    # b: 0.6*0.6667 + 0.4*1.0  = 0.4 + 0.4 = 0.8
    # c: 0.6*0.0               = 0.0
    # d:              0.4*0.75 = 0.3
    assert [(h.item_id, round(h.score, 6)) for h in fused] == [
        ("b", 0.8),
        ("a", 0.6),
        ("d", 0.3),
        ("c", 0.0),
    ]


def test_minmax_of_one_hit_or_equal_scores_is_one() -> None:
    assert minmax_normalise([]) == []
    assert minmax_normalise([7.5]) == [1.0]
    assert minmax_normalise([2.0, 2.0, 2.0]) == [1.0, 1.0, 1.0]
    assert minmax_normalise([4.0, 3.0, 2.0]) == [1.0, 0.5, 0.0]
    fused = weighted_minmax({"bm25": run(("x", 3.3)), "dense": run(("y", 0.1), ("z", 0.1))})
    assert {h.item_id: h.score for h in fused} == {"x": 1.0, "y": 1.0, "z": 1.0}


def test_combmnz_multiplies_the_sum_by_how_many_sources_found_the_item() -> None:
    fused = combmnz(RUNS)
    # normalised as above, weights 1:
    # a: (1.0 + 0.0) * 2 = 2.0;  b: (0.6667 + 1.0) * 2 = 3.3333;  c: 0.0 * 1;  d: 0.75 * 1
    assert [(h.item_id, round(h.score, 4)) for h in fused] == [
        ("b", 3.3333),
        ("a", 2.0),
        ("d", 0.75),
        ("c", 0.0),
    ]


def test_combmnz_does_not_count_a_zero_weight_source() -> None:
    fused = combmnz(RUNS, weights={"bm25": 1.0, "dense": 0.0})
    # a: 1.0 * 1 = 1.0;  b: 0.6667 * 1;  c: 0.0;  d: 0.0 * 0 = 0.0 (tie with c, see ranks)
    assert [(h.item_id, round(h.score, 4)) for h in fused] == [
        ("a", 1.0),
        ("b", 0.6667),
        ("d", 0.0),
        ("c", 0.0),
    ]


def test_ties_break_by_best_rank_then_item_id() -> None:
    runs = {
        "bm25": run(("m", 5.0), ("k", 4.0)),
        "dense": run(("z", 0.9), ("b", 0.8)),
    }
    fused = rrf(runs, k=60)
    # m and z: 1/61 each, best rank 1 -> item id; k and b: 1/62 each, best rank 2 -> item id
    assert [h.item_id for h in fused] == ["m", "z", "b", "k"]
    assert [h.best_rank for h in fused] == [1, 1, 2, 2]
    # equal weighted scores: d (rank 1 in dense) beats c (rank 3 in bm25) although c < d
    fused = weighted_minmax(
        {"bm25": run(("a", 2.0), ("b", 1.0), ("c", 0.0)), "dense": run(("d", 0.0), ("e", 0.0))},
        weights={"dense": 0.0},
    )
    assert [h.item_id for h in fused] == ["a", "b", "d", "e", "c"]


def test_fusion_does_not_depend_on_input_dict_order_beyond_source_order() -> None:
    forward = rrf(RUNS)
    backward = rrf(dict(reversed(list(RUNS.items()))))
    assert [(h.item_id, h.score) for h in forward] == [(h.item_id, h.score) for h in backward]


def test_source_scores_are_raw_with_none_where_a_source_missed() -> None:
    fused = {h.item_id: h for h in rrf({**RUNS, "splade": []})}
    assert dict(fused["a"].source_scores) == {"bm25": 12.0, "dense": 0.5, "splade": None}
    assert dict(fused["d"].source_scores) == {"bm25": None, "dense": 0.8, "splade": None}


def test_payloads_merge_with_the_earlier_source_winning_a_conflict() -> None:
    runs = {
        "bm25": [Hit("a", 1.0, {"title": "from bm25"})],
        "dense": [Hit("a", 0.5, {"title": "from dense", "price_usd": 9.5})],
    }
    (hit,) = rrf(runs)
    assert dict(hit.payload) == {"title": "from bm25", "price_usd": 9.5}


def test_a_repeated_item_in_one_source_counts_once_at_its_best_rank() -> None:
    fused = rrf({"bm25": run(("a", 3.0), ("b", 2.0), ("a", 1.0))}, k=60)
    assert [(h.item_id, h.score) for h in fused] == [("a", 1 / 61), ("b", 1 / 62)]


def test_empty_runs_fuse_to_nothing() -> None:
    assert rrf({}) == []
    assert weighted_minmax({"bm25": [], "dense": []}) == []


@pytest.mark.parametrize("method", ["rrf", "weighted", "combmnz"])
def test_fuse_dispatches_by_name(method: str) -> None:
    expected = {"rrf": rrf(RUNS), "weighted": weighted_minmax(RUNS), "combmnz": combmnz(RUNS)}
    assert fuse(method, RUNS) == expected[method]  # type: ignore[arg-type]


@pytest.mark.parametrize("method", ["rrf", "weighted", "combmnz"])
@pytest.mark.parametrize("limit", [0, 1, 2, 3, 10])
def test_a_limit_keeps_the_best_of_the_full_fusion(method: str, limit: int) -> None:
    full = fuse(method, RUNS)  # type: ignore[arg-type]
    assert len(full) == 4
    assert fuse(method, RUNS, limit=limit) == full[:limit]  # type: ignore[arg-type]


def test_bad_arguments_are_invalid_requests() -> None:
    with pytest.raises(InvalidRequest):
        fuse("combsum", RUNS)  # type: ignore[arg-type]
    with pytest.raises(InvalidRequest):
        rrf(RUNS, k=-1)
    with pytest.raises(InvalidRequest):
        weighted_minmax(RUNS, weights={"dense": -0.1})


def test_the_near_best_cut_keeps_a_flat_sources_hits_in_fused_order() -> None:
    # bm25 is flat (every hit within 0.9 of its best, a brand query): min-max spreads it to
    # 0..1, so fused score alone would cut its tail for dense hits far below dense's best
    runs = {
        "dense": run(("d1", 0.8), ("d2", 0.7), ("d3", 0.6), ("d4", 0.5), ("d5", 0.4)),
        "bm25": run(("b1", 4.0), ("b2", 3.9), ("b3", 3.8), ("b4", 3.7)),
    }
    fused = weighted_minmax(runs, weights={"dense": 2.0, "bm25": 1.0})
    by_score = [h.item_id for h in fused[:6]]
    assert set(by_score) == {"d1", "d2", "d3", "b1", "b2", "d4"}
    cut = near_best_cut(fused, runs, limit=6, ratio=0.9, head=0.34)
    # first 2 by fused score, then the near-best hits (d1 and every bm25 hit), in fused order
    kept = {"d1", "d2", "b1", "b2", "b3", "b4"}
    assert [h.item_id for h in cut] == [h.item_id for h in fused if h.item_id in kept]
    assert near_best_cut(fused, runs, limit=6, ratio=1.0, head=0.0)[0].item_id == "d1"
    assert near_best_cut(fused, runs, limit=6, ratio=0.9, head=1.0) == fused[:6]
    assert near_best_cut(fused, runs, limit=100, ratio=0.9, head=0.3) == fused


def test_the_near_best_cut_fills_with_fused_order_when_few_are_near_best() -> None:
    runs = {"dense": run(("a", 0.9), ("b", 0.5), ("c", 0.4)), "bm25": run(("c", 9.0), ("d", 1.0))}
    fused = weighted_minmax(runs)
    cut = near_best_cut(fused, runs, limit=3, ratio=0.95, head=0.0)
    assert len(cut) == 3
    assert {"a", "c"} <= {h.item_id for h in cut}, "each source's best is near-best"
    assert cut == [h for h in fused if h in cut], "in fused order"
