"""The catalog import benchmark: rows per second through parse, validation and the offer
store (before any embedding), on the Myntra file of the datasets folder."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from app.catalog.import_mapping import ColumnMapping
from app.catalog.importer import import_files
from app.catalog.offer_store import OfferStore
from app.config.settings import Settings

__all__ = ["MYNTRA_FILE", "MYNTRA_MAPPING", "bench_import"]

MYNTRA_FILE = Path("myntra") / "myntra_products_catalog.csv"
MYNTRA_MAPPING = (
    "id=ProductID",
    "title=ProductName",
    "brand=ProductBrand",
    "price=Price (INR)",
    "description=Description",
    "attributes.gender=Gender",
    "attributes.color=PrimaryColor",
)


def bench_import(settings: Settings, repeats: int = 3) -> dict[str, Any]:
    """Import the Myntra file into a scratch store `repeats` times; the best rate of a fresh
    import, and the rate of re-importing it unchanged (the idempotent path)."""
    source = settings.data_dir / MYNTRA_FILE
    if not source.is_file():
        return {"import_rows_per_s": None, "error": f"no {source}"}
    mapping = ColumnMapping.parse(MYNTRA_MAPPING)
    fresh: list[float] = []
    again: list[float] = []
    rows = 0
    for _ in range(repeats):
        with tempfile.TemporaryDirectory(prefix="pickwise-import-") as tmp:
            store = OfferStore(Path(tmp) / "catalog.sqlite")
            for rates in (fresh, again):
                report = import_files(
                    [source], store, fmt="csv", mapping=mapping, shop="myntra", currency="INR"
                )
                rows = report.accepted + report.rejected
                rates.append(rows / report.seconds)
    return {
        "import_rows_per_s": round(max(fresh), 1),
        "reimport_rows_per_s": round(max(again), 1),
        "rows": rows,
        "load_1m": round(os.getloadavg()[0], 2),
        "source": str(MYNTRA_FILE),
        "measures": f"parse + validate + store, before embedding; best of {repeats} fresh imports",
    }
