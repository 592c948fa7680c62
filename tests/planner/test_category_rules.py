"""Category, keywords and is_shopping: the product named, the words left, and small talk."""

from __future__ import annotations

import pytest

from app.errors import InvalidRequest
from app.tools.plan._lexicon_rules import beside_product
from app.tools.plan._text_rules import normalize
from app.tools.plan.catalog_words import CatalogVocabulary, catalog_vocabulary
from app.tools.plan.planner_rules import plan_from_text


def category_and_keywords(text: str) -> tuple[str | None, tuple[str, ...]]:
    plan = plan_from_text([text])
    return plan.category, plan.keywords


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("a quiet gaming keyboard under $80", "gaming keyboard"),
        ("i want a noise cancelling cosycost usb microphone", "usb microphone"),
        ("i need a long clip-in hair extension which is natural looking", "hair extension"),
        ("a pack of chips", "chips"),
        ("a pair of running shoes", "running shoes"),
        ("a sleeping bag for camping", "sleeping bag"),
        ("a bottle of shampoo", "shampoo"),
        ("a water bottle", "water bottle"),
        ("a bicycle carrier", "bicycle carrier"),
        ("a mobile workstation with 32gb ram", "workstation"),
        ("i need a light weight laptop", "laptop"),
        ("usb flash drive 64gb", "usb flash drive"),
        ("an external hard drive 2tb", "external hard drive"),
        ("an external monitor for my macbook", "monitor"),
        ("a wireless external keyboard", "keyboard"),
        ("top quality shampoo", "shampoo"),
        ("a tank top for women", "tank top"),
        ("a grey laptop case that is water resistant", "laptop case"),
        ("i want to find a frobnicator for my desk", "frobnicator"),
        ("i want a remote for my tv", "remote"),
        ("laptop 16gb ram", "laptop"),
        ("gaming laptop 1tb ssd under 900", "gaming laptop"),
        ("16gb ram", "ram"),
        ("iphone 12 case", "case"),
        ("a vacuum cleaner for pet hair", "vacuum cleaner"),
        # an ambiguous head ends its phrase before the size said after it
        ("a black top size small", "top"),
        ("a memory card 64gb", "memory card"),
        ("a micro sd card 128gb", "micro sd card"),
        ("an sd card reader", "sd card reader"),
        ("a graphics card", "graphics card"),
        ("a printer ink cartridge for hp", "printer ink cartridge"),
        ("a toner cartridge for my brother printer", "toner cartridge"),
        ("black ink cartridges under $30", "ink cartridges"),
        ("a face toner for oily skin", "face toner"),
        ("a printer under $100", "printer"),
        ("a smart watch under $150", "smartwatch"),
        ("smart watches for kids", "smartwatches"),
        ("cheap smart phones", "smartphones"),
        ("wireless head phones", "headphones"),
        ("a gaming lap top", "gaming laptop"),
        ("a watch", "watch"),
        ("a mouse pad", "mouse pad"),
        ("a monitor riser for my desk", "monitor riser"),
        ("a thumb drive under $20", "thumb drive"),
        ("a dual monitor arm under $100", "monitor arm"),
        ("a laptop cooling pad", "laptop cooling pad"),
        ("i need 16.5 inch dining room chair pads", "chair pads"),
        ("an all-in-one pc under $1000", "all-in-one pc"),
        ("a surge protector", "surge protector"),
        ("a nas for home backups", "nas"),
        ("a Network Attached Storage for home backups", "nas"),
        ("a 2tb hard disk drive", "hdd"),
        ("a solid state drive under $150", "ssd"),
        ("a docking station for two monitors", "docking station"),
        ("a charging station for my phones", "charging station"),
        ("a ups for my pc under $150", "ups"),
        ("an Uninterruptible Power Supply", "ups"),
        ("a ups battery backup for my computer", "ups battery backup"),
        ("a battery backup for my router", "battery backup"),
        ("a backup battery for my phone", "battery"),
        ("an apc ups 1500va", "ups"),
        ("i want suckers & lollipops of spiderman pop ups flavor", "suckers"),
        ("a portable charger for my iphone", "portable charger"),
        ("a wireless presenter for powerpoint", "presenter"),
        ("a wifi range extender", "wifi range extender"),
        ("aluminum alloy ball head, camera tripod ball head", "ball head"),
        ("a high speed plug and play external optical drive with usb", "external optical drive"),
        ("dual band and quad core smart streaming media tv box", "media tv box"),
        ("a high power soundbar", "soundbar"),
        ("a wifi extender for my backyard", "wifi extender"),
        ("a wireless charging pad for iphone and airpods", "charger"),
        ("an fm transmitter for my car", "transmitter"),
        ("high powered binoculars", "binoculars"),
        ("a ceramic planter for herbs", "planter"),
        ("a waterproof rucksack for hiking", "rucksack"),
        ("a wool jumper for winter", "jumper"),
        ("two cushions for the sofa", "cushions"),
    ],
)
def test_category_is_the_head_product_phrase(text: str, category: str) -> None:
    assert plan_from_text([text]).category == category


@pytest.mark.parametrize(
    ("text", "category", "keywords"),
    [
        ("a 2 in 1 laptop", "laptop", ("2-in-1",)),
        ("a 3 in 1 charger", "charger", ("3-in-1",)),
        ("a monitor arm for two monitors", "monitor arm", ("dual", "monitors")),
        ("a docking station for 3 screens", "docking station", ("triple", "screens")),
        ("a desk for two kids", "desk", ("two", "kids")),
    ],
)
def test_catalog_words_for_counts(text: str, category: str, keywords: tuple[str, ...]) -> None:
    """ "2 in 1" is the one word catalogs write; a count of screens is their setup's name."""
    assert category_and_keywords(text) == (category, keywords)


def test_split_compounds_are_joined_as_catalogs_write_them() -> None:
    assert normalize("a 2 in 1 laptop, Built In speakers") == "a 2-in-1 laptop, Built-In speakers"
    assert normalize("plug and play, dual band") == "plug-and-play, dual-band"
    assert normalize("plug play, plug & play") == "plug-play, plug-&-play"
    assert (
        normalize("over ear or on ear, a blu ray player") == "over-ear or on-ear, a blu-ray player"
    )
    assert (
        normalize("a flat screen tv; smart tv flat screen")
        == "a flat-screen tv; smart tv flat-screen"
    )
    assert normalize("a high power soundbar, low powered") == "a high-power soundbar, low-powered"
    kept = (
        "hdmi splitter 1 in 2 out, 4 in 3.5 oz, a flat screen for my projector, "
        "a high power bank, a high power supply"
    )
    assert normalize(kept) == kept


@pytest.mark.parametrize(
    ("text", "category", "keywords"),
    [
        # "over" and "in" are function words: split, the form was lost ("ear")
        ("im looking for a over ear bluetooth headphones", "bluetooth headphones", ("over-ear",)),
        ("in ear headphones", "headphones", ("in-ear",)),
        # a hand, split, was two keywords no title states together ("Left-hand")
        ("a left handed mouse", "mouse", ("left-handed",)),
        ("a mouse for a right handed person", "mouse", ("right-handed",)),
        ("smart tv flat screen stereo sound", "tv", ("smart", "flat-screen", "stereo", "sound")),
        # a counted unit is no modifier of the product ("foot hdmi cables")
        ("3 foot hdmi cables", "hdmi cables", ("3 foot",)),
        ("a five pack of three foot hdmi cables", "hdmi cables", ("5 pack", "3 foot")),
        ("a pack of three hdmi cables", "hdmi cables", ("3 pack",)),
        ("pack of 2 aa batteries", "batteries", ("2 pack", "aa")),
        ("a pack of cards", "cards", ("pack",)),
        ("a desktop pc that is a core i5 and has 8gb of ram", "desktop pc", ("core-i5", "8gb ram")),
        (
            "a desktop computer thats got an intel i5 core, 32 gigabytes of ram, and a one "
            "terabyte ssd",
            "desktop computer",
            ("core-i5", "32 gigabytes ram", "1 terabyte ssd"),
        ),
        ("one pound of organic walnuts", "walnuts", ("1 pound", "organic")),
        ("10 pounds of chocolate covered nuts", "nuts", ("10 pounds", "chocolate", "covered")),
        ("a cell phone signal booster for 4g lte", "phone signal booster", ("cell", "4g", "lte")),
        ("a power inverter with usb for my car", "power inverter", ("car",)),
        ("twenty-four inch hair extensions", "hair extensions", ("24 inch",)),
        ("get me some twenty four inch curtains", "curtains", ("24 inch",)),
        ("a one hundred foot hdmi cable", "hdmi cable", ("100 foot",)),
        ("i need two one hundred foot hdmi cables", "hdmi cables", ("100 foot",)),
        ("three hundred feet of cable", "cable", ("300 feet",)),
        ("a fifteen foot hdmi cable", "hdmi cable", ("15 foot",)),
        ("i am looking for10th gen laptop", "laptop", ("10th gen",)),
        ("a seventy five inch tv", "tv", ("75 inch",)),
        ("an eighty inch tv", "tv", ("80 inch",)),
        ("i wanna find a fourteen inch laptop", "laptop", ("14 inch",)),
        ("eighteen hair extensions", "hair extensions", ("eighteen",)),
        (
            "three pack of one point seventy-six ounce seasonings",
            "seasonings",
            ("3 pack", "point", "seventy-six", "ounce"),
        ),
        (
            "a high speed coaxial cable that is 5 feet long",
            "coaxial cable",
            ("high", "speed", "5 feet"),
        ),
        ("a wifi ip surveillance camera", "ip surveillance camera", ("wifi",)),
        ("a dash cam", "dash cam", ()),
        ("a high performance dslr camera lenses", "dslr camera lenses", ("high", "performance")),
        ("2 pcs of sensitive toothpaste", "toothpaste", ("2 pcs", "sensitive")),
        # players and watch bands are products
        ("a blu ray player", "blu-ray player", ()),
        ("find me a hdmi media players with aaa batteries", "hdmi media players", ()),
        (
            "stainless steel watch bands for my smart watch",
            "watch bands",
            ("stainless", "steel", "smart", "watch"),
        ),
    ],
)
def test_forms_counts_and_names_shoppers_split(
    text: str, category: str, keywords: tuple[str, ...]
) -> None:
    assert category_and_keywords(text) == (category, keywords)


@pytest.mark.parametrize(
    ("text", "category", "keywords"),
    [
        ("something to charge my phone in the car", "charger", ("phone", "car")),
        ("i want something for charging my laptop", "charger", ("laptop",)),
        ("i need something to print photos at home", "printer", ("photos", "home")),
        ("something to connect my laptop to my tv", "cable", ("laptop", "tv")),
        ("i need something to hook up my ps4 to a monitor", "cable", ("ps4", "monitor")),
        ("something to cool my laptop", "cooler", ("laptop",)),
        ("something to clean my screen", "cleaner", ("screen",)),
        ("something to carry my laptop in", "bag", ("laptop",)),
        ("something to hold my phone in the car", "holder", ("phone", "car")),
        ("something to mount my tv on the wall", "mount", ("tv", "wall")),
        ("i want something to listen to music while running", "headphones", ("music", "running")),
        ("something to record podcasts", "microphone", ("podcasts",)),
        ("a way to charge my phone", "charger", ("phone",)),
        # a product named first is what is asked: the purpose is a search word
        ("a laptop and something to charge it", "laptop", ("charge",)),
        ("a phone charger for the car", "phone charger", ("car",)),
    ],
)
def test_a_request_by_purpose_asks_for_the_tool(
    text: str, category: str, keywords: tuple[str, ...]
) -> None:
    assert category_and_keywords(text) == (category, keywords)


@pytest.mark.parametrize(
    ("text", "category", "keywords"),
    [
        ("a power strip with usb ports", "power strip", ()),
        ("a usb power strip", "usb power strip", ()),
        ("an led strip for my desk", "led strip", ("desk",)),
        ("bacon strips", "bacon", ("strips",)),
        ("a mini pc for the living room", "mini pc", ()),
        ("a mini bluetooth speaker", "bluetooth speaker", ("mini",)),
        ("a replacement tv remote control", "tv remote control", ("replacement",)),
        ("a remote control for my tv", "remote control", ("tv",)),
    ],
)
def test_two_word_names_head_only_together(
    text: str, category: str, keywords: tuple[str, ...]
) -> None:
    assert category_and_keywords(text) == (category, keywords)


@pytest.mark.parametrize(
    ("text", "category", "keywords"),
    [
        (
            "hp slim tower desktop pc intel j4025 processor",
            "desktop pc",
            ("hp", "slim", "tower", "intel", "processor"),
        ),
        ("an intel i7 processor", "processor", ("core-i7",)),
        ("high speed hdmi male to male cables", "hdmi cables", ("high", "speed", "male-to-male")),
        ("a male to female hdmi cable", "hdmi cable", ("male-to-female",)),
        (
            "two one hundred foot male to male hdmi cables",
            "hdmi cables",
            ("100 foot", "male-to-male"),
        ),
        ("two packs of hdmi cables", "hdmi cables", ("2 packs",)),
        ("a charger for triple a batteries", "charger", ("aaa", "batteries")),
        ("a laptop 16 gb ram", "laptop", ("16 gb ram",)),
        ("an 8 gb ram mini computer", "mini computer", ("8 gb ram",)),
        ("a 32gb ram kit", "ram kit", ("32gb",)),
        ("a 16 gb ram stick", "ram stick", ("16 gb",)),
        ("a 64gb memory card", "memory card", ("64gb",)),
        ("a 2tb hdd enclosure", "hdd enclosure", ("2tb",)),
        ("a privacy filter for a 14 inch laptop", "privacy filter", ("14 inch", "laptop")),
        ("a 512gb ssd gaming laptop", "gaming laptop", ("512gb ssd",)),
        ("a hidden camera 32 gb memory recorder", "hidden camera", ("32 gb memory", "recorder")),
        ("a black pepper 3 ounce bag of jerky", "jerky", ("black", "pepper", "3 ounce", "bag")),
        ("a 3.5 ounce size toothpaste", "toothpaste", ("3.5 ounce",)),
    ],
)
def test_parts_and_descriptions_inside_a_name_leave_the_product(
    text: str, category: str, keywords: tuple[str, ...]
) -> None:
    """A processor after a machine is its part, a connector's genders describe the cable."""
    assert category_and_keywords(text) == (category, keywords)


@pytest.mark.parametrize(
    ("text", "keywords"),
    [
        ("8gb ddr4 memory for a laptop", ("8gb", "ddr4", "laptop")),
        ("a 512gb samsung galaxy tablet", ("512gb", "samsung", "galaxy")),
        ("2tb ssd for a ps5", ("2tb", "ps5")),
        ("a 4 ounce lotion", ("4 ounce",)),
        ("a 3rd generation ipad", ("3rd generation",)),
        ("an hp laptop 1tb ssd", ("hp", "1tb ssd")),
        ("a gaming pc, 16 gb ram, 1 tb nvme ssd", ("16 gb ram", "1 tb nvme ssd")),
    ],
)
def test_a_number_keeps_only_the_word_it_measures(text: str, keywords: tuple[str, ...]) -> None:
    assert plan_from_text([text]).keywords == keywords


def test_keywords_are_the_unclaimed_content_words() -> None:
    plan = plan_from_text(
        ["i need a quiet wireless gaming keyboard with rgb under $80, not logitech"]
    )
    assert plan.category == "gaming keyboard"
    assert plan.keywords == ("quiet", "wireless")
    assert plan.must_have == ("rgb",)
    assert plan.query_text() == "gaming keyboard quiet wireless rgb"


@pytest.mark.parametrize(
    ("text", "keywords", "excluded"),
    [
        ("a charger that works with my iphone", ("iphone",), ()),
        ("wine that goes with steak", ("steak",), ()),
        ("a laptop bag that fits a 15.6 inch laptop", ("15.6 inch", "laptop"), ()),
        # the verb of a clause after a negated maker is neither listed nor searched
        ("a phone charger that isn't from apple and works with usb c", ("usb-c",), ("apple",)),
    ],
)
def test_the_verb_before_with_is_no_keyword(
    text: str, keywords: tuple[str, ...], excluded: tuple[str, ...]
) -> None:
    plan = plan_from_text([text])
    assert (plan.keywords, tuple(e.term for e in plan.exclude)) == (keywords, excluded)


@pytest.mark.parametrize(
    ("text", "keywords"),
    [("a varsity top, size M", ("varsity", "medium")), ("a t-shirt size: l", ("large",))],
)
def test_a_size_letter_is_searched_as_its_word(text: str, keywords: tuple[str, ...]) -> None:
    """A lone letter is no keyword, so "size M" had left no size for the picker to hold."""
    assert plan_from_text([text]).keywords == keywords


@pytest.mark.parametrize(
    ("text", "keywords"),
    [('a 65" oled tv', ("65 inch", "oled")), ("a 15.6'' laptop sleeve", ("15.6 inch",))],
)
def test_an_inch_mark_is_the_unit_inch(text: str, keywords: tuple[str, ...]) -> None:
    """'a 65" oled tv' had planned the bare keyword "65", which any title's 65 says."""
    assert plan_from_text([text]).keywords == keywords


def test_numbers_keep_their_unit() -> None:
    plan = plan_from_text(["i need gluten free smoked bacon - 4 ounce (pack of 2), size 7"])
    assert "4 ounce" in plan.keywords
    assert "size 7" in plan.keywords


@pytest.mark.parametrize(
    ("text", "keywords"),
    [
        ("a 27 inch monitor 1440p or 4k", ("27 inch", "1440p or 4k")),
        ("a tv 720p or 1080p or 4k", ("720p or 1080p or 4k",)),
        ("a 27 inch or 32 inch monitor", ("27 inch or 32 inch",)),
        ("a 27 inch monitor or 1440p", ("27 inch", "1440p")),
    ],
)
def test_amounts_of_one_measure_joined_by_or_are_one_keyword(
    text: str, keywords: tuple[str, ...]
) -> None:
    assert plan_from_text([text]).keywords == keywords


@pytest.mark.parametrize(
    ("text", "keywords"),
    [
        ("hdmi cables that are 10 feet long", ("10 feet",)),
        ("a high speed usb cable 1m long", ("high", "speed", "1m")),
        ("a usb cable 2 m in length", ("2 m",)),
        ("a long hdmi cable", ("long",)),
        ("a 1t ssd", ("1tb",)),
        ("a 240g ssd", ("240gb",)),
    ],
)
def test_a_length_said_again_as_long_is_one_keyword(text: str, keywords: tuple[str, ...]) -> None:
    assert plan_from_text([text]).keywords == keywords


@pytest.mark.parametrize(
    ("text", "keywords"),
    [
        ("a monitor under 24 inches", ("under 24 inches",)),
        ("a monitor less than 24 inch", ("under 24 inch",)),
        ("a laptop no bigger than 13 inch", ("at most 13 inch",)),
        ("a laptop 14 inch or smaller", ("at most 14 inch",)),
        ("a hdmi cable no longer than 3 ft", ("at most 3 ft",)),
        ("a 27 inch monitor under $300", ("27 inch",)),
        ("a tv over 50 inch", ("over 50 inch",)),
        ("a tv bigger than 50 inch", ("over 50 inch",)),
        ("over ear headphones", ("over-ear",)),
        # a range is both bounds: the lower end takes the upper one's unit
        ("a tv between 40 and 50 inches", ("at least 40 inches", "at most 50 inches")),
        ("a cable 6 to 10 feet long", ("at least 6 feet", "at most 10 feet")),
        ('a tv 40-50"', ("at least 40 inch", "at most 50 inch")),
        ("earbuds, at least 8 hours battery life", ("at least 8 hours", "battery", "life")),
        # a minimum said after the product the amount sizes
        ("a 2tb ssd or bigger", ("at least 2tb",)),
        ("a 55 inch tv or larger", ("at least 55 inch",)),
    ],
)
def test_an_asked_bound_is_one_keyword_with_its_cue(text: str, keywords: tuple[str, ...]) -> None:
    assert plan_from_text([text]).keywords == keywords


def test_a_number_with_thousands_commas_keeps_its_unit() -> None:
    plan = plan_from_text(["a power bank 20,000 mah under $1,200"])
    assert (plan.category, plan.keywords, plan.budget_usd) == ("power bank", ("20,000 mah",), 1200)


@pytest.mark.parametrize(
    ("text", "category", "keywords"),
    [
        ("a usb c cable under $15", "cable", ("usb-c",)),
        ("usb type-c charger", "charger", ("usb-c",)),
        ("a usb type c to hdmi adapter", "hdmi adapter", ("usb-c",)),
        ("type c cable for my phone", "cable", ("usb-c", "phone")),
        ("a cat 6 ethernet cable", "ethernet cable", ("cat6",)),
        ("cat.5e cable 50 ft", "cable", ("cat5e", "50 ft")),
        ("a usb cable", "usb cable", ()),
        ("a cat toy", "cat toy", ()),
        ("usb 3.0 flash drive 64gb", "flash drive", ("usb-3.0", "64gb")),
        ("a usb 3.0 external hard drive", "external hard drive", ("usb-3.0",)),
        ("a usb 3.2 gen 1 hub", "hub", ("usb-3.0",)),
        ("a usb 3.1 hub", "hub", ("usb 3.1",)),
        ("a wifi 6 router", "router", ("wifi6",)),
        ("a thunderbolt 3 dock", "dock", ("thunderbolt 3",)),
        ("bluetooth 5.0 headphones", "headphones", ("bluetooth 5.0",)),
        ("an i5 laptop", "laptop", ("core-i5",)),
        ("laptop core i7-1165g7", "laptop", ("core-i7 1165g7",)),
        ("ryzen 5 3600 gaming pc", "gaming pc", ("ryzen-5 3600",)),
        ("core i7 2020 laptop", "laptop", ("core-i7", "2020")),
    ],
)
def test_a_standard_is_one_keyword_however_it_is_spelled(
    text: str, category: str, keywords: tuple[str, ...]
) -> None:
    assert category_and_keywords(text) == (category, keywords)


@pytest.mark.parametrize(
    "text",
    [
        "hi",
        "hello there!",
        "thanks a lot",
        "what's the weather in Paris?",
        "tell me a joke",
        "how are you?",
        "ok",
        "good morning",
    ],
)
def test_small_talk_is_not_shopping(text: str) -> None:
    plan = plan_from_text([text])
    assert plan.is_shopping is False
    assert plan.category is None


@pytest.mark.parametrize(
    "text",
    [
        "something for my dad",
        "how much is the cheapest one?",
        "hi, i need a keyboard",
        "what's a good gift for my mom?",
        "is there a blue one?",
        "any brand but apple",
    ],
)
def test_anything_plausibly_shopping_stays_shopping(text: str) -> None:
    assert plan_from_text([text]).is_shopping is True


def test_small_talk_inside_a_shopping_session_keeps_the_plan() -> None:
    plan = plan_from_text(["a keyboard under $80, not logitech", "thanks!"])
    assert plan.is_shopping is True
    assert plan.category == "keyboard"
    assert plan.exclude_terms == ("logitech",)


def test_empty_input() -> None:
    assert plan_from_text([]).is_shopping is False
    assert plan_from_text([""]).is_shopping is False
    assert plan_from_text("a red lamp").category == "lamp"


def test_messages_must_be_strings() -> None:
    with pytest.raises(InvalidRequest):
        plan_from_text(["a lamp", 42])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("text", "query"),
    [
        # no product named: the wishes are searched beside the words ("No pick for 'cozy'")
        ("something cozy for the living room", "cozy living room"),
        ("something for the kitchen", ""),  # nothing to search: asked what to look for
        ("a cozy sofa for the living room", "sofa cozy"),
    ],
)
def test_with_no_product_the_wishes_are_searched_beside_the_words(text: str, query: str) -> None:
    assert plan_from_text([text]).query_text() == query


@pytest.mark.parametrize(
    ("text", "query"),
    [
        ("a laptop with 16gb ram under $1000", "laptop notebook 16gb"),
        ("a phone with 128gb storage", "phone 128gb"),
        ("a laptop with 1tb ssd", "laptop notebook 1tb ssd"),
        ("gaming laptops", "gaming laptops notebooks"),
        ("a laptop sleeve", "laptop sleeve"),
        ("16gb ram", "ram 16gb"),
        ("a laptop with 16gb or more ram", "laptop notebook 16gb"),
        ("a 24 inch or larger monitor", "monitor 24 inch"),
        ("a laptop under $700. make it at least 8gb ram", "laptop notebook 8gb"),
        ("a tablet ram 2gb rom 16gb", "tablet 2gb 16gb"),
        ("tablet 10 inch ram 4gb storage 64gb", "tablet 10 inch 4gb 64gb"),
        ("laptop ram 16gb", "laptop ram 16gb"),
        ("a pc with 8gb ram 128gb ssd", "pc 8gb 128gb ssd"),
        ("a mechanical keyboard with brown switches", "keyboard mechanical"),
    ],
)
def test_the_query_names_a_part_by_size_and_a_laptop_as_catalogs_do(text: str, query: str) -> None:
    assert plan_from_text([text]).query_text() == query


@pytest.mark.parametrize(
    ("term", "category", "said"),
    [
        ("16gb ram", "laptop", "16gb"),
        ("32gb rom", "tablet", "32gb"),
        ("128gb storage", "phone", "128gb"),
        ("1tb ssd", "laptop", "1tb ssd"),
        ("16gb ram", "ram", "16gb ram"),
        ("backlit keyboard", "laptop", "backlit"),
        ("backlit keyboard", "keyboard", "backlit keyboard"),
        ("gaming laptop", None, "gaming laptop"),
        ("noise cancelling", "headphones", "noise cancelling"),
        ("at least 16gb ram", "laptop", "16gb"),
        ("at most 14 inch", "laptop", "14 inch"),
        ("over 16gb ram", "laptop", "16gb"),
        ("ram 2gb", "tablet", "2gb"),
        ("dual camera", "phone", "dual camera"),
        ("rom 16gb", "tablet", "16gb"),
        ("under desk", None, "under desk"),
        ("8gb or 16gb ram", "laptop", "8gb or 16gb"),
        ("16 gb of ram", "laptop", "16 gb"),
        ("16gb ddr4 ram", "laptop", "16gb ddr4 ram"),
        ("rtx graphics card", "gaming laptop", "rtx"),
        ("hdmi cable", "monitor", "hdmi"),
        ("usb ports", "power strip", "usb"),
        # a part's colour is no colour of the product: left out of the query
        ("brown switches", "keyboard", ""),
        ("red keyboard", "laptop", ""),
        ("red keyboard", "keyboard", "red keyboard"),
    ],
)
def test_beside_product(term: str, category: str, said: str) -> None:
    assert beside_product(term, category) == said


def test_a_bundle_slot_is_searched_as_catalogs_name_it() -> None:
    plan = plan_from_text(["a laptop and a mouse under $900"])
    assert [b.query_text() for b in plan.bundle] == ["laptop notebook", "mouse"]


@pytest.mark.parametrize(
    ("text", "keywords", "must"),
    [
        ("a camera in the color pink", ("pink",), ()),
        ("a black color wireless mouse", ("black", "wireless"), ()),
        ("a keyboard, color: black", ("black",), ()),
        ("a tripod with color: x-4i", ("x-4i",), ()),
        ("a travel bag with color green", (), ("green",)),
        ("a color laser printer", ("color",), ()),
        ("a watch with a full color display", (), ("full color display",)),
        ("a printer with color printing", (), ("color printing",)),
    ],
)
def test_color_labelling_a_colour_is_no_keyword(
    text: str, keywords: tuple[str, ...], must: tuple[str, ...]
) -> None:
    """The word color before the colour asked only labels it; before a feature it names one."""
    plan = plan_from_text([text])
    assert (plan.keywords, plan.must_have) == (keywords, must)


def test_an_artificial_color_is_an_ingredient() -> None:
    plan = plan_from_text(["a chocolate bar with no artificial color"])
    assert [e.term for e in plan.exclude] == ["artificial color"]


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("gold plated banana plugs for speaker wire", "banana plugs"),
        ("a high speed compactflash card 128gb", "compactflash card"),
        ("an sdhc card 32gb", "sdhc card"),
        ("a dslr camera for a beginner", "dslr camera"),
        ("a kvm switch for two computers", "kvm switch"),
        ("a network switch with 8 ports", "network switch"),
        ("an av receiver with hdmi", "av receiver"),
        ("a wireless access point for the office", "access point"),
        ("a hidden camera for surveillance", "hidden camera"),
    ],
)
def test_a_format_or_type_word_names_the_product(text: str, category: str) -> None:
    assert plan_from_text([text]).category == category


@pytest.mark.parametrize(
    ("text", "keyword"),
    [
        ("high speed hdmi cable of size 75 feet", "75 feet"),
        ("a stool of size 30 inch", "30 inch"),
        ("running shoes in size 9", "size 9"),
        ("a pink shoe for my size 8 foot", "size 8"),
    ],
)
def test_a_unit_after_a_size_takes_the_number(text: str, keyword: str) -> None:
    assert keyword in plan_from_text([text]).keywords


@pytest.mark.parametrize(
    ("messages", "cheap"),
    [
        (["a cheap tablet for reading ebooks"], True),
        (["the cheapest ssd 500gb"], True),
        (["an affordable 4k monitor"], True),
        (["a good tablet, not cheap"], False),
        (["a tablet under $200"], False),
        (["a cheap tablet", "in black please"], True),
        (["a cheap tablet", "actually a laptop"], False),
        (["something for my garden, not too expensive"], True),
        (["a keyboard, nothing too pricey"], True),
        (["a budget-friendly blender"], True),
        (["a reasonably priced monitor"], True),
        (["headphones that won't break the bank"], True),
        (["i am on a budget, i need a mouse"], True),
        (["a mouse, on a budget of $20"], False),
        (["what's a good budget ssd for gaming"], True),
        (["the best budget headphones"], True),
        (["a cheapish usb-c charger, at least 60w"], True),
        (["a laptop, budget isn't an issue"], False),
        (["my budget is $500 for a laptop"], False),
    ],
)
def test_a_low_price_asked_without_an_amount_is_read(messages: list[str], cheap: bool) -> None:
    assert plan_from_text(messages).cheap is cheap


@pytest.mark.parametrize(
    ("text", "keywords"),
    [
        ("recommend a keyboard for typing", ("typing",)),
        ("a mouse pad large enough for gaming", ("large", "gaming")),
        ("can you suggest a webcam", ()),
    ],
)
def test_request_words_are_no_search_words(text: str, keywords: tuple[str, ...]) -> None:
    assert plan_from_text([text]).keywords == keywords


def test_a_form_earbuds_cannot_take_asks_for_headphones() -> None:
    plan = plan_from_text(["wireless earbuds under $50", "what about over ear instead"])
    assert (plan.category, plan.keywords, plan.budget_usd) == (
        "headphones",
        ("wireless", "over-ear"),
        50.0,
    )
    assert plan_from_text(["in-ear headphones"]).category == "headphones"


@pytest.mark.parametrize(
    ("text", "keywords"),
    [
        ("an hdmi to dp cable", ("hdmi", "displayport")),
        ("a mini dp to hdmi adapter", ("mini", "displayport")),
        ("a dp audio speaker", ("dp",)),
    ],
)
def test_dp_beside_a_connector_is_displayport(text: str, keywords: tuple[str, ...]) -> None:
    assert plan_from_text([text]).keywords == keywords


@pytest.mark.parametrize(
    ("text", "category", "keywords"),
    [
        ("two usb cables", "usb cables", ()),
        ("2 usb c chargers", "chargers", ("usb-c",)),
        ("i need ten 12 foot hdmi cables", "hdmi cables", ("12 foot",)),
        ("i need two black usb c cables", "cables", ("black", "usb-c")),
        ("iphone 13 case", "case", ()),  # the model is a must-have, no count
        ("a 2 in 1 laptop", "laptop", ("2-in-1",)),
        ("a 4 port usb hub", "usb hub", ("4 port",)),
        ("2 pack usb cables", "usb cables", ("2 pack",)),
        ("i need 8 channel amplifier", "amplifier", ("8 channel",)),
    ],
)
def test_a_count_of_products_is_no_search_word(
    text: str, category: str, keywords: tuple[str, ...]
) -> None:
    plan = plan_from_text([text])
    assert (plan.category, plan.keywords) == (category, keywords)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("a blue tooth speaker", "bluetooth speaker"),
        ("a blue-tooth speaker", "bluetooth speaker"),
        ("ear buds under $20", "earbuds"),
        ("a key board", "keyboard"),
        ("a head set with mic", "headset"),
        ("a web cam", "webcam"),
    ],
)
def test_a_product_word_split_in_two_is_read_as_one(text: str, category: str) -> None:
    assert plan_from_text([text]).category == category


@pytest.mark.parametrize(
    ("text", "category", "keywords"),
    [
        ("my printer stopped working, looking for a new one under 200", "printer", ()),
        ("my old router died, i need a new one", "router", ()),
        ("my mouse is not working anymore, any wireless ones?", "mouse", ()),
        ("i need a new laptop", "laptop", ()),
        ("looking for a brand new tablet", "tablet", ()),
        ("i need a new watchband for my apple watch", "watchband", ("apple", "watch")),
        ("i am looking for a new balance sneaker", "sneaker", ("new", "balance")),
        ("a gift basket for a new baby", "gift basket", ("new", "baby")),
        ("my tv remote stopped working, need batteries", "batteries", ()),
        ("my phone screen cracked so i need a screen protector", "screen protector", ("phone",)),
        ("my laptop battery died, need a new battery", "battery", ("laptop",)),
        ("my phone died, need a charger", "charger", ("phone",)),
        ("my camera lens broke, need a lens cap", "lens cap", ("camera",)),
        ("my old router died, need a new router", "router", ()),
        ("something for my wife's birthday, she likes earrings", "earrings", ()),
        ("an ssd for my old laptop", "ssd", ("laptop",)),
        ("i need new headphones, my old ones broke", "headphones", ()),
        ("i want new balance sneakers", "sneakers", ("new", "balance")),
        # the occasion of a gift is why it is bought, never the product
        ("i need a birthday gift for my sister who loves knitting", None, ("knitting",)),
        ("earrings for my wife, a birthday present", "earrings", ()),
    ],
)
def test_the_story_of_the_shoppers_own_thing_and_newness_are_no_search_words(
    text: str, category: str, keywords: tuple[str, ...]
) -> None:
    plan = plan_from_text([text])
    assert (plan.category, plan.keywords, plan.exclude_terms) == (category, keywords, ())


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("a laptop for my grandma", "laptop"),
        ("headphones for my son", "headphones"),
        ("a t-shirt for my daughter", "t-shirt"),
        ("a watch for my husband", "watch"),
    ],
)
def test_the_person_bought_for_is_no_search_word(text: str, category: str) -> None:
    plan = plan_from_text([text])
    assert (plan.category, plan.keywords) == (category, ())


@pytest.mark.parametrize(
    ("text", "keywords"),
    [
        ("a mouse for a left handed person", ("left-handed",)),
        # a count keeps the word as the size it is
        ("a 4 person tent", ("4 person",)),
        ("a tent for 2 people", ("2 people",)),
        ("looking for a good pair of running shoes", ()),
        ("3 pairs of socks", ("3 pairs",)),
        ("a 3 way switch", ("3 way",)),
    ],
)
def test_a_person_or_a_pair_is_no_search_word_unless_counted(
    text: str, keywords: tuple[str, ...]
) -> None:
    assert plan_from_text([text]).keywords == keywords


def test_best_is_no_search_word() -> None:
    plan = plan_from_text(["the best gaming mouse under $50"])
    assert (plan.category, plan.keywords) == ("gaming mouse", ())


@pytest.mark.parametrize(
    ("text", "audience", "relation"),
    [
        ("a kurta for my dad", "men", "dad"),
        ("a black kurta for my husband", "men", "husband"),
        ("a saree for my mom", "women", "mom"),
    ],
)
def test_the_person_bought_for_asks_the_audience_the_catalog_lists(
    text: str, audience: str, relation: str
) -> None:
    listed = CatalogVocabulary(attribute_values=frozenset({"men", "women", "boys", "girls"}))
    with catalog_vocabulary(listed):
        keywords = plan_from_text([text]).keywords
    assert audience in keywords
    assert relation not in keywords
    unlisted = plan_from_text([text]).keywords
    assert audience not in unlisted
    assert relation not in unlisted


@pytest.mark.parametrize(
    ("text", "audiences", "listed"),
    [
        # a son may be a man or a boy: either, never women's ("a watch for my son" had
        # picked a Women's watch on the Myntra catalog)
        ("a watch for my son", ("men", "boys"), {"men", "women", "boys", "girls"}),
        ("a t-shirt for my daughter", ("women", "girls"), {"men", "women", "boys", "girls"}),
        ("a watch for my son", ("men",), {"men", "women"}),
    ],
)
def test_a_relative_of_any_age_asks_every_audience_they_may_belong_to(
    text: str, audiences: tuple[str, ...], listed: set[str]
) -> None:
    with catalog_vocabulary(CatalogVocabulary(attribute_values=frozenset(listed))):
        assert plan_from_text([text]).keywords == audiences


@pytest.mark.parametrize(
    ("text", "category", "keywords"),
    [
        ("i need a 12 hour timer", "timer", ("12 hour",)),
        # an amount "of" the product passes on to it (WebShop: "pack", "ounces" planned)
        ("i want a 36 pack of applesauce", "applesauce", ("36 pack",)),
        ("i need a six pack of fenugreek", "fenugreek", ("6 pack",)),
        ("i want to find 12 ounces of sweet potatoes", "sweet potatoes", ("12 ounces",)),
    ],
)
def test_after_i_need_a_count_and_its_unit_name_no_product(
    text: str, category: str, keywords: tuple[str, ...]
) -> None:
    plan = plan_from_text([text])
    assert (plan.category, plan.keywords) == (category, keywords)


@pytest.mark.parametrize(
    ("text", "category", "keywords"),
    [
        ("dog food", "dog food", ()),
        ("a piano", "piano", ()),
        ("an accordion, not yamaha", "accordion", ()),
        ("baby formula under $20", "baby formula", ()),
        ("organic cat litter", "cat litter", ("organic",)),
        ("piano", None, ("piano",)),
        ("wireless", None, ("wireless",)),
        ("noise cancelling", None, ("noise-cancelling",)),
        ("a water resistant watch", "watch", ("water-resistant",)),
        ("the blue one", None, ()),
        ("any other options", None, ()),
        ("a gaming keyboard that is quiet and small", "gaming keyboard", ("quiet", "small")),
        # a count and its unit name no product ("a 24 hour timer" planned an "hour timer")
        ("a 24 hour timer", "timer", ("24 hour",)),
        ("a 100 count bubblegum", "bubblegum", ("100 count",)),
    ],
)
def test_a_product_the_lexicon_lacks_typed_alone_is_the_product(
    text: str, category: str | None, keywords: tuple[str, ...]
) -> None:
    plan = plan_from_text([text])
    assert (plan.category, plan.keywords) == (category, keywords)
    assert plan.is_shopping


@pytest.mark.parametrize(
    ("messages", "category", "keywords"),
    [
        (["a gaming keyboard under $80", "low profile"], "gaming keyboard", ("low", "profile")),
        (["a laptop", "something lighter"], "laptop", ("lighter",)),
        (["dog food", "a piano"], "dog food", ("piano",)),
        # more memory asks it of the product in hand ("more ram" had planned the product ram)
        (["a laptop", "what about more ram"], "laptop", ("ram",)),
    ],
)
def test_a_phrase_typed_alone_later_describes_the_planned_product(
    messages: list[str], category: str, keywords: tuple[str, ...]
) -> None:
    plan = plan_from_text(messages)
    assert (plan.category, plan.keywords) == (category, keywords)


@pytest.mark.parametrize(
    ("text", "category", "keywords"),
    [
        ("gift ideas for a gamer", None, ("gamer",)),
        ("what is a good gift for my mom?", None, ()),
        ("headphones as a gift", "headphones", ()),
        ("a gift card", "gift card", ()),
        ("gift wrap", "gift wrap", ()),
        ("a gift basket for a new baby", "gift basket", ("new", "baby")),
    ],
)
def test_a_gift_says_why_it_is_bought_not_what_it_is(
    text: str, category: str | None, keywords: tuple[str, ...]
) -> None:
    plan = plan_from_text([text])
    assert (plan.category, plan.keywords, plan.is_shopping) == (category, keywords, True)
    assert plan.gift is (category is None or category == "headphones")


@pytest.mark.parametrize(
    ("messages", "category", "keywords"),
    [
        (["a gift for my dad who likes photography"], "camera", ()),
        (["a gift for my dad", "he likes photography"], "camera", ()),
        (["something for my brother who enjoys hiking, under $100"], "backpack", ()),
        (["a birthday present for my sister, she loves music"], "headphones", ()),
        (["a gift for my dad who likes astronomy"], None, ("astronomy",)),
        (["a running watch"], "running watch", ()),
    ],
)
def test_an_interest_where_no_product_is_named_asks_for_its_product(
    messages: list[str], category: str | None, keywords: tuple[str, ...]
) -> None:
    """ "He likes photography" names nothing titles say: the gate had kept one camera."""
    plan = plan_from_text(messages)
    assert (plan.category, plan.keywords) == (category, keywords)


@pytest.mark.parametrize(
    ("text", "gift"),
    [
        ("a present for a teenager", True),
        ("birthday gift ideas for my sister", True),
        ("a gift card", False),
        ("a laptop for my son", False),
    ],
)
def test_a_gift_is_noted_in_the_plan(text: str, gift: bool) -> None:
    assert plan_from_text([text]).gift is gift


@pytest.mark.parametrize(
    ("text", "listed", "keywords"),
    [
        ("a present for a teenager", {"men", "women"}, ()),
        ("a present for a teenager", {"men", "women", "boys", "girls"}, ("boys", "girls")),
        ("a watch for a teen", {"men", "women", "boys", "girls"}, ("boys", "girls")),
        ("a gift for a dad", {"men", "women"}, ("men",)),
    ],
)
def test_the_person_a_gift_is_for_may_follow_a_or_my(
    text: str, listed: set[str], keywords: tuple[str, ...]
) -> None:
    with catalog_vocabulary(CatalogVocabulary(attribute_values=frozenset(listed))):
        assert plan_from_text([text]).keywords == keywords
