"""A size, standard or connector the shopper names holds by rule in item_picker's selection:
whatever scores the cross-encoder gives, no pick lacks an asked spec while another candidate
that may be shown states it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.catalog.standards import canonical_standards
from app.tools.picker._filter import hard_filter
from app.tools.picker._gate import finish_gate, plan_gate
from app.tools.picker._model import Weights
from app.tools.picker._scoring import semantic_scores, weigh
from app.tools.picker._select import fewest_unmet, select
from app.tools.plan.planner_rules import plan_from_text
from tests.tools.picker_fixtures import inputs_for, item

WEIGHTS = Weights(recall=1.0, gate=2.0, must=1.5, prefer=0.75, avoid=1.0, cheap=0.3, spec=1.0)

CABLES = [
    "C2G USB A Male to A Male Cable 2m",
    "Belkin USB-C to USB-C Cable 1m Black",
    "Anker USB Type-C cable 6 ft",
    "StarTech.com USB 2.0 A to B cable",
    "Goobay USB C to Lightning cable 1 m",
    "Kensington USB-A extension cable",
]
FLASH_DRIVES = [
    "SanDisk Cruzer Blade USB flash drive 32 GB USB Type-A 2.0 Black",
    "Kingston DataTraveler USB flash drive 64 GB USB Type-A 3.2 Gen 1 Black",
    "Verbatim Store n Go USB flash drive 16 GB USB Type-A 2.0",
    "Integral USB flash drive 64 GB USB Type-A 2.0 Blue",
    "PNY Attache USB flash drive 128 GB USB Type-A 3.2 Gen 1",
]


def picks_for(request: str, titles: list[str], scores: list[float], *, ratio: float) -> list[str]:
    """The titles item_picker's stages 1-6 pick for the request, given the gate's scores."""
    items = [item(n, title, 5.0 + n) for n, title in enumerate(titles, 1)]
    plan = plan_from_text(request)
    inputs = inputs_for(items, plan, query=request)
    filtered = hard_filter(inputs)
    gate = finish_gate(
        plan_gate(inputs, filtered, k=len(items), unavailable=None), scores, floor=0.3
    )
    sem = semantic_scores(inputs, filtered.pool, {}, None)
    ranked = weigh(filtered, gate, sem, WEIGHTS, penalty=0.5)
    selection = select(ranked, max_picks=3, show_ratio=ratio, dup_threshold=0.9)
    return [c.scored.item.title for c in selection.picks]


def test_a_cable_the_gate_likes_best_is_not_picked_without_the_named_connector() -> None:
    picks = picks_for("a usb c cable", CABLES, [0.99, 0.5, 0.45, 0.9, 0.4, 0.95], ratio=0.6)
    assert picks
    assert all("usb-c" in canonical_standards(t.lower()) for t in picks), picks


def test_with_no_candidate_stating_the_spec_the_best_scored_still_show() -> None:
    titles = [t for t in CABLES if "usb-c" not in canonical_standards(t.lower())]
    picks = picks_for("a usb c cable", titles, [0.99, 0.5, 0.45, 0.9], ratio=0.0)
    assert len(picks) == 3


def test_the_field_is_those_leaving_fewest_specs_unstated() -> None:
    items = [item(n, t) for n, t in enumerate(FLASH_DRIVES, 1)]
    inputs = inputs_for(items, plan_from_text("a usb 3.0 flash drive 64gb"), query="flash drive")
    filtered = hard_filter(inputs)
    sem = semantic_scores(inputs, filtered.pool, {}, None)
    gate = finish_gate(plan_gate(inputs, filtered, k=5, unavailable=None), [0.9] * 5, floor=0.3)
    ranked = weigh(filtered, gate, sem, WEIGHTS, penalty=0.5)
    assert [s.item.item_id for s in fewest_unmet(ranked)] == ["amazon:2"]


@settings(max_examples=120, deadline=None, derandomize=True)
@given(
    request=st.sampled_from(["a usb c cable", "a usb 3.0 flash drive", "a 64gb flash drive"]),
    scores=st.lists(st.floats(0.0, 1.0), min_size=6, max_size=6),
    ratio=st.sampled_from([0.0, 0.6, 0.9]),
)
def test_any_gate_scores_keep_the_named_spec_in_every_pick(
    request: str, scores: list[float], ratio: float
) -> None:
    titles = CABLES if "cable" in request else [*FLASH_DRIVES, "Generic USB flash drive"]
    items = [item(n, title, 5.0 + n) for n, title in enumerate(titles, 1)]
    plan = plan_from_text(request)
    inputs = inputs_for(items, plan, query=request)
    filtered = hard_filter(inputs)
    gate = finish_gate(plan_gate(inputs, filtered, k=6, unavailable=None), scores, floor=0.3)
    sem = semantic_scores(inputs, filtered.pool, {}, None)
    ranked = weigh(filtered, gate, sem, WEIGHTS, penalty=0.5)
    picks = select(ranked, max_picks=3, show_ratio=ratio, dup_threshold=0.9).picks
    assert picks
    shown_penalised = all(c.scored.penalised for c in picks)
    field = [s for s in ranked if shown_penalised or not s.penalised]
    for spec in inputs.specs:
        if any(spec.wording not in s.semantics.specs_unsaid for s in field):
            unmet = [
                c.scored.item.title
                for c in picks
                if spec.wording in c.scored.semantics.specs_unsaid
            ]
            assert not unmet, (spec.wording, unmet)
