"""The recall pipeline: validation, loose and strict failure policies, fusion, configuration."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from app.config.registry import REGISTRY
from app.errors import ConfigError, DependencyDown, InvalidRequest
from app.recall.filters import SearchFilters
from app.recall.fusion import FusionMethod, rrf
from app.recall.pipeline import (
    RecallConfig,
    RecallPipeline,
    RecallPolicy,
    RecallResponse,
    TailSource,
)
from app.recall.retriever import Hit, Retriever

NO_FILTERS = SearchFilters()


class FakeRetriever:
    """A scripted source: fixed hits, or a fixed failure; records what it was asked."""

    def __init__(
        self, source: str, hits: Sequence[tuple[str, float]] = (), error: Exception | None = None
    ) -> None:
        self.source = source
        self.hits = [Hit(item_id, score, {"seen_by": source}) for item_id, score in hits]
        self.error = error
        self.asked_top_k: list[int] = []
        self.in_flight = 0
        self.probe: InFlightProbe | None = None

    async def recall(self, query: str, filters: SearchFilters, *, top_k: int) -> list[Hit]:
        self.asked_top_k.append(top_k)
        if self.probe is not None:
            async with self.probe:
                await asyncio.sleep(0)
        if self.error is not None:
            raise self.error
        return self.hits[:top_k]


class InFlightProbe:
    """Counts how many sources are inside `recall` at the same moment."""

    def __init__(self) -> None:
        self.now = 0
        self.most = 0

    async def __aenter__(self) -> None:
        self.now += 1
        self.most = max(self.most, self.now)

    async def __aexit__(self, *exc: object) -> None:
        self.now -= 1


def bm25(error: Exception | None = None) -> FakeRetriever:
    return FakeRetriever("bm25", [("a", 12.0), ("b", 9.0), ("c", 3.0)], error)


def dense(error: Exception | None = None) -> FakeRetriever:
    return FakeRetriever("dense", [("b", 0.9), ("d", 0.8), ("a", 0.5)], error)


def comparable(response: RecallResponse) -> tuple[object, ...]:
    """Everything in a response except the timings."""
    return (
        response.hits,
        dict(response.per_source_counts),
        dict(response.failed_sources),
        response.config,
    )


LOOSE = RecallConfig(policy="loose")
STRICT = RecallConfig(policy="strict")


def test_fakes_implement_the_protocol() -> None:
    assert isinstance(bm25(), Retriever)


def test_constructor_rejects_no_retrievers_duplicates_and_blank_names() -> None:
    with pytest.raises(InvalidRequest, match="at least one"):
        RecallPipeline([])
    with pytest.raises(ValueError, match="duplicate"):
        RecallPipeline([bm25(), dense(), FakeRetriever("bm25")])
    with pytest.raises(InvalidRequest, match="non-blank"):
        RecallPipeline([FakeRetriever(" ")])


@pytest.mark.parametrize("query", ["", "   ", "\t\n"])
async def test_blank_query_is_an_invalid_request(query: str) -> None:
    source = bm25()
    with pytest.raises(InvalidRequest, match="empty"):
        await RecallPipeline([source], LOOSE).run(query, NO_FILTERS, top_k=5)
    assert source.asked_top_k == []


async def test_top_k_below_one_is_an_invalid_request() -> None:
    with pytest.raises(InvalidRequest):
        await RecallPipeline([bm25()], LOOSE).run("tv", NO_FILTERS, top_k=0)


async def test_fuses_all_sources_and_reports_counts_scores_and_timings() -> None:
    response = await RecallPipeline([bm25(), dense()], LOOSE).run("tv", NO_FILTERS, top_k=3)
    # RRF k=60: b = 1/62 + 1/61, a = 1/61 + 1/63, d = 1/62, c = 1/63
    assert [h.item_id for h in response.hits] == ["b", "a", "d"]
    assert response.hits[0].score == pytest.approx(1 / 62 + 1 / 61)
    assert dict(response.hits[2].source_scores) == {"bm25": None, "dense": 0.8}
    assert dict(response.hits[1].payload) == {"seen_by": "bm25"}
    assert dict(response.per_source_counts) == {"bm25": 3, "dense": 3}
    assert dict(response.failed_sources) == {}
    assert not response.degraded
    assert set(response.timings_ms) == {"bm25", "dense"}
    assert all(ms >= 0 for ms in response.timings_ms.values())


async def test_each_source_is_asked_for_the_depth_or_top_k_if_larger() -> None:
    a, b = bm25(), dense()
    pipeline = RecallPipeline([a, b], RecallConfig(depth=40))
    await pipeline.run("tv", NO_FILTERS, top_k=10)
    await pipeline.run("tv", NO_FILTERS, top_k=70)
    assert a.asked_top_k == b.asked_top_k == [40, 70]


@pytest.mark.parametrize(
    "error",
    [DependencyDown("qdrant", "connection refused"), ConnectionError("refused"), TimeoutError()],
)
async def test_loose_policy_reports_an_operational_failure_and_answers(error: Exception) -> None:
    response = await RecallPipeline([bm25(), dense(error)], LOOSE).run("tv", NO_FILTERS, top_k=10)
    assert [h.item_id for h in response.hits] == ["a", "b", "c"]
    assert dict(response.per_source_counts) == {"bm25": 3, "dense": 0}
    assert list(response.failed_sources) == ["dense"]
    assert response.failed_sources["dense"].startswith(type(error).__name__)
    assert response.degraded
    assert all(h.source_scores["dense"] is None for h in response.hits)


async def test_loose_policy_with_every_source_down_reraises_the_dependency_down() -> None:
    down = DependencyDown("qdrant", "breaker open")
    pipeline = RecallPipeline([bm25(ConnectionError("refused")), dense(down)], LOOSE)
    with pytest.raises(DependencyDown) as caught:
        await pipeline.run("tv", NO_FILTERS, top_k=10)
    assert caught.value is down


async def test_loose_policy_with_every_source_failing_otherwise_raises_recall_down() -> None:
    pipeline = RecallPipeline([bm25(ConnectionError("refused")), dense(TimeoutError())], LOOSE)
    with pytest.raises(DependencyDown) as caught:
        await pipeline.run("tv", NO_FILTERS, top_k=10)
    assert caught.value.name == "recall"
    assert "bm25: ConnectionError: refused" in caught.value.reason
    assert "dense: TimeoutError" in caught.value.reason
    assert isinstance(caught.value.__cause__, ConnectionError)


async def test_strict_policy_raises_on_any_failure_as_dependency_down() -> None:
    down = DependencyDown("qdrant")
    with pytest.raises(DependencyDown) as caught:
        await RecallPipeline([bm25(), dense(down)], STRICT).run("tv", NO_FILTERS, top_k=10)
    assert caught.value is down
    with pytest.raises(DependencyDown) as wrapped:
        await RecallPipeline([bm25(OSError("mmap failed")), dense()], STRICT).run(
            "tv", NO_FILTERS, top_k=10
        )
    assert wrapped.value.name == "bm25"
    assert isinstance(wrapped.value.__cause__, OSError)


async def test_strict_serial_stops_at_the_first_failure() -> None:
    first, second = bm25(DependencyDown("bm25")), dense()
    config = RecallConfig(policy="strict", parallel=False)
    with pytest.raises(DependencyDown):
        await RecallPipeline([first, second], config).run("tv", NO_FILTERS, top_k=10)
    assert second.asked_top_k == []


@pytest.mark.parametrize(
    "bug",
    [
        TypeError("recall() got an unexpected keyword"),
        KeyError("payload"),
        InvalidRequest("bad filter"),
        ConfigError("index missing"),
        RuntimeError("boom"),
    ],
)
@pytest.mark.parametrize("parallel", [True, False])
async def test_bugs_and_bad_requests_propagate_even_in_loose_mode(
    bug: Exception, parallel: bool
) -> None:
    pipeline = RecallPipeline([bm25(), dense(bug)], RecallConfig(policy="loose", parallel=parallel))
    with pytest.raises(type(bug)) as caught:
        await pipeline.run("tv", NO_FILTERS, top_k=10)
    assert caught.value is bug


async def test_a_bug_wins_over_an_earlier_operational_failure_in_loose_mode() -> None:
    bug = TypeError("oops")
    pipeline = RecallPipeline([bm25(DependencyDown("x")), dense(bug)], LOOSE)
    with pytest.raises(TypeError):
        await pipeline.run("tv", NO_FILTERS, top_k=10)


@pytest.mark.parametrize("policy", ["loose", "strict"])
@pytest.mark.parametrize("fusion", ["rrf", "weighted", "combmnz"])
async def test_parallel_and_serial_give_identical_results(
    policy: RecallPolicy, fusion: FusionMethod
) -> None:
    sources = [bm25(), dense(), FakeRetriever("splade", [("c", 7.0), ("e", 6.5)])]
    if policy == "loose":
        sources.append(FakeRetriever("flaky", error=ConnectionError("reset")))
    results = []
    for parallel in (True, False):
        config = RecallConfig(
            fusion=fusion, policy=policy, parallel=parallel, weights={"bm25": 0.7}
        )
        results.append(await RecallPipeline(sources, config).run("tv", NO_FILTERS, top_k=10))
    parallel_result, serial_result = results
    assert comparable(parallel_result)[:3] == comparable(serial_result)[:3]


@pytest.mark.parametrize(("parallel", "most_in_flight"), [(True, 2), (False, 1)])
async def test_parallel_config_decides_concurrency(parallel: bool, most_in_flight: int) -> None:
    probe = InFlightProbe()
    sources = [bm25(), dense()]
    for source in sources:
        source.probe = probe
    await RecallPipeline(sources, RecallConfig(parallel=parallel)).run("tv", NO_FILTERS, top_k=5)
    assert probe.most == most_in_flight


async def test_a_third_source_plugs_in_without_code_changes() -> None:
    splade = FakeRetriever("splade", [("e", 30.0), ("a", 20.0)])
    config = RecallConfig(weights={"splade": 2.0})
    response = await RecallPipeline([bm25(), dense(), splade], config).run(
        "tv", NO_FILTERS, top_k=10
    )
    expected = rrf(
        {"bm25": bm25().hits, "dense": dense().hits, "splade": splade.hits},
        weights={"splade": 2.0},
    )
    assert list(response.hits) == expected
    assert response.hits[0].item_id == "a"  # 1/61 + 1/63 + 2/62 beats e's 2/61
    assert dict(response.per_source_counts) == {"bm25": 3, "dense": 3, "splade": 2}


async def test_config_is_read_from_params_at_call_time() -> None:
    a, b = bm25(), dense()
    pipeline = RecallPipeline([a, b])
    default = await pipeline.run("tv", NO_FILTERS, top_k=3)
    assert default.config == RecallConfig.from_params()
    with REGISTRY.overridden(
        FUSION_METHOD="weighted",
        FUSION_WEIGHT_BM25=0.6,
        FUSION_WEIGHT_DENSE=0.4,
        RECALL_DEPTH=7,
        RECALL_PARALLEL=False,
    ):
        tuned = await pipeline.run("tv", NO_FILTERS, top_k=3)
    # weighted min-max, see test_fusion: b 0.8, a 0.6, d 0.3
    assert [(h.item_id, round(h.score, 6)) for h in tuned.hits] == [
        ("b", 0.8),
        ("a", 0.6),
        ("d", 0.3),
    ]
    assert tuned.config.fusion == "weighted"
    assert not tuned.config.parallel
    assert a.asked_top_k[-1] == 7
    again = await pipeline.run("tv", NO_FILTERS, top_k=3)
    assert comparable(again) == comparable(default)


async def test_strict_policy_from_params_applies_to_the_next_call() -> None:
    pipeline = RecallPipeline([bm25(), dense(ConnectionError("refused"))])
    with REGISTRY.overridden(RECALL_POLICY="strict"), pytest.raises(DependencyDown):
        await pipeline.run("tv", NO_FILTERS, top_k=3)
    with REGISTRY.overridden(RECALL_POLICY="loose"):
        assert (await pipeline.run("tv", NO_FILTERS, top_k=3)).degraded


async def test_an_explicit_config_beats_the_pipeline_default() -> None:
    pipeline = RecallPipeline([bm25(), dense(ConnectionError("refused"))], LOOSE)
    with pytest.raises(DependencyDown):
        await pipeline.run("tv", NO_FILTERS, top_k=3, config=STRICT)


def test_from_params_reads_declared_weights_and_weighs_others_one() -> None:
    with REGISTRY.overridden(FUSION_WEIGHT_BM25=1.0, FUSION_WEIGHT_DENSE=0.25):
        config = RecallConfig.from_params()
    assert config.weight("dense") == 0.25
    assert config.weight("bm25") == 1.0
    assert config.weight("splade") == 1.0


@pytest.mark.parametrize(
    "kwargs",
    [
        {"fusion": "combsum"},
        {"policy": "lenient"},
        {"rrf_k": -1},
        {"depth": 0},
        {"near_best": 1.5},
        {"cut_head": -0.1},
        {"tail_share": 1.2},
        {"weights": {"dense": -1.0}},
        {"weights": {"dense": float("nan")}},
    ],
)
def test_config_rejects_bad_values(kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidRequest):
        RecallConfig(**kwargs)  # type: ignore[arg-type]


def test_config_is_immutable() -> None:
    config = RecallConfig(weights={"bm25": 0.5})
    with pytest.raises(TypeError):
        config.weights["bm25"] = 2.0  # type: ignore[index]


async def test_a_near_best_cut_keeps_a_sources_near_best_hits_past_the_fused_cut() -> None:
    dense = FakeRetriever("dense", [(f"d{i}", 1.0 - i / 10) for i in range(6)])
    bm25 = FakeRetriever("bm25", [(f"b{i}", 4.0 - i / 100) for i in range(4)])
    weights = {"dense": 3.0}
    plain = RecallConfig(fusion="weighted", weights=weights)
    near = RecallConfig(fusion="weighted", weights=weights, near_best=0.9, cut_head=0.0)
    pipeline = RecallPipeline([dense, bm25])
    cut = await pipeline.run("x", NO_FILTERS, top_k=6, config=plain)
    kept = await pipeline.run("x", NO_FILTERS, top_k=6, config=near)
    assert [h.item_id for h in cut.hits] == ["d0", "d1", "d2", "d3", "b0", "b1"]
    assert [h.item_id for h in kept.hits] == ["d0", "d1", "b0", "b1", "b2", "b3"]


def tail_case() -> tuple[FakeRetriever, FakeRetriever, FakeRetriever]:
    """Dense and BM25 agree on a0..a7; the sheet store, standing in for BM25, also finds s0
    (its best) and s1 (its third), which no other source has."""
    dense = FakeRetriever("dense", [(f"a{i}", 1.0 - i / 10) for i in range(8)])
    bm25 = FakeRetriever("bm25", [(f"a{i}", 8.0 - i) for i in range(8)])
    sheet = FakeRetriever("sheet", [("s0", 20.0), ("a0", 9.0), ("s1", 8.5), ("a1", 8.0)])
    return dense, bm25, sheet


async def test_a_tail_source_fills_the_last_places_and_leaves_the_head_alone() -> None:
    dense, bm25, sheet = tail_case()
    config = RecallConfig(fusion="weighted", weights={"dense": 2.0}, tail_share=0.25)
    plain = await RecallPipeline([dense, bm25]).run("x", NO_FILTERS, top_k=8, config=config)
    tailed = RecallPipeline([dense, bm25], tail=TailSource(sheet, "bm25"))
    found = await tailed.run("x", NO_FILTERS, top_k=8, config=config)
    ids = [h.item_id for h in found.hits]
    assert ids[:6] == [h.item_id for h in plain.hits][:6]
    assert ids[6:] == ["s0", "a6"]  # the swapped fusion's order: s1 scores below a6 there
    scores = [h.score for h in found.hits]
    assert scores == sorted(scores, reverse=True)
    assert found.per_source_counts["sheet"] == 4
    assert found.hits[6].source_scores == {"dense": None, "sheet": 20.0}


async def test_a_failed_or_unwanted_tail_source_leaves_the_plain_cut() -> None:
    dense, bm25, _ = tail_case()
    config = RecallConfig(fusion="weighted", tail_share=0.25)
    plain = await RecallPipeline([dense, bm25]).run("x", NO_FILTERS, top_k=8, config=config)
    down = FakeRetriever("sheet", error=DependencyDown("opensearch", "down"))
    tailed = RecallPipeline([dense, bm25], tail=TailSource(down, "bm25"))
    found = await tailed.run("x", NO_FILTERS, top_k=8, config=config)
    assert found.hits == plain.hits
    assert "sheet" in found.failed_sources
    off = RecallConfig(fusion="weighted", tail_share=0.0)
    await tailed.run("x", NO_FILTERS, top_k=8, config=off)
    assert len(down.asked_top_k) == 1


def test_a_tail_source_must_replace_a_source_of_the_pipeline() -> None:
    dense, bm25, sheet = tail_case()
    with pytest.raises(InvalidRequest):
        RecallPipeline([dense, bm25], tail=TailSource(sheet, "opensearch"))
    with pytest.raises(InvalidRequest):
        RecallPipeline([dense, bm25], tail=TailSource(FakeRetriever("dense"), "bm25"))


async def test_a_tail_with_too_few_new_hits_leaves_the_plain_cuts_next_ones() -> None:
    """The sheet store finds nothing and dense holds only the head's items: the places the
    tail cannot fill keep the plain cut's next hits, so no search returns fewer."""
    dense = FakeRetriever("dense", [(f"a{i}", 1.0 - i / 10) for i in range(3)])
    bm25 = FakeRetriever("bm25", [(f"a{i}", 8.0 - i) for i in range(8)])
    config = RecallConfig(fusion="weighted", tail_share=0.5)
    plain = await RecallPipeline([dense, bm25]).run("x", NO_FILTERS, top_k=8, config=config)
    tailed = RecallPipeline([dense, bm25], tail=TailSource(FakeRetriever("sheet"), "bm25"))
    found = await tailed.run("x", NO_FILTERS, top_k=8, config=config)
    assert [h.item_id for h in found.hits] == [h.item_id for h in plain.hits]
    assert len(found.hits) == 8
