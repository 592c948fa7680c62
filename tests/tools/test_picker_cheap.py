"""A low price asked without an amount ("a cheap ssd") is measured against the candidates of
the product: the picks come from those at or below their typical price, so an enterprise
drive at 18 times the cheapest one is no cheap ssd."""

from __future__ import annotations

from app.catalog.item import Item
from app.tools.picker._filter import hard_filter
from app.tools.picker._model import Gate, Scored, Weights
from app.tools.picker._scoring import semantic_scores, weigh
from app.tools.picker._select import affordable, select, typical_price
from app.tools.plan.shopping_plan import ShoppingPlan
from tests.tools.picker_fixtures import inputs_for, item

SSDS = [
    item(1, "Lenovo 800 GB SAS internal solid state drive", 544.95),
    item(2, "Intel 80 GB internal solid state drive", 29.95),
    item(3, "OCZ 32 GB solid state drive", 59.99),
    item(4, "OCZ 50 GB PCI-Express solid state drive", 230.84),
    item(5, "Kingston 120 GB solid state drive", 89.0),
]
NO_GATE = Gate(False, "off", None, 0.3)
WEIGHTS = Weights(recall=1.0, gate=2.0, must=1.5, prefer=0.75, avoid=1.0, cheap=0.3, spec=1.0)


def ranked_for(items: list[Item], plan: ShoppingPlan) -> tuple[Scored, ...]:
    inputs = inputs_for(items, plan)
    filtered = hard_filter(inputs)
    sem = semantic_scores(inputs, filtered.pool, {}, None)
    return weigh(filtered, NO_GATE, sem, WEIGHTS, penalty=0.5)


def test_the_typical_price_is_a_quantile_of_the_products_prices() -> None:
    ranked = ranked_for(SSDS, ShoppingPlan(category="ssd", cheap=True))
    assert typical_price(ranked, 0.5) == 89.0
    assert typical_price(ranked, 1.0) == 544.95
    assert typical_price(ranked[:2], 0.5) is None, "too few prices to say what is typical"


def test_the_typical_price_is_that_of_the_candidates_stating_the_request() -> None:
    """'a cheap ssd 500gb' is cheap among 500 GB drives, not beside 32 GB ones."""
    sized = [*SSDS, *(item(10 + n, f"Crucial 500 GB solid state drive {n}", p)
                      for n, p in enumerate((110.0, 150.0, 190.0)))]  # fmt: skip
    ranked = ranked_for(sized, ShoppingPlan(category="ssd", keywords=("500gb",), cheap=True))
    assert typical_price(ranked, 0.5) == 150.0


def test_a_cheap_ask_picks_among_the_candidates_at_or_below_the_typical_price() -> None:
    ranked = ranked_for(SSDS, ShoppingPlan(category="ssd", cheap=True))
    picked = select(affordable(ranked, 89.0), max_picks=3, show_ratio=0.0, dup_threshold=0.9)
    prices = sorted(c.scored.item.price_usd or 0.0 for c in picked.picks)
    assert prices == [29.95, 59.99, 89.0]
    assert affordable(ranked, 10.0) == ranked, "none that cheap: every candidate stays"
    assert affordable(ranked, None) == ranked
