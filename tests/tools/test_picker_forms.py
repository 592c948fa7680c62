"""Asked forms ("wireless", "dual", "in-ear"): a title or spec sheet that states one weighs
more, a word that implies one states it ("bluetooth" is wireless), and an alternative of
an asked form counts against a title only when the title says it."""

from __future__ import annotations

import dataclasses

import numpy as np

from app.catalog.item import Item
from app.tools.picker._filter import hard_filter
from app.tools.picker._model import Filtered, Gate, PickInputs, Weights
from app.tools.picker._scoring import semantic_scores, weigh
from app.tools.plan.shopping_plan import ShoppingPlan
from app.tools.terms._terms import make_term, term_in
from tests.tools.picker_fixtures import inputs_for, item

WEIGHTS = Weights(recall=1.0, gate=2.0, must=1.5, prefer=0.75, avoid=1.0, cheap=0.3, spec=2.0)
NO_GATE = Gate(False, "off", None, 0.3)


def stages(items: list[Item], plan: ShoppingPlan, query: str) -> tuple[PickInputs, Filtered]:
    inputs = inputs_for(items, plan, query=query)
    return inputs, hard_filter(inputs)


def test_a_title_stating_the_asked_form_outranks_better_recalled_ones() -> None:
    """ "a docking station for two monitors": the dual dock recalled last goes first."""
    docks = [
        item(1, "HP 90W Docking Station Black"),
        item(2, "HP USB 2.0 Docking Station"),
        item(3, "i-tec Thunderbolt 3 Dual 4K Docking Station"),
    ]
    plan = ShoppingPlan(category="docking station", keywords=("dual", "monitors"))
    inputs, filtered = stages(docks, plan, "docking station dual monitors")
    sem = semantic_scores(inputs, filtered.pool, {}, None)
    assert [sem[d.item_id].form for d in docks] == [0.0, 0.0, 1.0]
    ranked = weigh(filtered, NO_GATE, sem, dataclasses.replace(WEIGHTS, form=1.0), penalty=0.5)
    assert ranked[0].item.item_id == "amazon:3"
    unweighted = weigh(filtered, NO_GATE, sem, WEIGHTS, penalty=0.5)
    assert unweighted[0].item.item_id == "amazon:1"


def test_a_form_the_spec_sheet_lists_counts() -> None:
    mice = [item(1, "Logitech M185 Mouse", features=("Wireless", "USB")), item(2, "HP Mouse")]
    inputs, filtered = stages(mice, ShoppingPlan(category="mouse", keywords=("wireless",)), "mouse")
    sem = semantic_scores(inputs, filtered.pool, {}, None)
    assert (sem["amazon:1"].form, sem["amazon:2"].form) == (1.0, 0.0)


def test_bluetooth_and_wifi_say_wireless() -> None:
    wireless = make_term("wireless")
    assert wireless is not None
    assert term_in("JBL Flip 4 Bluetooth Speaker", wireless)
    assert term_in("Arlo Wi-Fi 6 Security Camera", wireless)
    assert not term_in("Koss Wired Headphones", wireless)
    assert not term_in("Non-Bluetooth USB Speaker", wireless)


def test_a_bluetooth_title_is_wireless_for_an_asked_and_for_a_contrary_form() -> None:
    speakers = [item(1, "Sony Portable Bluetooth Speaker"), item(2, "Logitech USB Speakers")]
    asked = ShoppingPlan(category="speaker", keywords=("wireless",))
    inputs, filtered = stages(speakers, asked, "speaker wireless")
    sem = semantic_scores(inputs, filtered.pool, {}, None)
    assert sem["amazon:1"].form == 1.0
    assert "wireless" not in sem["amazon:1"].terms_unsaid
    assert sem["amazon:2"].terms_unsaid == ("wireless",)
    wired = ShoppingPlan(category="speaker", keywords=("wired",))
    inputs, filtered = stages(speakers, wired, "speaker wired")
    sem = semantic_scores(inputs, filtered.pool, {}, None)
    assert sem["amazon:1"].avoid_said == ("wireless",)
    assert sem["amazon:2"].avoid_said == ()


def test_an_alternative_form_counts_against_a_title_only_when_said() -> None:
    """ "triple" sits close to "Dual" in embedding space; a dual dock does not avoid it."""
    docks = [item(1, "i-tec Dual 4K Docking Station"), item(2, "Triple Display Docking Station")]
    plan = ShoppingPlan(category="docking station", keywords=("dual",))
    inputs, filtered = stages(docks, plan, "docking station dual")
    assert "triple" in inputs.contrary
    same = np.ones(4) / 2.0
    vectors = dict.fromkeys(("dual", "triple", "single", "quad"), same)
    sem = semantic_scores(inputs, filtered.pool, vectors, [same, same])
    assert sem["amazon:1"].avoid == 0.0
    assert sem["amazon:2"].avoid == 1.0


def test_an_internal_drive_is_no_external_one() -> None:
    drives = [item(1, "Verbatim internal solid state drive M.2 1000 GB"), item(2, "WD My Passport")]
    plan = ShoppingPlan(category="external hard drive")
    inputs, filtered = stages(drives, plan, "external hard drive")
    assert "internal" in inputs.contrary
    sem = semantic_scores(inputs, filtered.pool, {}, None)
    assert sem["amazon:1"].avoid_said == ("internal",)
    assert sem["amazon:2"].avoid_said == ()


def test_a_portable_drive_is_an_external_one_and_an_internal_one_says_so() -> None:
    drives = [
        item(1, "Verbatim internal solid state drive M.2 512 GB"),
        item(2, "Samsung T5 portable external SSD 500 GB"),
    ]
    plan = ShoppingPlan(category="ssd", keywords=("portable",))
    inputs, _ = stages(drives, plan, "ssd portable")
    assert "external" in inputs.forms
    assert "internal" in inputs.contrary
    speakers = ShoppingPlan(category="speaker", keywords=("portable",))
    assert stages([item(3, "JBL portable speaker")], speakers, "speaker")[0].forms == ()
