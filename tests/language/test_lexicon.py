"""The language-general lexicon: the data files hold exactly the lists the rules had typed
into Python before they moved to data/lexicon/ (the file format: test_lexicon_files.py)."""

from __future__ import annotations

import re

import pytest

from app.errors import ConfigError
from app.language.lexicon import (
    currency_patterns,
    filler_words,
    number_words,
    ordinals,
    units,
)
from app.tools.plan._budget_rules import currency_code

_FILLER_TEXT = """
    a about above after again against all also am an and any anything are aren't around as at
    be because been before being below between both but by can can't could couldn't did didn't
    do does doesn't doing don't dont down during each either else even ever every few for from
    further get gets getting give go going got had has have having he her here hers herself him
    himself his how i i'd i'll i'm i've id if im in into is isn't it it's its itself ive just let
    like me might more most much must my myself need needs neither no nor not now of off on once
    one ones only or other our ours ourselves out over own please quite rather really same she
    should so some someone something such than thank thanks that that's thats the their theirs
    them themselves then there these they they'd they'll theyll this those though through to too
    under until up us very was wasn't we we'd we'll were what when where which while who whom
    why will with within without won't would wouldn't yet you you'd you'll your yours yourself
    want wants wanted looking look searching search find finding buy buying purchase order
    show tell help pick choose choosing select make sure ensure may shall kindly hi hello hey
    interested lot thing things stuff item items product products kind type sort ok okay yes
    well actually maybe perhaps probably definitely something anything am what's where's least
    cheap cheaper cheapest bigger larger smaller inexpensive affordable expensive pricey pricier
    add include
    option options choice choices suggestion suggestions others elsewhere anywhere somewhere
    compare able good great nice decent excellent awesome
    wont cant isnt doesnt didnt arent wasnt wouldnt shouldnt couldnt youre theyre whats
    who's how's there's here's let's it'll that'll price prices cost costs budget total
    overall altogether combined locate wanna gonna
"""
FILLER_WORDS_BEFORE = frozenset(_FILLER_TEXT.split())
"""STOP_WORDS of app/tools/plan/_text_rules.py before the move."""
FILLER_WORDS_ADDED = frozenset(
    [
        *("enough", "recommend", "recommended", "recommendation", "recommendations", "suggest"),
        *("likes", "loves", "enjoys"),
        *("never-mind", "nevermind"),
        *("anyone", "anybody", "somebody", "best"),
    ]
)
"""Added to the data since ("recommend a keyboard for typing": no search word "recommend";
"she likes earrings": no search word "likes"; "never mind, a scanner": none "never"; "the
best gaming mouse": none "best")."""


def test_the_filler_words_are_the_ones_the_code_had_and_those_added_since() -> None:
    assert filler_words() == FILLER_WORDS_BEFORE | FILLER_WORDS_ADDED


def test_the_number_words_are_the_ones_the_code_had() -> None:
    assert number_words("count") == {
        "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
        "nine": 9, "ten": 10, "twelve": 12,
    }  # fmt: skip
    assert number_words("teen") == {
        "eleven": 11, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
        "seventeen": 17, "eighteen": 18, "nineteen": 19,
    }  # fmt: skip
    assert number_words("tens") == {
        "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
        "eighty": 80, "ninety": 90,
    }  # fmt: skip
    assert number_words("quantity") == {
        "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "ten": 10, "a couple": 2,
    }  # fmt: skip


def test_the_ordinals_are_the_ones_the_code_had() -> None:
    assert ordinals() == {
        "first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "last": -1,
    }  # fmt: skip


def test_the_currency_table_is_the_one_the_code_had() -> None:
    assert currency_patterns() == (
        (r"us\$|u\.s\.\s?\$|usd|us dollars?|american dollars?", "USD"),
        (r"c\$|ca\$|cad|canadian dollars?", "CAD"),
        (r"a\$|au\$|aud|australian dollars?", "AUD"),
        (r"\$|dollars?|bucks", "USD"),
        (r"€|eur|euros?", "EUR"),
        (r"£|gbp|pounds?(?: sterling)?|quid|british pounds?", "GBP"),
        (r"cn¥|rmb|cny|yuan|renminbi", "CNY"),
        (r"¥|jpy|yen", "JPY"),
        (r"₹|inr|rs\.?|rupees?", "INR"),
        (r"chf|swiss francs?|francs?", "CHF"),
        (r"₩|krw|won", "KRW"),
    )
    for pattern, _ in currency_patterns():
        re.compile(pattern)
    assert currency_code("AU$") == "AUD"


def test_the_units_are_the_ones_the_code_had() -> None:
    assert units() == {
        "inch": ("inch", "inches", '"', "''"),
        "tb": ("tb", "terabyte", "terabytes"),
        "gb": ("gb", "gigabyte", "gigabytes", "gig", "gigs"),
        "mb": ("mb", "megabyte", "megabytes"),
        "ghz": ("ghz",),
        "mhz": ("mhz",),
        "hz": ("hz",),
        "mah": ("mah",),
        "wh": ("wh",),
        "dpi": ("dpi",),
        "ppm": ("ppm",),
        "w": ("w", "watt", "watts"),
        "mp": ("mp", "megapixel"),
        "mm": ("mm",),
        "cm": ("cm",),
        "m": ("m", "meter", "meters", "metre", "metres"),
        "ft": ("ft", "feet", "foot"),
        "oz": ("oz", "ounce", "ounces"),
        "lb": ("lb", "lbs", "pound", "pounds"),
        "ml": ("ml",),
        "l": ("l", "liter", "litre"),
        "v": ("v", "volt", "volts"),
        "va": ("va",),
        "k": ("k",),
        "p": ("p",),
        "core": ("core", "cores"),
        "port": ("port", "ports"),
        "hour": ("hour", "hours", "hr", "hrs"),
    }
    assert list(units())[:3] == ["inch", "tb", "gb"]


def test_an_unknown_number_use_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        number_words("dozens")
