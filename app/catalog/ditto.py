"""Loads the ditto ER product-matching pairs into `Item`s and same-product `MatchLabel`s.

Each line holds two serialised records (`COL title VAL … COL price VAL …`) and a 0/1 label.
A record recurs in many pairs, so items are keyed by a hash of the record itself: the same
record always gets the same `<platform>:<hash>` id, in every split and every rebuild.
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, NamedTuple

from pydantic import ValidationError

from app.catalog._tally import SkipTally
from app.catalog.item import Item, MatchLabel, Platform
from app.catalog.text import clean_text, display_case, tidy_ditto_spacing

__all__ = [
    "DITTO_DATASETS",
    "DITTO_SPLITS",
    "DittoDataset",
    "DittoLoad",
    "DittoName",
    "Split",
    "ditto_item",
    "ditto_item_id",
    "ditto_price_usd",
    "has_list_label",
    "load_ditto",
    "load_ditto_dataset",
    "parse_ditto_record",
]

DittoName = Literal["walmart-amazon", "amazon-google", "abt-buy"]
Split = Literal["train", "valid", "test"]
DITTO_SPLITS: tuple[Split, ...] = ("train", "valid", "test")

_FIELD = re.compile(r"COL (\S+) VAL ")


@dataclass(frozen=True)
class DittoDataset:
    """One ditto benchmark: its folder, the platforms of its two sides and its field names."""

    name: DittoName
    folder: str
    left: Platform
    right: Platform
    fields: tuple[str, ...]
    title: str
    brand: str | None = None
    category: str | None = None
    model_number: str | None = None
    description: str | None = None

    @property
    def source(self) -> str:
        """Name of this benchmark in `Item.source` and in skip counts."""
        return f"ditto-{self.name}"

    def split_path(self, root: Path, split: Split) -> Path:
        """The pair file of one split under the `ditto-er/` folder `root`."""
        return root / self.folder / f"{split}.txt"


DITTO_DATASETS: tuple[DittoDataset, ...] = (
    DittoDataset(
        name="walmart-amazon",
        folder="Structured/Walmart-Amazon",
        left="walmart",
        right="amazon",
        fields=("title", "category", "brand", "modelno", "price"),
        title="title",
        brand="brand",
        category="category",
        model_number="modelno",
    ),
    DittoDataset(
        name="amazon-google",
        folder="Structured/Amazon-Google",
        left="amazon",
        right="google",
        fields=("title", "manufacturer", "price"),
        title="title",
        brand="manufacturer",
    ),
    DittoDataset(
        name="abt-buy",
        folder="Textual/Abt-Buy",
        left="abt",
        right="buy",
        fields=("name", "description", "price"),
        title="name",
        description="description",
    ),
)


LIST_LABEL_SOURCES = frozenset(d.source for d in DITTO_DATASETS if d.category)
"""Sources whose category labels are flattened lists ("Cases & Bags" became "cases bags")."""


def has_list_label(item: Item) -> bool:
    """Whether the item's category is a flattened list label, where word order means nothing
    (unlike a noun phrase: "label printer" is not "printer label")."""
    return item.source in LIST_LABEL_SOURCES


class DittoLoad(NamedTuple):
    """Items (first appearance order, one per distinct record) and labels of ditto files."""

    items: list[Item]
    matches: list[MatchLabel]


class _Skip(NamedTuple):
    reason: str
    detail: str = ""


def ditto_price_usd(text: str) -> float | _Skip | None:
    """A ditto price field: "" -> None, "409.0" -> 409.0; text, negatives and NaN are bad."""
    text = text.strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        return _Skip("bad_price", text[:40])
    if not math.isfinite(value) or value < 0:
        return _Skip("bad_price", text[:40])
    return value or None


def ditto_item_id(platform: str, record: dict[str, str]) -> str:
    """Stable id of one ditto record: platform plus a short hash of its whitespace-normalised
    raw fields, so display formatting can change without changing ids."""
    canonical = "\x1f".join(f"{key}={' '.join(value.split())}" for key, value in record.items())
    digest = hashlib.sha1(f"{platform}\x1e{canonical}".encode()).hexdigest()[:12]
    return f"{platform}:{digest}"


def parse_ditto_record(side: str, expected: tuple[str, ...]) -> dict[str, str] | _Skip:
    """The field -> value map of one serialised record, in the dataset's field order."""
    side = side.strip()
    if not side.startswith("COL "):
        return _Skip("malformed_line", side[:80])
    parts = _FIELD.split(side + " ")
    record = {parts[i]: parts[i + 1].strip() for i in range(1, len(parts) - 1, 2)}
    if tuple(record) != expected:
        return _Skip("malformed_line", f"fields {list(record)} != {list(expected)}")
    return record


def _text(record: dict[str, str], field: str | None) -> str:
    return tidy_ditto_spacing(clean_text(record[field])) if field else ""


def ditto_item(
    dataset: DittoDataset, platform: Platform, record: dict[str, str], item_id: str = ""
) -> Item | _Skip:
    """One parsed ditto record as an Item: display-cased title and brand, raw-case the rest."""
    title = _text(record, dataset.title)
    if not title:
        return _Skip("no_title", str(record)[:80])
    price = ditto_price_usd(record.get("price", ""))
    if isinstance(price, _Skip):
        return price
    brand = _text(record, dataset.brand)
    try:
        return Item(
            item_id=item_id or ditto_item_id(platform, record),
            platform=platform,
            title=display_case(title),
            brand=display_case(brand) or None,
            category=_text(record, dataset.category) or None,
            description=_text(record, dataset.description),
            price_usd=price,
            source=dataset.source,
            model_number=_text(record, dataset.model_number) or None,
        )
    except ValidationError as exc:
        return _Skip("invalid_item", str(exc.errors()[0]["msg"]))


class _PairParser:
    """Parses the lines of one dataset, building each distinct record's Item only once."""

    def __init__(self, dataset: DittoDataset) -> None:
        self.dataset = dataset
        self._built: dict[str, Item | _Skip] = {}
        self._by_text: dict[tuple[str, str], Item | _Skip] = {}

    def _side(self, side: str, platform: Platform) -> Item | _Skip:
        key = (side, platform)
        known = self._by_text.get(key)
        if known is None:
            known = self._by_text[key] = self._parse_side(side, platform)
        return known

    def _parse_side(self, side: str, platform: Platform) -> Item | _Skip:
        record = parse_ditto_record(side, self.dataset.fields)
        if isinstance(record, _Skip):
            return record
        item_id = ditto_item_id(platform, record)
        built = self._built.get(item_id)
        if built is None:
            built = self._built[item_id] = ditto_item(self.dataset, platform, record, item_id)
        return built

    def parse(self, line: str) -> tuple[Item, Item, bool] | _Skip:
        """The two items and the label of one pair line, or why the line is unusable."""
        columns = line.rstrip("\r\n").split("\t")
        if len(columns) != 3:
            return _Skip("malformed_line", f"{len(columns)} tab-separated columns")
        label = columns[2].strip()
        if label not in ("0", "1"):
            return _Skip("bad_label", label[:20])
        left = self._side(columns[0], self.dataset.left)
        if isinstance(left, _Skip):
            return left
        right = self._side(columns[1], self.dataset.right)
        if isinstance(right, _Skip):
            return right
        return left, right, label == "1"


def load_ditto_dataset(
    dataset: DittoDataset, root: Path, tally: SkipTally, splits: tuple[Split, ...] = DITTO_SPLITS
) -> DittoLoad:
    """Items and labels of one ditto benchmark under `root` (the `ditto-er/` folder)."""
    items: dict[str, Item] = {}
    matches: list[MatchLabel] = []
    parser = _PairParser(dataset)
    for split in splits:
        with dataset.split_path(root, split).open(encoding="utf-8", errors="replace") as lines:
            for number, line in enumerate(lines, start=1):
                if not line.strip():
                    continue
                parsed = parser.parse(line)
                if isinstance(parsed, _Skip):
                    where = f"{split}.txt:{number}: {parsed.detail}"
                    tally.skip(dataset.source, parsed.reason, where)
                    continue
                left, right, same = parsed
                items.setdefault(left.item_id, left)
                items.setdefault(right.item_id, right)
                matches.append(
                    MatchLabel(
                        dataset=dataset.name,
                        split=split,
                        left_id=left.item_id,
                        right_id=right.item_id,
                        same_product=same,
                    )
                )
    tally.summarise(dataset.source, len(items), labelled_pairs=len(matches))
    return DittoLoad(list(items.values()), matches)


def load_ditto(root: Path, tally: SkipTally) -> DittoLoad:
    """Items and labels of all three ditto benchmarks, in `DITTO_DATASETS` order."""
    items: list[Item] = []
    matches: list[MatchLabel] = []
    for dataset in DITTO_DATASETS:
        loaded = load_ditto_dataset(dataset, root, tally)
        items.extend(loaded.items)
        matches.extend(loaded.matches)
    return DittoLoad(items, matches)
