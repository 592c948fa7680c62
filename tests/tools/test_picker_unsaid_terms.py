"""A pick that does not state a must-have ("with hdmi"), an asked form ("wireless") or trait
("waterproof") says so, and when no pick does the slot report names it for the answer's
caveat."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest

from app.catalog.item import Item
from app.tools.picker._filter import hard_filter
from app.tools.picker._model import Gate, Weights
from app.tools.picker._report import slot_report
from app.tools.picker._result import SlotPicks
from app.tools.picker._scoring import semantic_scores, weigh
from app.tools.picker._select import select
from app.tools.plan.shopping_plan import ShoppingPlan
from app.tools.summary._facts import unstated
from app.tools.terms._terms import make_term, term_in
from tests.tools.picker_fixtures import inputs_for, item

WEIGHTS = Weights(recall=1.0, gate=2.0, must=1.5, prefer=0.75, avoid=1.0, cheap=0.3, spec=2.0)
NO_GATE = Gate(False, "off", None, 0.3)


def report_for(
    items: Sequence[Item], plan: ShoppingPlan, query: str, weights: Weights = WEIGHTS
) -> SlotPicks:
    inputs = inputs_for(items, plan, query=query)
    filtered = hard_filter(inputs)
    sem = semantic_scores(inputs, filtered.pool, {}, None)
    ranked = weigh(filtered, NO_GATE, sem, weights, penalty=0.5)
    selection = select(ranked, max_picks=3, show_ratio=0.0, dup_threshold=0.9)
    return slot_report(inputs, filtered, NO_GATE, selection, {})


@pytest.mark.parametrize(
    ("category", "must", "lacking", "stating"),
    [
        ("hub", "hdmi", "Kensington interface hub USB Type-C Black", "Anker USB-C hub with HDMI"),
        # a bare count is said only beside what it counts: "4 tb" is no fourth bay
        ("nas", "4 bays", "Seagate NAS 220 2-bay 4 tb 2 x 2 tb", "Seagate NAS 420 4 - Bay 2 tb"),
        # a count in words, and the word catalogs use for two of a thing
        ("car charger", "two usb ports", "Philips USB Car Charger", "Scosche Dual USB Car Charger"),
        # a headset is headphones with a microphone
        ("headphones", "microphone", "Sony MDR Headphones", "Plantronics Gamecom Gaming Headset"),
        # an all-in-one printer scans
        ("printer", "scan", "HP Deskjet 6980 Printer", "Kodak Esp 2170 All-in-One Printer"),
    ],
)
def test_a_pick_without_a_must_have_says_it_does_not_say_it(
    category: str, must: str, lacking: str, stating: str
) -> None:
    items = [item(1, lacking), item(2, stating)]
    report = report_for(items, ShoppingPlan(category=category, must_have=(must,)), category)
    reasons = {p.item_id: p.reason for p in report.picks}
    assert f"has {must}" in reasons["amazon:2"]
    assert f"does not say {must}" in reasons["amazon:1"]
    assert "does not say" not in reasons["amazon:2"]
    assert report.unstated == []


def test_the_report_names_a_must_have_no_pick_states() -> None:
    hubs = [item(1, "Kensington interface hub USB Type-C"), item(2, "C2G interface hub Gray")]
    report = report_for(hubs, ShoppingPlan(category="hub", must_have=("hdmi",)), "hub")
    assert report.unstated == ["hdmi"]
    assert unstated(report) == "None of the items I found says hdmi; these come closest"


def test_an_asked_trait_a_pick_lacks_is_said_and_named_when_no_pick_states_it() -> None:
    speakers = [item(1, "Sony Portable Bluetooth Speaker"), item(2, "JBL Waterproof Speaker")]
    plan = ShoppingPlan(category="speaker", keywords=("waterproof", "portable"))
    reasons = {p.item_id: p.reason for p in report_for(speakers, plan, "speaker").picks}
    assert "does not say waterproof" in reasons["amazon:1"]
    assert "also waterproof" in reasons["amazon:2"]
    assert "does not say portable" not in reasons["amazon:2"]
    report = report_for(speakers[:1], plan, "speaker")
    assert report.unstated == ["waterproof"]
    assert unstated(report) == "None of the items I found says waterproof; these come closest"


def test_a_quiet_keyboard_is_one_that_says_quiet_or_silent() -> None:
    keyboards = [item(1, "Razer Mechanical Gaming Keyboard"), item(2, "Logitech Silent Keyboard")]
    plan = ShoppingPlan(category="keyboard", keywords=("quiet",))
    reasons = {p.item_id: p.reason for p in report_for(keyboards, plan, "keyboard").picks}
    assert "does not say quiet" in reasons["amazon:1"]
    assert "does not say quiet" not in reasons["amazon:2"]
    report = report_for(keyboards[:1], plan, "keyboard")
    assert unstated(report) == "None of the items I found says quiet; these come closest"


def test_an_asked_form_no_pick_states_is_named_and_a_contrary_one_is_said_instead() -> None:
    earbuds = [
        item(1, "Maxell Timbers Earbud"),
        item(2, "Koss wired Earbud Stereophone"),
    ]
    plan = ShoppingPlan(category="earbuds", keywords=("wireless",))
    report = report_for(earbuds, plan, "earbuds wireless")
    reasons = {p.item_id: p.reason for p in report.picks}
    assert "does not say wireless" in reasons["amazon:1"]
    assert "says wired, not wireless" in reasons["amazon:2"]
    assert "does not say wireless" not in reasons["amazon:2"]
    assert report.unstated == []


def test_the_report_tells_a_must_have_lower_ranked_items_state() -> None:
    hubs = [
        item(1, "Kensington interface hub USB Type-C Black"),
        item(2, "C2G interface hub Gray"),
        item(3, "Anker USB-C hub with HDMI 4K"),
    ]
    inputs = inputs_for(hubs, ShoppingPlan(category="hub", must_have=("hdmi",)), query="hub")
    filtered = hard_filter(inputs)
    sem = semantic_scores(inputs, filtered.pool, {}, None)
    ranked = weigh(filtered, NO_GATE, sem, WEIGHTS, penalty=0.5)
    others = tuple(r for r in ranked if r.item.item_id != "amazon:3")
    selection = select(others, max_picks=1, show_ratio=0.0, dup_threshold=0.9)
    report = slot_report(inputs, filtered, NO_GATE, selection, {})
    assert report.unstated == ["hdmi"]
    assert report.stated_elsewhere == ["hdmi"]


def test_a_platform_no_pick_states_is_named_and_another_product_saying_it_does_not_count() -> None:
    """An "xbox controller" among PlayStation controllers says none is for Xbox; an Xbox
    headset ranked lower is no Xbox controller, so the catalog still has none."""
    items = [
        item(1, "Sony PlayStation 2 Dualshock 2 Analog Controller"),
        item(2, "PlayStation 2 Dualshock Analog Controller Green"),
        item(3, "HyperX Cloud II Gaming Headset, Works with PC, PS4, Xbox One"),
    ]
    plan = ShoppingPlan(category="controller", keywords=("xbox",))
    inputs = inputs_for(items, plan, query="controller xbox")
    filtered = hard_filter(inputs)
    sem = semantic_scores(inputs, filtered.pool, {}, None)
    ranked = weigh(filtered, NO_GATE, sem, WEIGHTS, penalty=0.5)
    controllers = tuple(r for r in ranked if r.item.item_id != "amazon:3")
    selection = select(controllers, max_picks=3, show_ratio=0.0, dup_threshold=0.9)
    report = slot_report(inputs, filtered, NO_GATE, selection, {})
    assert all("does not say xbox; made for playstation 2" in p.reason for p in report.picks)
    assert report.unstated == ["xbox"]
    assert report.stated_elsewhere == []
    assert unstated(report) == "None of the items I found says xbox; these come closest"


def test_a_platform_is_checked_only_for_a_product_made_for_one_device() -> None:
    """A monitor "for my macbook" fits any Mac with the right port: no pick is told it does
    not say macbook; a case for an iphone is."""
    monitors = [item(1, "DELL UltraSharp U2720Q 27in 4K USB-C monitor")]
    plan = ShoppingPlan(category="monitor", keywords=("4k", "macbook"))
    report = report_for(monitors, plan, "monitor 4k macbook")
    assert "does not say macbook" not in report.picks[0].reason
    assert "made for" not in report.picks[0].reason
    assert report.unstated == []
    cases = [item(1, "Samsung Galaxy S20 Silicone Cover case")]
    report = report_for(cases, ShoppingPlan(category="case", keywords=("iphone",)), "case iphone")
    assert report.unstated == ["iphone"]


def test_a_platform_is_stated_in_its_long_name() -> None:
    """ "ps4" is said by "PlayStation 4"; a PlayStation 2 controller says it lacks it."""
    controllers = [
        item(1, "Sony Dualshock 2 Analog Controller PlayStation 2"),
        item(2, "Sony DualShock 4 Wireless Controller for PlayStation 4"),
    ]
    plan = ShoppingPlan(category="controller", keywords=("ps4",))
    report = report_for(controllers, plan, "controller ps4")
    reasons = {p.item_id: p.reason for p in report.picks}
    assert "also ps4" in reasons["amazon:2"]
    assert "does not say ps4" in reasons["amazon:1"]
    assert report.unstated == []


def test_plain_keywords_are_preferences_not_claims() -> None:
    earbuds = [item(1, "Maxell Timbers Earbud"), item(2, "Koss Earbud Stereophone")]
    plan = ShoppingPlan(category="earbuds", keywords=("running",))
    report = report_for(earbuds, plan, "earbuds running")
    assert all("does not say" not in p.reason for p in report.picks)
    assert report.unstated == []


def test_a_spec_must_have_is_reported_once() -> None:
    laptops = [item(1, "Lenovo ThinkBook 15 Notebook 8 GB RAM")]
    plan = ShoppingPlan(category="laptop", must_have=("16gb ram",))
    report = report_for(laptops, plan, "laptop 16gb ram")
    assert report.picks[0].reason.count("16gb") == 1, report.picks[0].reason
    assert report.unstated == ["16gb"]


def test_a_contrary_form_sets_aside_only_its_own_family() -> None:
    headphones = [item(1, "Koss wired Headphones Stereo"), item(2, "Sony Headphones Black")]
    plan = ShoppingPlan(category="headphones", keywords=("wireless", "over-ear"))
    report = report_for(headphones, plan, "headphones wireless over-ear")
    reasons = {p.item_id: p.reason for p in report.picks}
    assert "says wired, not wireless" in reasons["amazon:1"]
    assert "does not say over-ear" in reasons["amazon:1"], reasons["amazon:1"]
    assert "does not say wireless" not in reasons["amazon:1"]


def test_a_form_in_the_product_name_sinks_its_alternative() -> None:
    printers = [
        item(1, "HP LaserJet M1005 multifunction printer Laser 600 x 600 DPI"),
        item(2, "HP DeskJet F380 Inkjet printer 4800 x 1200 DPI"),
        item(3, "Canon PIXMA Inkjet printer"),
    ]
    report = report_for(printers, ShoppingPlan(category="inkjet printer"), "inkjet printer")
    reasons = {p.item_id: p.reason for p in report.picks}
    assert report.picks[0].item_id == "amazon:2"
    assert "says laser, not inkjet" in reasons["amazon:1"]


def test_an_asked_colour_a_pick_does_not_state_is_said_and_named_when_none_does() -> None:
    """ "a red bluetooth speaker" showed black speakers without a word on the colour."""
    speakers = [item(1, "Sony Portable Bluetooth Speaker Black"), item(2, "NGS Roller Speaker Red")]
    plan = ShoppingPlan(category="bluetooth speaker", keywords=("red",))
    reasons = {p.item_id: p.reason for p in report_for(speakers, plan, "speaker").picks}
    assert "does not say red" in reasons["amazon:1"]
    assert "also red" in reasons["amazon:2"]
    report = report_for(speakers[:1], plan, "speaker")
    assert unstated(report) == "None of the items I found says red; these come closest"


def test_an_asked_bus_is_a_form_and_serial_ata_says_sata() -> None:
    """ "the cheapest 1tb nvme" had put a network hard drive first: it says no bus, and a
    SATA drive says the other one."""
    ssds = [
        item(1, "Iomega 1 tb Home Media Network Hard Drive Cloud Edition"),
        item(2, "Kingston KC2500 M.2 1000 GB PCI Express 3.0 NVMe"),
        item(3, "Intel internal solid state drive 1.8 160 GB Serial ATA III"),
    ]
    nvme = report_for(ssds, ShoppingPlan(category="ssd", keywords=("nvme",)), "ssd nvme")
    reasons = {p.item_id: p.reason for p in nvme.picks}
    assert nvme.picks[0].item_id == "amazon:2"
    assert "does not say nvme" in reasons["amazon:1"]
    assert "says sata, not nvme" in reasons["amazon:3"]
    sata = report_for(ssds, ShoppingPlan(category="ssd", keywords=("sata",)), "ssd sata")
    reasons = {p.item_id: p.reason for p in sata.picks}
    assert "also sata" in reasons["amazon:3"]
    assert "does not say sata" in reasons["amazon:1"]


def test_a_word_in_the_product_name_that_implies_a_form_asks_for_it() -> None:
    """ "bluetooth headphones" are wireless ones: a title saying wired sinks, one saying
    Bluetooth states the form."""
    headphones = [
        item(1, "Sony MDR-ZX110 Wired Over-Ear Headphones"),
        item(2, "JBL Tune 500BT Bluetooth Headphones"),
    ]
    plan = ShoppingPlan(category="bluetooth headphones")
    weights = dataclasses.replace(WEIGHTS, form=1.0)
    report = report_for(headphones, plan, "bluetooth headphones", weights)
    reasons = {p.item_id: p.reason for p in report.picks}
    assert report.picks[0].item_id == "amazon:2"
    assert "says wired, not wireless" in reasons["amazon:1"]


def test_a_form_asked_through_the_product_name_is_reported_unsaid() -> None:
    """A pick of "bluetooth headphones" that says neither Bluetooth nor wired says it does
    not say wireless; one saying Bluetooth does not."""
    headphones = [
        item(1, "Panasonic Slimz Over-Ear Headphone Green"),
        item(2, "HP iPAQ Bluetooth Stereo Headphones"),
    ]
    report = report_for(headphones, ShoppingPlan(category="bluetooth headphones"), "headphones")
    reasons = {p.item_id: p.reason for p in report.picks}
    assert "does not say wireless" in reasons["amazon:1"]
    assert "does not say" not in reasons["amazon:2"]
    assert report.unstated == []


def test_a_handedness_is_a_form_and_a_title_saying_hand_states_it() -> None:
    """A left-handed mouse is asked: "Right-hand" is its alternative, "Left-hand" says it."""
    mice = [
        item(1, "Conceptronic Lorcan Ergo mouse Bluetooth 1600 DPI Right-hand"),
        item(2, "HyperX Pulsefire Raid gaming mouse USB Optical 16000 DPI Left-hand"),
    ]
    plan = ShoppingPlan(category="mouse", keywords=("left-handed",))
    report = report_for(mice, plan, "mouse left-handed")
    reasons = {p.item_id: p.reason for p in report.picks}
    assert report.picks[0].item_id == "amazon:2"
    assert "says right handed, not left-handed" in reasons["amazon:1"], reasons["amazon:1"]
    assert "does not say" not in reasons["amazon:2"]


def test_a_memory_generation_is_a_form_and_its_spellings_read_as_one() -> None:
    memory = [
        item(1, "Corsair 8 gb 2 x 4 gb pc2-6400 800mhz 200-pin Laptop Memory Kit"),
        item(2, "HyperX FURY memory module 8 GB DDR4-SDRAM 3600 MHz"),
    ]
    plan = ShoppingPlan(category="memory", keywords=("8gb", "ddr4", "laptop"))
    report = report_for(memory, plan, "memory 8gb ddr4 laptop")
    reasons = {p.item_id: p.reason for p in report.picks}
    assert report.picks[0].item_id == "amazon:2"
    assert "has 8gb, DDR4" in reasons["amazon:2"]
    assert "says DDR2, not DDR4" in reasons["amazon:1"]
    assert "does not say DDR4" not in reasons["amazon:1"]


def test_a_screen_setup_is_a_form() -> None:
    arms = [
        item(1, "Kensington Smartfit Single Monitor Arm"),
        item(2, "Inland Pro Dual Monitor Arm"),
    ]
    plan = ShoppingPlan(category="monitor arm", keywords=("dual", "monitors"))
    reasons = {p.item_id: p.reason for p in report_for(arms, plan, "monitor arm dual").picks}
    assert "says single, not dual" in reasons["amazon:1"]


def test_a_count_may_stand_a_unit_apart_from_what_it_counts() -> None:
    ssd = make_term("512 ssd")
    assert ssd is not None
    assert term_in("DELL Precision 16 GB DDR4-SDRAM 512 GB SSD Tower", ssd)
    assert not term_in("ASUS ROG 16 GB DDR4-SDRAM 1512 GB HDD+SSD Tower", ssd)


def test_a_must_have_the_spec_sheet_lists_counts_as_said() -> None:
    monitors = [
        item(1, "DELL SE2719H 68.6 cm (27in) Full HD LCD Black", features=("HDMI", "VGA")),
        item(2, "HP L2445w 24-inch Widescreen LCD Monitor", features=("DVI", "VGA")),
    ]
    plan = ShoppingPlan(category="monitor", must_have=("hdmi",))
    inputs = inputs_for(monitors, plan, query="monitor hdmi")
    sem = semantic_scores(inputs, hard_filter(inputs).pool, {}, None)
    assert sem["amazon:1"].must == 1.0
    assert sem["amazon:2"].must == 0.0
    report = report_for(monitors, plan, "monitor hdmi")
    reasons = {p.item_id: p.reason for p in report.picks}
    assert "its spec sheet lists hdmi" in reasons["amazon:1"]
    assert "does not say" not in reasons["amazon:1"]
    assert "does not say hdmi" in reasons["amazon:2"]
    assert report.unstated == []


def test_a_built_in_part_is_the_part() -> None:
    monitors = [item(1, "ViewSonic VX2435wm 24 inch monitor", features=("speakers", "HDMI"))]
    for asked in (
        "built-in speakers",
        "built in speakers",
        "integrated speakers",
        "speakers built-in",
    ):
        plan = ShoppingPlan(category="monitor", must_have=(asked,))
        report = report_for(monitors, plan, "monitor speakers")
        reason = report.picks[0].reason
        assert f"its spec sheet lists {asked}" in reason, asked
        assert "does not say" not in reason, asked


def test_a_spec_the_spec_sheet_lists_counts_as_said() -> None:
    routers = [
        item(1, "AVM FRITZ!Box 6660 wireless router Dual-band", features=("Wi-Fi 6 (802.11ax)",)),
        item(2, "Netgear WGR614 Wireless-G Router"),
    ]
    plan = ShoppingPlan(category="router", keywords=("wifi 6",))
    inputs = inputs_for(routers, plan, query="router wifi 6")
    sem = semantic_scores(inputs, hard_filter(inputs).pool, {}, None)
    assert (sem["amazon:1"].spec, sem["amazon:2"].spec) == (1.0, 0.0)
    reasons = {p.item_id: p.reason for p in report_for(routers, plan, "router wifi 6").picks}
    assert list(reasons) == ["amazon:1"]
    assert "does not say" not in reasons["amazon:1"], reasons["amazon:1"]
    alone = report_for(routers[1:], plan, "router wifi 6").picks
    assert "does not say Wi-Fi 6" in alone[0].reason


def test_a_pick_says_the_year_it_came_out() -> None:
    laptops = [item(1, "HP EliteBook 6930p Notebook PC", released=2008), item(2, "Acer Notebook")]
    report = report_for(laptops, ShoppingPlan(category="laptop"), "laptop")
    reasons = {p.item_id: p.reason for p in report.picks}
    assert "released 2008" in reasons["amazon:1"]
    assert "released" not in reasons["amazon:2"]


def test_a_part_named_by_another_product_is_said_by_its_trait() -> None:
    """Titles state a laptop's graphics card by its chip ("GeForce RTX 2060"), and a
    monitor's sheet lists the HDMI port the shopper's "hdmi cable" plugs into."""
    laptops = [
        item(1, "MSI Gaming GF65 Thin Notebook 16 GB 512 GB SSD NVIDIA GeForce RTX 2060"),
        item(2, "HP Gaming Pavilion 15 Notebook 8 GB NVIDIA GeForce GTX 1650"),
    ]
    plan = ShoppingPlan(category="gaming laptop", must_have=("rtx graphics card",))
    reasons = {p.item_id: p.reason for p in report_for(laptops, plan, "gaming laptop rtx").picks}
    assert "has rtx" in reasons["amazon:1"]
    assert "does not say rtx graphics card" in reasons["amazon:2"]
    monitors = [item(3, "iiyama ProLite E2483HSU-B5 computer monitor", features=("HDMI",))]
    plan = ShoppingPlan(category="monitor", must_have=("hdmi cable",))
    report = report_for(monitors, plan, "monitor hdmi")
    assert "its spec sheet lists hdmi" in report.picks[0].reason
    assert "hdmi cable" not in report.picks[0].reason
    assert report.unstated == []


def test_reasons_and_the_report_use_the_shoppers_words_for_a_term() -> None:
    """Terms match in one spelling ("mic" is microphone) but are told as the shopper wrote
    them."""
    headphones = [
        item(1, "Sony MDR-ZX110 Stereo Headphones"),
        item(2, "Koss Stereo Headphones with Mic, Gray"),
    ]
    plan = ShoppingPlan(category="headphones", must_have=("mic",), keywords=("grey",))
    report = report_for(headphones, plan, "headphones")
    reasons = {p.item_id: p.reason for p in report.picks}
    assert "has mic; also grey" in reasons["amazon:2"]
    assert "does not say mic" in reasons["amazon:1"]
    assert "microphone" not in " ".join(reasons.values())
    assert "gray" not in reasons["amazon:2"]
    assert report.unstated == []
