"""Loads the Icecat electronics catalog (`icecat/{1,2,3,4}.json.zip`) into `Item`s.

Icecat carries no category and no rating; the category is read off the title where the
title follows Icecat's "brand [series] part-number category-noun Attributes" pattern, and
taken from the spec sheet for the rest where it states or implies one (`spec_categories`).
"""

from __future__ import annotations

import json
import math
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import ValidationError

from app.catalog._tally import SkipTally
from app.catalog.item import Item
from app.catalog.spec_categories import SpecRecipe, sheet_categories, spec_fields, stated_type
from app.catalog.spec_features import sheet_features, sheet_text
from app.catalog.text import clean_text

__all__ = [
    "ICECAT_FILES",
    "SOURCE",
    "SpecSheets",
    "derive_icecat_category",
    "icecat_item",
    "icecat_model_number",
    "icecat_price_usd",
    "load_icecat",
    "read_spec_sheets",
]

SOURCE = "icecat"
ICECAT_FILES: tuple[str, ...] = ("1.json.zip", "2.json.zip", "3.json.zip", "4.json.zip")

_CATEGORY_WORD = re.compile(r"[a-z][a-z'/&-]*")
_CATEGORY_ACRONYM = re.compile(r"[A-Z][A-Z0-9/]{1,5}")
_PARENTHESISED_ABBREVIATION = re.compile(r"\([A-Za-z0-9/-]+\)")
_CONNECTIVES = frozenset({"for", "with", "and", "of", "in", "on", "to", "the", "a", "&"})
_DIGIT = re.compile(r"\d")


class _Skip(NamedTuple):
    """Why one row could not become an item."""

    reason: str
    detail: str = ""


def _tokens_after(tokens: list[str], needle: list[str]) -> list[str]:
    """The tokens after the first whole-token occurrence of `needle`; [] when it is absent."""
    if not needle:
        return []
    width = len(needle)
    for start in range(len(tokens) - width + 1):
        if tokens[start] == needle[0] and tokens[start : start + width] == needle:
            return tokens[start + width :]
    return []


def derive_icecat_category(title: str, name: str) -> str | None:
    """The category noun phrase of an Icecat title, or None where the pattern does not hold.

    Rule: find the part number (`name`) in the title as whole words, then read the words after
    it: an optional acronym ("USB", "KVM") followed by lower-case words ("toner cartridge",
    "power adapter/inverter"), skipping a parenthesised abbreviation ("ultraviolet (UV) bulb").
    It stops at the first capitalised word or number; trailing "for"/"with"/... are dropped.
    "Xerox 006R90321 toner cartridge Original Black" -> "toner cartridge"; titles that end at
    the name or go on with capitalised attributes ("HP 85 Original Light magenta") give None.
    """
    tail = _tokens_after(title.split(), name.split())
    if not tail:
        return None
    words: list[str] = []
    start = 0
    if (
        len(tail) >= 2
        and _CATEGORY_ACRONYM.fullmatch(tail[0])
        and _CATEGORY_WORD.fullmatch(tail[1])
    ):
        words.append(tail[0])
        start = 1
    for token in tail[start:]:
        if _CATEGORY_WORD.fullmatch(token) or (token == "&" and words):
            words.append(token)
        elif words and _PARENTHESISED_ABBREVIATION.fullmatch(token):
            continue
        else:
            break
    while words and words[-1] in _CONNECTIVES:
        words.pop()
    if not words or (len(words) == 1 and _CATEGORY_ACRONYM.fullmatch(words[0])):
        return None
    return " ".join(words)


def icecat_model_number(name: str) -> str | None:
    """Icecat's `name` as a model number when it is one token with a digit ("006R90321").

    About a third of Icecat names are descriptive phrases ("3 ft Cat5e Patch Cable"); those
    are not model numbers and give None rather than a false exact-match key.
    """
    name = name.strip()
    if not name or any(ch.isspace() for ch in name) or not _DIGIT.search(name):
        return None
    return name


def icecat_price_usd(cents: object) -> float | None:
    """Icecat's integer cents as dollars; None when missing, zero, negative or not a number."""
    if isinstance(cents, bool):
        return None
    if isinstance(cents, str) and cents.strip().isdigit():
        cents = int(cents.strip())
    if isinstance(cents, float) and math.isfinite(cents) and cents.is_integer():
        cents = int(cents)
    if not isinstance(cents, int) or cents <= 0:
        return None
    return cents / 100


def _ean(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return ()
    return tuple(dict.fromkeys(code.strip() for code in value if isinstance(code, str) and code))


def _year(value: object) -> int | None:
    """The year of an ISO date ("2008-05-10T00:00:00Z" -> 2008), else None."""
    text = value.strip() if isinstance(value, str) else ""
    return int(text[:4]) if text[:4].isdigit() and 1900 <= int(text[:4]) <= 2100 else None


def _color(value: object) -> str | None:
    text = clean_text(value)
    if not text:
        return None
    return ", ".join(part.strip() for part in text.split(",") if part.strip())


def icecat_item(row: object) -> Item | _Skip:
    """One Icecat product row as an Item, or the reason it cannot be one."""
    if not isinstance(row, dict):
        return _Skip("malformed_row", repr(row)[:80])
    raw_id = row.get("id")
    product_id = str(raw_id).strip() if isinstance(raw_id, str | int) else ""
    if not product_id:
        return _Skip("no_id", repr(row.get("title"))[:80])
    title = clean_text(row.get("title"))
    if not title:
        return _Skip("no_title", product_id)
    name = clean_text(row.get("name"))
    image = row.get("img_500x500") or row.get("img_high")
    try:
        return Item(
            item_id=f"icecat:{product_id}",
            platform="icecat",
            title=title,
            brand=clean_text(row.get("supplier")) or None,
            color=_color(row.get("attr_t_product_colour")),
            category=derive_icecat_category(title, name),
            description=clean_text(row.get("short_description")),
            price_usd=icecat_price_usd(row.get("price")),
            image_url=image.strip() if isinstance(image, str) and image.strip() else None,
            source=SOURCE,
            model_number=icecat_model_number(name),
            ean=_ean(row.get("ean")),
            features=sheet_features(row),
            spec_text=sheet_text(row),
            released=_year(row.get("date_released")),
        )
    except ValidationError as exc:
        return _Skip("invalid_item", f"{product_id}: {exc.errors()[0]['msg']}")


def _rows(path: Path, tally: SkipTally) -> Iterator[Any]:
    """The rows of one Icecat zip (one JSON list inside); a broken file counts as skipped."""
    try:
        with zipfile.ZipFile(path) as archive:
            members = [m for m in archive.namelist() if m.endswith(".json")]
            if not members:
                tally.skip(SOURCE, "bad_file", f"{path.name}: no .json member")
                return
            for member in members:
                data = json.loads(archive.read(member))
                if not isinstance(data, list):
                    tally.skip(SOURCE, "bad_file", f"{path.name}/{member}: not a JSON list")
                    continue
                yield from data
    except (zipfile.BadZipFile, UnicodeDecodeError) as exc:
        tally.skip(SOURCE, "bad_file", f"{path.name}: {exc}")
    except json.JSONDecodeError as exc:
        tally.skip(SOURCE, "bad_json", f"{path.name}: {exc}")


class SpecSheets(NamedTuple):
    """Icecat items in file order, each beside the spec fields its row fills and the product
    type its sheet states."""

    items: list[Item]
    fields: list[frozenset[str]]
    stated: list[str | None]


def load_icecat(
    paths: list[Path], tally: SkipTally, recipe: SpecRecipe | None = None
) -> list[Item]:
    """Items of the given Icecat zips, in file order; unusable rows are counted in `tally`.
    Items whose title names no category get the one their spec sheet states or implies, by
    `recipe` (the registry's when None)."""
    sheets = read_spec_sheets(paths, tally)
    titled = [i.category for i in sheets.items]
    found = sheet_categories(sheets.fields, sheets.stated, titled, recipe or SpecRecipe.current())
    return [
        item.model_copy(update={"inferred_category": category}) if category else item
        for item, category in zip(sheets.items, found, strict=True)
    ]


def read_spec_sheets(paths: list[Path], tally: SkipTally) -> SpecSheets:
    """Items of the given Icecat zips with their spec sheets; nothing is inferred yet."""
    sheets = SpecSheets([], [], [])
    seen: set[str] = set()
    unpriced = 0
    for path in paths:
        for row in _rows(path, tally):
            result = icecat_item(row)
            if isinstance(result, _Skip):
                tally.skip(SOURCE, result.reason, result.detail)
            elif result.item_id in seen:
                tally.skip(SOURCE, "duplicate_id", result.item_id)
            else:
                seen.add(result.item_id)
                unpriced += result.price_usd is None
                sheets.items.append(result)
                sheets.fields.append(spec_fields(row))
                sheets.stated.append(stated_type(row))
    tally.summarise(SOURCE, len(sheets.items), without_price=unpriced)
    return sheets
