"""Two shop export formats read as offers: Shopify's product CSV (one row per variant or
extra image, continuation rows carrying only the Handle) and Google Merchant Center's
tab-separated product feed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from app.catalog.import_mapping import ColumnMapping
from app.catalog.import_readers import RawRow, RowProblem, read_rows

__all__ = ["GOOGLE_MAPPING", "google_fields", "shopify_rows"]

GOOGLE_MAPPING = ColumnMapping(
    fields={
        "id": "id",
        "title": "title",
        "description": "description",
        "url": "link",
        "image_url": "image_link",
        "availability": "availability",
        "price": "price",
        "brand": "brand",
        "gtin": "gtin",
        "mpn": "mpn",
        "group_id": "item_group_id",
        "category_path": "google_product_category",
    },
    attributes={
        name: name
        for name in ("color", "size", "gender", "material", "pattern", "age_group", "condition")
    },
)
"""The feed's attribute names; `product_type` (the shop's own path) wins over the numeric or
textual `google_product_category` when a row has it."""

_OPTIONS = (1, 2, 3)
_DEFAULT_TITLE = "Default Title"


def google_fields(row: dict[str, Any]) -> dict[str, Any]:
    """A feed row with the shop's own `product_type` path preferred, a numeric Google
    category id dropped (it names no words) and an ISO release date kept as a date."""
    product_type = (row.get("product_type") or "").strip()
    category = (row.get("google_product_category") or "").strip()
    if product_type or category.isdigit():
        row = {**row, "google_product_category": "" if category.isdigit() else category}
    if product_type:
        row["google_product_category"] = product_type
    return row


def shopify_rows(path: Path) -> Iterator[RawRow | RowProblem]:
    """One row per variant, in offer field names: the product's title, vendor, type, body
    and first image carried to every variant; option values as attributes; Handle as the
    variant group; extra-image rows folded away."""
    product: dict[str, str] | None = None
    images: list[str] = []
    for raw in read_rows(path, "csv"):
        if isinstance(raw, RowProblem):
            yield raw
            continue
        values = raw.values
        handle = (values.get("Handle") or "").strip()
        if not handle:
            yield RowProblem(raw.row, "no Handle")
            continue
        if product is None or product["Handle"] != handle or (values.get("Title") or "").strip():
            product, images = values, []
        if image := (values.get("Image Src") or "").strip():
            images.append(image)
        if not _is_variant(values):
            continue
        yield RawRow(raw.row, _variant(product, values, images))


def _is_variant(values: dict[str, str]) -> bool:
    return bool(
        (values.get("Variant Price") or "").strip()
        or any((values.get(f"Option{n} Value") or "").strip() for n in _OPTIONS)
    )


def _variant(product: dict[str, str], values: dict[str, str], images: list[str]) -> dict[str, Any]:
    def first(column: str) -> str:
        return (values.get(column) or "").strip() or (product.get(column) or "").strip()

    options: dict[str, str] = {}
    for n in _OPTIONS:
        name = (product.get(f"Option{n} Name") or "").strip()
        value = (values.get(f"Option{n} Value") or "").strip()
        if name and value and value != _DEFAULT_TITLE:
            options[name.lower()] = value
    handle = product["Handle"].strip()
    title = (product.get("Title") or "").strip()
    sku = (values.get("Variant SKU") or "").strip()
    suffix = "-".join(_slug(v) for v in options.values())
    out: dict[str, Any] = {
        "id": sku or (f"{handle}-{suffix}" if suffix else handle),
        "title": f"{title} - {' / '.join(options.values())}" if options and title else title,
        "brand": (product.get("Vendor") or "").strip(),
        "description": product.get("Body (HTML)") or "",
        "price": (values.get("Variant Price") or "").strip(),
        "group_id": handle,
        "image_url": (values.get("Variant Image") or "").strip() or (images[-1] if images else ""),
        "gtin": (values.get("Variant Barcode") or "").strip().lstrip("'"),
        "mpn": first("Google Shopping / MPN"),
        "availability": _availability(values),
        "category_path": _category(product),
        "attributes": _attributes(product, options),
    }
    return {k: v for k, v in out.items() if v not in ("", None, [], {})}


def _availability(values: dict[str, str]) -> str:
    qty = (values.get("Variant Inventory Qty") or "").strip()
    if not re.fullmatch(r"-?\d+", qty):
        return "unknown"
    if int(qty) > 0:
        return "in_stock"
    policy = (values.get("Variant Inventory Policy") or "").strip().lower()
    return "preorder" if policy == "continue" else "out_of_stock"


def _category(product: dict[str, str]) -> list[str]:
    google = (product.get("Google Shopping / Google Product Category") or "").strip()
    kind = (product.get("Type") or "").strip()
    path = [p.strip() for p in google.split(">") if p.strip()] if not google.isdigit() else []
    if kind and (not path or path[-1].lower() != kind.lower()):
        path.append(kind)
    return path


def _attributes(product: dict[str, str], options: dict[str, str]) -> dict[str, str]:
    attrs = {"color" if k == "colour" else k: v for k, v in options.items()}
    gender = (product.get("Google Shopping / Gender") or "").strip()
    if gender and "gender" not in attrs:
        attrs["gender"] = gender
    tags = (product.get("Tags") or "").strip()
    if tags:
        attrs["tags"] = tags
    return attrs


def _slug(value: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", value.lower()).strip("-") or "x"
