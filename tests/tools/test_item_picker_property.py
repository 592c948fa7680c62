"""Property: over random candidate sets, plans and gate scores, no pick ever names an excluded
term (unless only negated, as in "gluten-free") and none breaks the budget or the cap."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from app.catalog.item import Item
from app.tools.picker._filter import hard_filter
from app.tools.picker._gate import finish_gate, plan_gate
from app.tools.picker._model import Weights
from app.tools.picker._report import slot_report
from app.tools.picker._scoring import semantic_scores, weigh
from app.tools.picker._select import select
from app.tools.plan.shopping_plan import Constraint, ShoppingPlan
from tests.tools.picker_fixtures import inputs_for

WORDS = ["keyboard", "mouse", "gluten", "soy", "razer", "free", "no", "without", "non", "pro"]
EXCLUDABLE = ["gluten", "soy", "razer", "mouse"]
NEGATORS = {"no", "without", "non"}
TOKEN = re.compile(r"[a-z0-9]+")
BUDGETS = [None, 20.0, 50.0, 80.0]
PRICES = [None, 0.0, 19.99, 20.0, 20.01, 49.5, 50.0, 50.5, 79.99, 80.0, 80.01, 150.0]


def names(text: str | None, term: str) -> bool:
    """The oracle: `term` is a token of `text` not followed by "free" nor after a negator."""
    tokens = TOKEN.findall((text or "").lower())
    for i, token in enumerate(tokens):
        if token != term:
            continue
        followed = i + 1 < len(tokens) and tokens[i + 1] == "free"
        preceded = i > 0 and tokens[i - 1] in NEGATORS
        if not followed and not preceded:
            return True
    return False


titles = st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).flatmap(
    lambda words: st.lists(
        st.sampled_from([" ", "-"]), min_size=len(words), max_size=len(words)
    ).map(lambda seps: "".join(w + s for w, s in zip(words, seps, strict=True)).strip(" -"))
)
items = st.lists(
    st.builds(
        lambda title, brand, category, price: (title, brand, category, price),
        titles,
        st.sampled_from([None, "Razer", "Acme", "Soy Co"]),
        st.sampled_from([None, "Keyboards", "Mice", "Gluten Free Foods"]),
        st.one_of(st.sampled_from(PRICES), st.floats(min_value=0, max_value=200)),
    ),
    min_size=0,
    max_size=25,
)
plans = st.builds(
    lambda excl, budget, must, avoid, category: ShoppingPlan(
        category=category,
        exclude=tuple(Constraint(term=t) for t in excl),
        avoid=tuple(Constraint(term=t) for t in avoid),
        must_have=tuple(must),
        budget_usd=budget,
    ),
    st.lists(st.sampled_from(EXCLUDABLE), max_size=3, unique=True),
    st.one_of(st.sampled_from(BUDGETS), st.floats(min_value=1, max_value=200)),
    st.lists(st.sampled_from(["keyboard", "pro", "gluten free"]), max_size=2, unique=True),
    st.lists(st.sampled_from(["soy", "pro"]), max_size=1),
    st.sampled_from([None, "keyboard", "mouse"]),
)


@settings(max_examples=300, deadline=None)
@given(
    rows=items,
    plan=plans,
    gate_scores=st.one_of(st.none(), st.lists(st.floats(0, 1), min_size=25, max_size=25)),
    max_picks=st.one_of(st.none(), st.integers(1, 10)),
    ratio=st.floats(0, 1),
)
def test_picks_never_break_excludes_budget_or_cap(
    rows: list[tuple[str, str | None, str | None, float | None]],
    plan: ShoppingPlan,
    gate_scores: list[float] | None,
    max_picks: int | None,
    ratio: float,
) -> None:
    catalog = [
        Item(
            item_id=f"amazon:{n}",
            platform="amazon",
            title=title,
            brand=brand,
            category=category,
            price_usd=price,
            source="test",
        )
        for n, (title, brand, category, price) in enumerate(rows)
    ]
    inputs = inputs_for(catalog, plan, query=plan.category or "keyboard", max_picks=max_picks)
    filtered = hard_filter(inputs)
    planned = plan_gate(inputs, filtered, k=15, unavailable=None if gate_scores else "none")
    scores = None if gate_scores is None else gate_scores[: len(planned.targets)]
    gate = finish_gate(planned, scores, floor=0.3)
    semantics = semantic_scores(inputs, filtered.pool, {}, None)
    weights = Weights(recall=1, gate=2, must=1.5, prefer=0.75, avoid=1, cheap=0.3, spec=1)
    ranked = weigh(filtered, gate, semantics, weights, penalty=0.5)
    assert len(ranked) == len(filtered.pool)
    selection = select(ranked, max_picks=inputs.max_picks, show_ratio=ratio, dup_threshold=0.6)
    part = slot_report(inputs, filtered, gate, selection, {})

    assert len(part.picks) <= min(3, max_picks or 3)
    assert len({p.item_id for p in part.picks}) == len(part.picks)
    if filtered.pool:
        assert part.picks
    by_id = {i.item_id: i for i in catalog}
    for pick in part.picks:
        item = by_id[pick.item_id]
        for term in plan.exclude_terms:
            for text in (item.title, item.brand, item.category):
                assert not names(text, term), (term, text)
        if plan.budget_usd is not None:
            assert item.price_usd is not None
            assert item.price_usd <= plan.budget_usd
