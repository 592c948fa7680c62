"""item_search's relevance order: the model's score blended with the fused score over the
first hits; without a model, with weight 0, or with a model that fails, the fused order stays
and the result's `ranking` says why."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from app.catalog.item import Item
from app.recall.fusion import FusedHit
from app.tools.search import RelevanceOrder
from app.tools.search._ordering import blended_order
from app.tools.search._relevance import ScoredHit


def hit(n: int, score: float) -> ScoredHit:
    item = Item(item_id=f"s:{n}", platform="s", title=f"item {n}", source="s")
    return ScoredHit(FusedHit(item.item_id, score, {}, n), item, 0.6, False)


HITS = [hit(1, 3.0), hit(2, 2.0), hit(3, 1.0), hit(4, 0.5)]


class Model:
    """Scores each title from a table; counts calls."""

    model_id = "relevance-test"
    remote = False

    def __init__(self, scores: dict[str, float], *, fails: bool = False) -> None:
        self.scores, self.fails, self.calls = scores, fails, 0

    def score(self, query: str, documents: Sequence[str]) -> list[float]:
        self.calls += 1
        if self.fails:
            raise RuntimeError("model down")
        return [self.scores[d] for d in documents]

    async def ascore(self, query: str, documents: Sequence[str]) -> list[float]:
        return self.score(query, documents)


def ids(hits: Sequence[ScoredHit]) -> list[str]:
    return [h.item_id for h in hits]


def test_weight_one_orders_by_the_model_and_weight_zero_by_fusion() -> None:
    model = [0.1, 0.2, 0.9, 0.3]
    assert ids(blended_order(HITS, model, 1.0)) == ["s:3", "s:4", "s:2", "s:1"]
    assert ids(blended_order(HITS, model, 0.0)) == ids(HITS)


def test_the_blend_weighs_the_fused_score_scaled_over_the_window() -> None:
    # fused scaled 1, 0.6, 0.2, 0; at weight 0.5: 0.55, 0.4, 0.6, 0.15
    model = [0.1, 0.2, 1.0, 0.3]
    assert ids(blended_order(HITS, model, 0.5)) == ["s:3", "s:1", "s:2", "s:4"]


def test_ties_keep_the_fused_order() -> None:
    flat = [hit(n, 1.0) for n in range(5)]
    assert ids(blended_order(flat, [0.5] * 5, 0.7)) == ids(flat)


async def test_the_model_reorders_only_the_window() -> None:
    model = Model({"item 1": 0.0, "item 2": 1.0, "item 3": 1.0, "item 4": 1.0})
    ordered, said = await RelevanceOrder(model).apply("q", HITS, weight=1.0, window=2)
    assert ids(ordered) == ["s:2", "s:1", "s:3", "s:4"]
    assert said == "relevance-test x 1 over the first 2"


@pytest.mark.parametrize(
    ("order", "weight", "why"),
    [
        (RelevanceOrder(None, "no relevance model under var/models"), 0.5, "no relevance model"),
        (RelevanceOrder(Model({}, fails=True)), 0.5, "the relevance model failed"),
        (RelevanceOrder(Model({})), 0.0, "ITEM_SEARCH_RELEVANCE_WEIGHT is 0"),
    ],
)
async def test_without_a_working_model_the_fused_order_stays_and_says_why(
    order: RelevanceOrder, weight: float, why: str
) -> None:
    ordered, said = await order.apply("q", HITS, weight=weight, window=30)
    assert ids(ordered) == ids(HITS)
    assert said.startswith("fused order")
    assert why in said


async def test_an_opener_loads_the_model_once_and_only_for_a_weight() -> None:
    opened: list[int] = []
    model = Model({"item 1": 0.0, "item 2": 1.0, "item 3": 0.0, "item 4": 0.0})

    def opener() -> tuple[Model, None]:
        opened.append(1)
        return model, None

    order = RelevanceOrder(None, opener=opener)
    ordered, _ = await order.apply("q", HITS, weight=0.0, window=30)
    assert opened == []
    assert ids(ordered) == ids(HITS)
    for _ in range(2):
        ordered, said = await order.apply("q", HITS, weight=1.0, window=30)
        assert ids(ordered)[0] == "s:2"
        assert said.startswith("relevance-test")
    assert opened == [1]
