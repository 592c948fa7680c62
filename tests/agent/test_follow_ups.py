"""'Something cheaper' is read against the first pick the shopper saw, once, as a typed change
to the plan (never amounts written back into the message)."""

from __future__ import annotations

import pytest

from app.agent._offer_answer import (
    best_answer,
    compare_answer,
    count_answer,
    most_answer,
    offers_answer,
    price_rank_answer,
    trait_answer,
)
from app.agent.events import PickView
from app.agent.follow_ups import FollowUp, follow_up_cues
from app.agent.follow_ups import read_follow_up as settle_follow_up
from app.agent.session import Session
from app.catalog.currency import to_usd, usd_rates
from app.catalog.item import Item
from app.catalog.spelling import Speller
from app.tools.compare._result import ComparedItem, Offer, PriceCompareResult, ProductGroup
from app.tools.plan.planner_rules import apply_change, plan_from_text, read_plan
from app.tools.plan.readings import counting_readings
from app.tools.plan.shopping_plan import ShoppingPlan

PLAN = plan_from_text(["wireless earbuds under $50"])
PICKS = [
    PickView(item_id="amazon:1", title="Earbuds", platform="amazon", price_usd=23.1, reason=""),
    PickView(item_id="amazon:2", title="Earbuds", platform="amazon", price_usd=1.98, reason=""),
]


def _session(picks: list[PickView], plan: ShoppingPlan | None = PLAN) -> Session:
    return Session(session_id="s", plan=plan, picks=picks)


def read_follow_up(message: str, session: Session, speller: Speller | None = None) -> FollowUp:
    """The follow-up as a turn settles it: the cues, then the planner's one reading of the
    words they leave (respelt, as the planner tool reads them)."""
    cues = follow_up_cues(message, session, speller)
    text = speller.text(cues.text)[0] if speller is not None else cues.text
    return settle_follow_up(cues, session, read_plan([text]).latest)


@pytest.mark.parametrize(
    ("message", "change"),
    [
        ("something cheaper", {"budget_usd": 23.09, "budget_amount": 23.09}),
        ("those are too expensive", {"budget_usd": 23.09, "budget_amount": 23.09}),
        ("cheaper earbuds please", {"budget_usd": 23.09, "budget_amount": 23.09}),
        ("something more expensive", {"floor_usd": 23.11}),
        ("cheaper than $20", None),
        ("a cheaper keyboard", None),
        ("no skullcandy", None),
    ],
)
def test_a_relative_price_is_read_against_the_first_pick(
    message: str, change: dict[str, float] | None
) -> None:
    follow_up = read_follow_up(message, _session(PICKS))
    assert follow_up.planned == message
    got = follow_up.change.model_dump(exclude_defaults=True) if follow_up.change else None
    assert got == change


def test_a_cheaper_pick_listed_in_another_currency_is_asked_in_it() -> None:
    euros = PICKS[0].model_copy(
        update={"price": 21.5, "currency": "EUR", "price_usd": to_usd(21.5, "EUR")}
    )
    change = read_follow_up("something cheaper", _session([euros])).change
    assert change is not None
    ceiling = (to_usd(21.49, "EUR"), 21.49, "EUR")
    assert (change.budget_usd, change.budget_amount, change.currency) == ceiling
    plan = apply_change(PLAN, change)
    assert (plan.budget_usd, plan.budget_amount, plan.currency) == ceiling


def test_a_whole_rupee_price_is_undercut_by_a_whole_rupee() -> None:
    rupees = PICKS[0].model_copy(update={"price": 3676.0, "currency": "INR", "price_usd": 42.64})
    kurta = PICKS[0].model_copy(update={"price": 679.0, "currency": "INR", "price_usd": 7.88})
    cheaper = read_follow_up("make it cheaper", _session([kurta])).change
    assert cheaper is not None
    assert cheaper.budget_usd == to_usd(678, "INR"), "the ceiling's own dollars, not the pick's"
    follow_up = read_follow_up("something cheaper", _session([rupees]))
    change = follow_up.change
    assert change is not None
    assert (change.budget_amount, change.currency) == (3675, "INR")
    assert change.budget_usd == round(3675 * usd_rates()["INR"], 2)
    assert follow_up.note == "read 'cheaper' as under INR 3,675, below the last first pick"
    pricier = read_follow_up("something more expensive", _session([rupees])).change
    assert pricier is not None
    assert pricier.floor_usd == round(3677 * usd_rates()["INR"], 2)


def test_the_change_is_made_again_when_the_messages_are_replayed() -> None:
    """A replay of the kept words with their typed change gives the state the turn left."""
    messages = ["wireless earbuds under $50", "something cheaper"]
    change = read_follow_up(messages[-1], _session(PICKS)).change
    turn = apply_change(plan_from_text(messages[-1:], previous=PLAN), change)
    with counting_readings() as readings:
        replayed = read_plan(messages, previous=turn, changes=[None, change]).plan
    assert replayed == turn == read_plan(messages, changes=[None, change]).plan
    assert (turn.budget_usd, readings.count) == (23.09, 1)


def test_no_relative_price_without_a_priced_first_pick_or_beside_a_bundle() -> None:
    unpriced = [PICKS[0].model_copy(update={"price_usd": None})]
    bundle = plan_from_text(["a laptop and a mouse"])
    for session in (
        _session(unpriced),
        _session([]),
        _session(PICKS, None),
        _session(PICKS, bundle),
    ):
        follow_up = read_follow_up("something cheaper", session)
        assert (follow_up.planned, follow_up.note) == ("something cheaper", None)


@pytest.mark.parametrize(
    ("message", "skips"),
    [
        ("show me other options", True),
        ("any others?", True),
        ("more earbuds options please", True),
        ("other options in a keyboard", False),
        ("no skullcandy", False),
        # cheaper ones are others than those seen ("show me cheaper ones" had shown them again)
        ("show me cheaper ones", True),
        ("something more expensive", True),
        ("is the second one cheaper elsewhere?", False),
    ],
)
def test_other_options_skip_every_pick_shown_for_the_request(message: str, skips: bool) -> None:
    session = Session(session_id="s", plan=PLAN, picks=PICKS[:1], shown=["amazon:9"])
    expected = {"amazon:1", "amazon:9"} if skips else set()
    assert read_follow_up(message, session).shown_before == expected


@pytest.mark.parametrize(
    ("message", "asked"),
    [
        ("i like the second one, is it cheaper elsewhere?", "amazon:2"),
        ("compare prices for #1", "amazon:1"),
        ("where can i buy the last one", "amazon:2"),
        ("the second one please", "amazon:2"),
        ("ok, #1", "amazon:1"),
        ("i like the last one", "amazon:2"),
        ("i'll take the first one", "amazon:1"),
        ("tell me more about the second one", "amazon:2"),
        ("i want the second one in black", None),
        ("is the first one cheaper than a keyboard", None),
        # "it" with no pick named is the first ("is it cheaper elsewhere?" had searched again)
        ("is it cheaper elsewhere?", "amazon:1"),
        ("can i get it somewhere else?", "amazon:1"),
        ("is it cheaper?", None),
    ],
)
def test_a_price_question_points_at_one_pick(message: str, asked: str | None) -> None:
    pick = read_follow_up(message, _session(PICKS)).asked_about
    assert (pick.item_id if pick else None) == asked


@pytest.mark.parametrize(
    ("message", "asked"),
    [
        ("the second one please", "amazon:2"),
        ("is the first one cheaper elsewhere?", "amazon:1"),
        ("is the mouse cheaper elsewhere? the second one", "amazon:2"),
        ("the first one in a tablet instead", None),
    ],
)
def test_a_bundle_pick_is_asked_about_in_the_order_shown(message: str, asked: str | None) -> None:
    bundle = plan_from_text(["a laptop and a mouse"])
    pick = read_follow_up(message, _session(PICKS, bundle)).asked_about
    assert (pick.item_id if pick else None) == asked


def test_the_offer_answer_names_the_cheaper_offer_and_the_other_platforms() -> None:
    pick = PICKS[0]
    offers = [
        Offer(
            item_id="walmart:1",
            platform="walmart",
            title="E",
            price_usd=19.0,
            match_probability=0.9,
            cheapest=True,
            saving_usd=4.1,
        ),
        Offer(item_id="buy:1", platform="buy", title="E", price_usd=29.0, match_probability=0.8),
    ]
    compared = ComparedItem(
        item_id=pick.item_id,
        platform="amazon",
        title="Earbuds",
        price_usd=23.1,
        offers=offers,
        cheapest_offer_id="walmart:1",
        saving_usd=4.1,
    )
    result = PriceCompareResult(
        compared=1, with_offers=1, products=[ProductGroup(title="Earbuds", items=[compared])]
    )
    assert offers_answer(pick, result).splitlines() == [
        "[amazon:1] Earbuds is $23.10 on amazon.",
        "Cheaper on walmart: [walmart:1] at $19.00, saves $4.10.",
        "Also listed on buy [buy:1] $29.00.",
    ]
    alone = PriceCompareResult(compared=1, with_offers=0, products=[])
    assert offers_answer(pick, alone) == (
        "[amazon:1] Earbuds is $23.10 on amazon; no other platform I search lists it."
    )


@pytest.mark.parametrize(
    ("message", "planned"),
    [
        ("i want the second one in black", "i want in black"),
        ("the first one but in white", "but in white"),
        ("a number 2 pencil", "a number 2 pencil"),
    ],
)
def test_a_reference_to_a_pick_is_no_keyword(message: str, planned: str) -> None:
    assert read_follow_up(message, _session(PICKS)).planned == planned


@pytest.mark.parametrize(
    ("message", "picks", "text"),
    [
        ("a number 2 pencil", 0, "a number 2 pencil"),
        ("i want the second one in black", 0, "i want the second one in black"),
        ("i want the third one in black", 2, "i want in black"),
        ("i want the second one in black", 2, "i want in black"),
    ],
)
def test_a_pick_reference_before_any_pick_is_words_the_planner_reads_once(
    message: str, picks: int, text: str
) -> None:
    cues = follow_up_cues(message, _session(PICKS[:picks]))
    assert cues.text == text
    if not picks:  # the words read first are the words planned: no second reading
        latest = read_plan([cues.text]).latest
        assert settle_follow_up(cues, _session(PICKS[:picks]), latest).planned == text


def test_a_follow_up_is_read_through_slips_and_planned_as_written() -> None:
    english = {"those": 2_000_000, "are": 2_000_000, "too": 2_000_000, "expensive": 50_000}
    titles = ["Wireless Earbuds", "Sony Earbuds", "JBL Earbuds"]
    items = [
        Item(item_id=f"icecat:{n}", platform="icecat", title=t, source="test")
        for n, t in enumerate(titles)
    ]
    speller = Speller.from_items(items, english=english)
    without = read_follow_up("those are too expensiv", _session(PICKS))
    follow_up = read_follow_up("those are too expensiv", _session(PICKS), speller)
    assert (without.planned, without.note, without.change) == ("those are too expensiv", None, None)
    assert follow_up.planned == "those are too expensiv"
    assert follow_up.change is not None
    assert follow_up.change.budget_usd == 23.09
    assert follow_up.note is not None


def test_bigger_is_read_against_the_first_picks_screen_size() -> None:
    plan = plan_from_text(["a 4k tv under $500"])
    tvs = [
        PickView(item_id="icecat:1", title='Samsung TV 139.7 cm (55") 4K', platform="icecat",
                 price_usd=496.95, reason=""),
        PickView(item_id="icecat:2", title='Toshiba TV 165.1 cm (65") 4K', platform="icecat",
                 price_usd=409.95, reason=""),
    ]  # fmt: skip
    follow_up = read_follow_up("something bigger", _session(tvs, plan))
    assert follow_up.planned == "something bigger"
    assert follow_up.note == "read 'bigger' as at least 58 inch, above the last first pick"
    replanned = plan_from_text(["a 4k tv under $500", follow_up.planned])
    assert apply_change(replanned, follow_up.change).keywords[-1] == "at least 58 inch"
    monitors = [tvs[0].model_copy(update={"title": 'AOC monitor 54.6 cm (21.5")'})]
    follow_up = read_follow_up("something bigger", _session(monitors, plan))
    assert follow_up.note == "read 'bigger' as at least 23 inch, above the last first pick"
    assert read_follow_up("bigger than 60 inch", _session(tvs, plan)).planned == (
        "bigger than 60 inch"
    )
    unsized = [tvs[0].model_copy(update={"title": "Samsung 4K TV"})]
    assert read_follow_up("a larger one", _session(unsized, plan)).planned == "a larger one"


def test_smaller_is_read_against_the_first_picks_screen_size() -> None:
    plan = plan_from_text(["a laptop under $900"])
    laptops = [
        PickView(item_id="icecat:1", title='HP notebook 39.6 cm (15.6") 8 GB', platform="icecat",
                 price_usd=699.0, reason=""),
    ]  # fmt: skip
    follow_up = read_follow_up("something smaller", _session(laptops, plan))
    assert follow_up.planned == "something smaller"
    assert follow_up.note == "read 'smaller' as at most 14 inch, below the last first pick"
    replanned = apply_change(
        plan_from_text(["a laptop under $900", follow_up.planned]), follow_up.change
    )
    assert (replanned.keywords, replanned.budget_usd) == (("at most 14 inch",), 900)
    both = read_follow_up("smaller or bigger?", _session(laptops, plan))
    assert (both.planned, both.note) == ("smaller or bigger?", None)


@pytest.mark.parametrize(
    ("message", "title", "attributes", "size"),
    [
        ("a bigger one", "Classic Varsity Top", {"size": "Medium"}, "large"),
        ("smaller please", "Classic Varsity Top - Large", {}, "medium"),
        ("a smaller one", "Kurta", {"size": "XXS"}, None),
        ("a bigger one", "Kurta", {"size": "Red"}, None),
    ],
)
def test_bigger_or_smaller_is_read_against_the_first_picks_garment_size(
    message: str, title: str, attributes: dict[str, str], size: str | None
) -> None:
    """A pick with no screen size but a garment size steps to the next size ("a bigger one"
    after a Medium asks Large); none below the smallest, none for no size. "a smaller one"
    had been answered that Pickwise only helps with shopping."""
    plan = plan_from_text(["a varsity top, size M"])
    top = PickView(
        item_id="shop:1", title=title, platform="shop", price_usd=60.0, reason="",
        attributes=attributes,
    )  # fmt: skip
    follow_up = read_follow_up(message, _session([top], plan))
    assert (follow_up.change.size if follow_up.change else None) == size
    if size is not None:
        replanned = apply_change(
            plan_from_text(["a varsity top, size M", message]), follow_up.change
        )
        assert replanned.keywords == ("varsity", size)


@pytest.mark.parametrize(
    ("message", "count"),
    [
        ("make it 2 of them", 2),
        ("i need three please", 3),
        ("2 please", 2),
        ("ok, i'll take 4", 4),
        ("a couple of them", 2),
        ("two usb cables", None),
        ("2 cheaper ones", None),
    ],
)
def test_a_count_alone_asks_what_that_many_of_the_picks_cost(
    message: str, count: int | None
) -> None:
    follow_up = read_follow_up(message, _session(PICKS))
    assert follow_up.count == count
    assert (follow_up.planned is None) == (count is not None)


@pytest.mark.parametrize(
    ("message", "count", "pick"),
    [
        ("how much would 3 of the second one cost?", 3, "amazon:2"),
        ("i'll take two of the first one", 2, "amazon:1"),
    ],
)
def test_a_count_of_one_pick_asks_what_that_many_of_it_cost(
    message: str, count: int, pick: str
) -> None:
    """ "3 of the second one" had been answered with one pick's price, the count dropped."""
    follow_up = read_follow_up(message, _session(PICKS))
    assert (follow_up.count, [p.item_id for p in follow_up.count_picks]) == (count, [pick])
    answer = count_answer(list(follow_up.count_picks), count)
    assert answer.startswith(f"What {count} cost:")
    assert answer.count("[amazon:") == 1


def test_a_count_without_picks_is_planned_as_written() -> None:
    assert read_follow_up("make it 2", _session([])).planned == "make it 2"


@pytest.mark.parametrize(
    ("message", "question", "count"),
    [
        ("which one is best?", "best", None),
        ("what do you recommend?", "best", None),
        ("which should i buy", "best", None),
        ("compare the first two", "compare", 2),
        ("compare them", "compare", None),
        ("what's the difference between them?", "compare", None),
        ("what's the difference between the first two?", "compare", 2),
        ("how do they compare?", "compare", None),
        ("which one has the most ram?", "most", None),
        ("which of the two has more storage", "most", 2),
        ("which one has the biggest screen?", "most", None),
        ("which one is the cheapest?", "cheapest", None),
        ("what's the least expensive one", "cheapest", None),
        ("which of the two costs more?", "priciest", 2),
        ("which one is cheaper elsewhere?", None, None),
        ("which keyboard is best?", None, None),
        ("the best wireless earbuds", None, None),
    ],
)
def test_a_question_about_the_picks_is_answered_from_them(
    message: str, question: str | None, count: int | None
) -> None:
    follow_up = read_follow_up(message, _session(PICKS))
    assert (follow_up.question, follow_up.question_picks) == (question, count)
    assert (follow_up.planned is None) == (question is not None)


def test_the_most_answer_names_the_pick_stating_the_most_of_the_part() -> None:
    titles = ["HP notebook 8 GB DDR4-SDRAM 256 GB SSD", "Dell notebook 16 GB DDR4-SDRAM 1 TB HDD"]
    picks = [p.model_copy(update={"title": t}) for p, t in zip(PICKS, titles, strict=True)]
    ram = most_answer("ram", picks)
    assert ram.startswith("[amazon:2] Dell notebook 16 GB DDR4-SDRAM 1 TB HDD states the most ram")
    assert "- [amazon:1] HP notebook 8 GB DDR4-SDRAM 256 GB SSD: 8 GB." in ram
    assert most_answer("storage", picks).startswith("[amazon:2] Dell notebook 16 GB DDR4-SDRAM")
    assert most_answer("ram", PICKS).startswith("None of my picks' titles states its ram")
    monitors = [p.model_copy(update={"title": f'{p.item_id} monitor 68.6 cm (27")'}) for p in PICKS]
    assert most_answer("screen", monitors) == "My picks all state the same screen: 27 inch."
    monitors[1] = monitors[1].model_copy(update={"title": 'AOC monitor 80 cm (31.5")'})
    assert most_answer("screen", monitors).startswith(
        '[amazon:2] AOC monitor 80 cm (31.5") states the largest screen: 31.5 inch'
    )


def test_the_price_rank_answer_orders_the_picks_by_their_listed_price() -> None:
    dear = PICKS[0].model_copy(update={"price_usd": 40.0})
    rupees = PICKS[1].model_copy(update={"price": 999.0, "currency": "INR"})
    unpriced = PICKS[1].model_copy(update={"item_id": "amazon:3", "price_usd": None})
    cheapest = price_rank_answer([dear, rupees, unpriced], cheapest=True).splitlines()
    assert cheapest[0] == "[amazon:2] Earbuds costs least: INR 999 ≈ $1.98 (amazon)."
    assert cheapest[1:] == [
        "- [amazon:1] Earbuds: $40.00.",
        "- [amazon:3] Earbuds: no listed price.",
    ]
    priciest = price_rank_answer([rupees, dear], cheapest=False)
    assert priciest.startswith("[amazon:1] Earbuds costs most: $40.00")
    assert price_rank_answer([rupees, rupees], cheapest=True).startswith(
        "My picks all cost the same"
    )
    assert price_rank_answer([unpriced], cheapest=True).startswith("None of my picks lists a price")


def test_a_question_about_one_pick_is_planned_as_written() -> None:
    one = _session(PICKS[:1])
    assert read_follow_up("which one is best?", one).planned == "which one is best?"


def test_the_best_answer_cites_the_first_pick_and_a_cheaper_one() -> None:
    dear = PICKS[0].model_copy(update={"price_usd": 40.0, "reason": "has wireless; $40.00"})
    cheap = PICKS[1].model_copy(update={"reason": "$1.98"})
    answer = best_answer([dear, cheap])
    assert answer.startswith("[amazon:1] Earbuds fits your request best (amazon): has wireless")
    assert "[amazon:2] Earbuds costs less (amazon): $1.98." in answer
    assert answer.count("$40.00") == 1, "the reason states the price once"
    assert best_answer(PICKS[::-1]).count("[") == 1


def test_the_comparison_lists_each_pick_and_the_cheapest() -> None:
    answer = compare_answer(PICKS)
    assert [line[:12] for line in answer.splitlines()[1:3]] == ["- [amazon:1]", "- [amazon:2]"]
    assert answer.endswith("[amazon:2] costs least.")


@pytest.mark.parametrize(
    ("message", "trait", "picks"),
    [
        ("is it wireless?", "wireless", ["amazon:1", "amazon:2"]),
        ("are they waterproof", "waterproof", ["amazon:1", "amazon:2"]),
        ("does the second one have bluetooth?", "bluetooth", ["amazon:2"]),
        ("does the first one come with a case?", "case", ["amazon:1"]),
        ("and do they support usb c?", "usb c", ["amazon:1", "amazon:2"]),
        ("what about the second one, does it have ethernet?", "ethernet", ["amazon:2"]),
        ("the first one, is it waterproof?", "waterproof", ["amazon:1"]),
        ("is the first one in stock?", "in stock", ["amazon:1"]),
        ("are they still available?", "still available", ["amazon:1", "amazon:2"]),
    ],
)
def test_a_yes_or_no_question_asks_a_trait_of_the_picks(
    message: str, trait: str, picks: list[str]
) -> None:
    follow_up = read_follow_up(message, _session(PICKS))
    assert follow_up.planned is None
    assert follow_up.trait == trait
    assert [p.item_id for p in follow_up.trait_picks] == picks


@pytest.mark.parametrize(
    "message",
    [
        "is it cheaper?",
        "is it good?",
        "do they have a red one?",
        "is the third one wireless?",
        "what about the third one, is it wireless?",
        "is the price right?",
        "is the mouse wireless?",
    ],
)
def test_price_size_other_picks_and_vague_words_are_no_trait_question(message: str) -> None:
    follow_up = read_follow_up(message, _session(PICKS))
    assert follow_up.trait is None


def test_a_trait_asked_of_the_product_a_title_names_is_asked_of_those_picks() -> None:
    """ "is the mouse wireless?" after a keyboard and a mouse had searched again."""
    titles = ["Targus keyboard", "Microsoft Arc Touch Mouse"]
    picks = [p.model_copy(update={"title": t}) for p, t in zip(PICKS, titles, strict=True)]
    for message, asked in [
        ("is the mouse wireless?", ["amazon:2"]),
        ("are the keyboards quiet?", ["amazon:1"]),
    ]:
        follow_up = read_follow_up(message, _session(picks))
        assert [p.item_id for p in follow_up.trait_picks] == asked, message
    assert read_follow_up("are the earbuds waterproof?", _session(PICKS)).trait == "waterproof"


def test_without_picks_a_trait_question_is_planned_as_written() -> None:
    assert read_follow_up("is it wireless?", _session([])).planned == "is it wireless?"


def test_the_trait_answer_says_where_each_listing_states_it() -> None:
    titled = Item(item_id="amazon:1", platform="amazon", title="Wireless Earbuds", source="test")
    sheet = Item(
        item_id="icecat:2",
        platform="icecat",
        title="Earbuds E2",
        source="test",
        features=("Bluetooth", "Wireless"),
    )
    plain = Item(item_id="amazon:3", platform="amazon", title="Earbuds", source="test")
    views = [
        PickView(item_id=i.item_id, title=i.title, platform=i.platform, price_usd=None, reason="")
        for i in (titled, sheet, plain)
    ]
    answer = trait_answer("wireless", list(zip(views, (titled, sheet, plain), strict=True)))
    lines = answer.splitlines()
    assert lines[0] == "Whether my picks say wireless:"
    assert lines[1] == "- [amazon:1] Wireless Earbuds: says wireless."
    assert lines[2] == "- [icecat:2] Earbuds E2: its spec sheet lists wireless."
    assert lines[3] == "- [amazon:3] Earbuds: does not say wireless."
    assert lines[4].startswith("What a listing does not say it may still have")
    one = trait_answer("wireless", [(views[0], titled)])
    assert one == "[amazon:1] Wireless Earbuds: says wireless."


def test_a_stock_question_is_answered_from_each_listings_stock() -> None:
    listed = [
        Item(item_id=f"shop:{n}", platform="shop", title=f"Candle {n}", source="t", availability=a)
        for n, a in enumerate(("in_stock", "out_of_stock", "unknown"))
    ]
    views = [
        PickView(item_id=i.item_id, title=i.title, platform=i.platform, price_usd=None, reason="")
        for i in listed
    ]
    answer = trait_answer("in stock", list(zip(views, listed, strict=True)))
    assert answer.splitlines() == [
        "Whether my picks are in stock:",
        "- [shop:0] Candle 0: in stock.",
        "- [shop:1] Candle 1: out of stock.",
        "- [shop:2] Candle 2: the shop does not say whether it is in stock.",
    ]
    gone = trait_answer("sold out", [(views[1], None)])
    assert gone == "[shop:1] Candle 1: the shop does not say whether it is in stock."


NOTEBOOK = 'Acer TravelMate Notebook 29.5 cm (11.6") Intel Celeron 4 GB DDR4-SDRAM 128 GB SSD'


@pytest.mark.parametrize(
    ("message", "part", "musts"),
    [
        ("something with more ram", "over 4gb ram", ("over 4gb ram",)),
        ("one with more memory please", "over 4gb memory", ("over 4gb memory",)),
        ("i need more storage", "over 128gb storage", ()),
        ("something with more ram, at least 16gb", None, None),
        ("what about more ram", "over 4gb ram", ()),
    ],
)
def test_more_memory_or_storage_is_read_against_the_first_pick(
    message: str, part: str | None, musts: tuple[str, ...] | None
) -> None:
    laptop = plan_from_text(["a laptop under $700"])
    pick = PICKS[0].model_copy(update={"title": NOTEBOOK})
    follow_up = read_follow_up(message, _session([pick], laptop))
    assert follow_up.planned == message
    assert (follow_up.change.part if follow_up.change else None) == part
    assert (follow_up.note is None) == (part is None)
    if musts is not None:
        replanned = apply_change(plan_from_text([message], previous=laptop), follow_up.change)
        assert replanned.must_have == musts
        assert part in (*replanned.must_have, *replanned.keywords)
        assert replanned.category == "laptop"  # "more ram" had planned the product ram


def test_more_ram_beside_a_title_without_an_amount_is_planned_as_written() -> None:
    laptop = plan_from_text(["a laptop under $700"])
    follow_up = read_follow_up("something with more ram", _session(PICKS, laptop))
    assert follow_up.planned == "something with more ram"
