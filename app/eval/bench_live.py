"""The live-update benchmark (`upsert_visible_ms`): on a small imported catalog (the Shopify
sample) in a scratch var dir, the time from a live upsert returning to the next search of a
second, separately opened runtime (another process's view: it learns of the change only from
the journal) showing the new price; median of a few price changes."""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from app.catalog.importer import import_files
from app.catalog.offer_store import OfferStore
from app.config.params.catalog import LIVE_CHECK_INTERVAL_MS
from app.config.settings import Settings
from app.recall.embedder import Embedder, build_embedder
from app.recall.index_build import build_index
from app.recall.live_update import LiveWriter
from app.runtime import Runtime
from app.tools.base import ToolContext, invoke_tool
from app.tools.search import ItemSearchResult

__all__ = ["bench_live"]

_SHOP = "bench-shop"
_ITEM = "classic-varsity-top-large"
_QUERY = "classic varsity top large"
_TIMEOUT_S = 10.0


def bench_live(settings: Settings, repeats: int = 5) -> dict[str, Any]:
    """`upsert_visible_ms` (median over `repeats` price changes) and what one upsert took."""
    files = sorted((settings.data_dir / "shopify-sample").glob("*.csv"))
    if not files:
        return {"upsert_visible_ms": None, "error": "no shopify-sample in the datasets folder"}
    with tempfile.TemporaryDirectory(prefix="pickwise-live-") as tmp:
        scratch = settings.model_copy(update={"var_dir": Path(tmp), "redis_url": None})
        import_files(files, OfferStore.of(scratch.var_dir), shop=_SHOP, currency="EUR")
        embedder = build_embedder(scratch)
        build_index(scratch, show_progress=False, embedder=embedder)
        return asyncio.run(_measure(scratch, embedder, repeats))


async def _measure(settings: Settings, embedder: Embedder, repeats: int) -> dict[str, Any]:
    writer = LiveWriter.open(settings, embedder)
    offer = next(o for o in writer.store.offers((_SHOP,)) if o.id == _ITEM)
    visible: list[float] = []
    upsert: list[float] = []
    async with Runtime(settings, embedder=embedder) as reader:
        await _price(reader)
        for n in range(repeats):
            price = round(offer.price or 10.0, 2) + n + 1
            started = time.perf_counter()
            writer.upsert([(offer.model_copy(update={"price": price}), "", 1)], actor="bench")
            returned = time.perf_counter()
            upsert.append((returned - started) * 1000)
            while await _price(reader) != price:
                if time.perf_counter() - returned > _TIMEOUT_S:
                    raise TimeoutError(f"price {price} not visible within {_TIMEOUT_S} s")
            visible.append((time.perf_counter() - returned) * 1000)
    return {
        "upsert_visible_ms": round(statistics.median(visible), 1),
        "upsert_visible_max_ms": round(max(visible), 1),
        "upsert_call_ms": round(statistics.median(upsert), 1),
        "upsert_runs": repeats,
        "live_check_interval_ms": LIVE_CHECK_INTERVAL_MS.get(),
        "upsert_measures": "live upsert returned -> a second runtime's next item_search shows "
        "the new price (searching back to back); one changed price, Shopify sample catalog",
    }


async def _price(runtime: Runtime) -> float | None:
    """The listed price item_search shows for the benchmarked item."""
    ctx = ToolContext("bench-live", uuid.uuid4().hex[:16])
    outcome = await invoke_tool(runtime.tool("item_search"), {"query": _QUERY, "top_k": 5}, ctx)
    if not isinstance(outcome.output, ItemSearchResult):
        return None
    item_id = f"{_SHOP}:{_ITEM}"
    if not any(h.item_id == item_id for h in outcome.output.hits):
        return None
    item = runtime.index.item(item_id)
    return None if item is None else item.price
