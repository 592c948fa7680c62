"""What the relevance gate reads of an item: its title, with the kind its product line says
("galaxy tab": tablet) or the category its spec sheet implies where the title names no
product, placed where the cross-encoder still reads it."""

from __future__ import annotations

import re

from app.catalog.item import Item
from app.catalog.product_lines import with_line_kind
from app.catalog.product_nouns import names_as_product
from app.catalog.short_names import with_short_names
from app.catalog.text import add_once_after
from app.tools.search import names_a_product

__all__ = ["gate_document"]


def gate_document(item: Item, noun: str | None) -> str:
    """What the cross-encoder reads for an item: its title, and the category its spec sheet
    implies when the title names neither the asked product nor another one ("DELL SE2719H
    68.6 cm (27") 1920 x 1080 pixels Full HD LCD Black" is a computer monitor; a "Tower
    Black PC" is no notebook, whatever its spec fields share with notebooks)."""
    title = item.title.lower()
    named = names_a_product(title)
    read = with_short_names(title if named else with_line_kind(title))
    implied = item.inferred_category
    if not implied or not noun or names_as_product(read, noun) or named:
        return read
    return with_short_names(_with_category(title, item.model_number, implied.lower()))


def _with_category(title: str, model: str | None, category: str) -> str:
    """The category where spec-sheet titles put it, right after the model code (the
    cross-encoder reads only the first few dozen tokens), else at the end."""
    if model:
        placed = add_once_after(re.compile(re.escape(model.lower())), title, lambda _: category)
        if placed != title:
            return placed
    return f"{title} {category}"
