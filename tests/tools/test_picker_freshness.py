"""Freshness in the picker's weighted score: among items alike in all else the newer wins,
and an item of unknown year (a shop listing) is neither new nor old."""

from __future__ import annotations

import dataclasses

import pytest

from app.config.params.picker import PICK_W_FRESH
from app.config.registry import REGISTRY
from app.tools.picker._filter import freshness
from app.tools.picker._model import Gate, Scored, Weights
from app.tools.picker._scoring import current_weights, semantic_scores, weigh
from tests.tools.picker_fixtures import filtered_for, inputs_for, item

NO_GATE = Gate(False, "off", None, 0.3)
WEIGHTS = Weights(recall=0.0, gate=2.0, must=1.5, prefer=0.75, avoid=1.0, cheap=0.3, spec=1.0)


def test_years_scale_newest_one_oldest_zero_and_unknown_half() -> None:
    assert freshness([2008, 2020, None, 2014]) == [0.0, 1.0, 0.5, 0.5]


def test_one_year_or_none_known_is_no_difference() -> None:
    assert freshness([2010, 2010]) == [1.0, 1.0]
    assert freshness([None, None]) == [0.5, 0.5]
    assert freshness([]) == []


def weigh_old_and_new(weights: Weights) -> list[Scored]:
    """Two monitors alike but for their year, the 2007 one recalled first."""
    items = [
        item(1, "LCD monitor", 60.0, released=2007),
        item(2, "LCD monitor", 60.0, released=2019),
    ]
    filtered = filtered_for(items)
    sem = semantic_scores(inputs_for(items), filtered.pool, {}, None)
    return list(weigh(filtered, NO_GATE, sem, weights, penalty=0.5))


def test_the_newer_of_two_alike_items_wins_and_says_why_in_its_parts() -> None:
    ranked = weigh_old_and_new(dataclasses.replace(WEIGHTS, fresh=0.3))
    assert [r.item.item_id for r in ranked] == ["amazon:2", "amazon:1"]
    assert [r.parts["fresh"] for r in ranked] == [0.3, 0.0]


def test_without_the_weight_recall_order_stands() -> None:
    ranked = weigh_old_and_new(WEIGHTS)
    assert [r.item.item_id for r in ranked] == ["amazon:1", "amazon:2"]


def test_the_weight_is_read_from_the_registry_at_call_time() -> None:
    default = current_weights().fresh
    assert default == PICK_W_FRESH.get() > 0
    with REGISTRY.overridden(PICK_W_FRESH=1.25):
        assert current_weights().fresh == pytest.approx(1.25)
    assert current_weights().fresh == default
