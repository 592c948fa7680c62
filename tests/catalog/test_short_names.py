"""Short product names and the long forms catalogs spell out read as one."""

from __future__ import annotations

import pytest

from app.catalog.short_names import to_short_names, with_short_names
from app.tools.terms._terms import Term, make_term, term_in


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("verbatim internal solid state drive m.2 1000 gb", "verbatim internal ssd m.2 1000 gb"),
        ("a solid-state disk", "a ssd"),
        ("xerox 40gb hard disk drive kit", "xerox 40gb hdd kit"),
        ("hard disk/dvd recorder", "hard disk/dvd recorder"),
        ("solid state drives", "solid state drives"),
        ("ssd", "ssd"),
        ("buffalo linkstation duo network attached storage", "buffalo linkstation duo nas"),
        ("a 2TB Hard Disk Drive", "a 2TB hdd"),
        ("apc back-ups uninterruptible power supply (ups)", "apc back-ups ups (ups)"),
        ("scanner with automatic document feeder", "scanner with adf"),
        ("a document scanner with auto feeder", "a document scanner with adf"),
    ],
)
def test_long_forms_read_as_the_short_name(text: str, expected: str) -> None:
    assert to_short_names(text) == expected


def test_lexical_text_adds_the_short_name_once_and_keeps_every_word() -> None:
    text = "internal solid state drive, solid state drive kit"
    assert with_short_names(text) == "internal solid state drive ssd, solid state drive kit"
    assert with_short_names("portable ssd 1tb") == "portable ssd 1tb"


def test_a_request_in_one_form_credits_a_title_in_the_other() -> None:
    title = "Verbatim 49364 internal solid state drive M.2 1000 GB"
    assert term_in(title, _term("ssd 1tb"))
    assert term_in("Samsung T7 portable SSD 1TB", _term("solid state drive"))
    assert not term_in("Seagate hard disk drive 1TB", _term("ssd"))


def _term(text: str) -> Term:
    term = make_term(text)
    assert term is not None
    return term
