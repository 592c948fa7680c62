"""Quantities read once for the picker and the lexical index: one word per whole number in its
canonical unit, terabytes as the gigabytes catalogs also write."""

from __future__ import annotations

import pytest

from app.catalog.specs import as_spec_words, quantities, with_spec_words


def test_quantities_carry_value_unit_and_where_they_are_written() -> None:
    low = 'a 15.6" laptop with 1 tb ssd, 20,100mah and 1080p'
    found = [(q.value, q.unit, q.text, low[q.start : q.end].strip()) for q in quantities(low)]
    assert found == [
        (15.6, "inch", '15.6"', '15.6"'),
        (1.0, "tb", "1 tb", "1 tb"),
        (20100.0, "mah", "20,100mah", "20,100mah"),
        (1080.0, "p", "1080p", "1080p"),
    ]
    assert quantities("model 7p and 5 cats") == []


@pytest.mark.parametrize(
    ("text", "document", "query"),
    [
        ("internal ssd m.2 1000 gb", "internal ssd m.2 1000 gb 1000gb", "internal ssd m.2 1000gb"),
        ("samsung 1tb ssd", "samsung 1tb 1000gb ssd", "samsung 1000gb ssd"),
        ("wd 2 tb drive", "wd 2 tb 2000gb drive", "wd 2000gb drive"),
        ("0.5 tb", "0.5 tb 500gb", "500gb"),
        ("64gb stick", "64gb stick", "64gb stick"),
        ("20,100mah bank", "20,100mah 20100mah bank", "20100mah bank"),
        ('15.6" laptop', '15.6" laptop', '15.6" laptop'),
        ("usb cable", "usb cable", "usb cable"),
    ],
)
def test_one_word_per_quantity_for_documents_and_queries(
    text: str, document: str, query: str
) -> None:
    assert with_spec_words(text) == document
    assert as_spec_words(text) == query
