"""A title that misses an asked bound counts as near as it comes to it, so when no item has
the amount asked ("at least 1tb") the picks are the ones that come closest."""

from __future__ import annotations

import pytest

from app.tools.picker._filter import hard_filter
from app.tools.picker._model import Gate, Weights
from app.tools.picker._scoring import semantic_scores, weigh
from app.tools.plan.planner_rules import plan_from_text
from app.tools.terms import find_specs, spec_nearness
from app.tools.terms._specs import Spec
from tests.tools.picker_fixtures import inputs_for, item

WEIGHTS = Weights(recall=1.0, gate=2.0, must=1.5, prefer=0.75, avoid=1.0, cheap=0.3, spec=2.0)
NO_GATE = Gate(False, "off", None, 0.3)


@pytest.mark.parametrize(
    ("asked", "title", "near"),
    [
        (Spec(1.0, "tb", "1tb", at_least=True), "Verbatim SSD M.2 512 GB", 0.512),
        (Spec(1.0, "tb", "1tb", at_least=True), "OCZ 32 gb SSD", 0.032),
        (Spec(20000, "mah", "20000mah"), "Anker power bank 10000 mAh", 0.5),
        (Spec(13.0, "inch", "13 inch", at_most=True), 'Dell laptop 15.6"', 13.0 / 15.6),
        # no nearness for an exact amount, another measure, or a title without amounts
        (Spec(27.0, "inch", "27 inch"), 'Dell monitor 24"', 0.0),
        (Spec(1.0, "tb", "1tb", at_least=True), "Logitech mouse 2.4 ghz", 0.0),
        (Spec(1.0, "tb", "1tb", at_least=True), "Kingston SSD", 0.0),
    ],
)
def test_nearness_is_the_share_of_the_bound_a_title_reaches(
    asked: Spec, title: str, near: float
) -> None:
    assert spec_nearness(asked, find_specs(title)) == pytest.approx(near, abs=1e-3)


def test_with_no_item_over_the_bound_the_nearest_ranks_first() -> None:
    titles = ["OCZ 32 gb SSD", "Intel SSD 160 GB", "Verbatim SSD M.2 512 GB", "Samsung SSD 80 GB"]
    items = [item(n, title, 50.0) for n, title in enumerate(titles, start=1)]
    plan = plan_from_text(["an ssd with at least 1tb"])
    inputs = inputs_for(items, plan, query="ssd 1tb")
    filtered = hard_filter(inputs)
    sem = semantic_scores(inputs, filtered.pool, {}, None)
    ranked = weigh(filtered, NO_GATE, sem, WEIGHTS, penalty=0.5)
    assert ranked[0].item.title == "Verbatim SSD M.2 512 GB"
