"""Live catalog changes on a real (small) imported index, real qdrant-edge and real Redis:
a price change and a delete while 8 searches run, after which no search shows the old
price or the deleted item; the CLI reports changed, unchanged and bad rows; a change made
by another process reaches an opened runtime through the journal."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from app.config.settings import Settings
from app.recall.live_update import LiveWriter
from app.runtime import Runtime
from app.tools.base import ToolContext, invoke_tool
from app.tools.search.item_search import ItemSearchResult
from tests.catalog.live_catalog import LIVE_REDIS_URL, SHOP, live_catalog, stored

PICKWISE = Path(sys.executable).with_name("pickwise")
QUERIES = ("varsity top", "classic varsity top large", "women's top", "cotton top")
REPRICED = f"{SHOP}:classic-varsity-top-large"
DELETED = f"{SHOP}:classic-varsity-top-small"


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> Iterator[Settings]:
    client = redis.Redis.from_url(LIVE_REDIS_URL)
    client.flushdb()
    yield live_catalog(tmp_path_factory.mktemp("live-var"), data_dir)
    client.flushdb()
    client.close()


async def _search(runtime: Runtime, query: str) -> dict[str, float | None]:
    """item_search's hits as item id -> price_usd."""
    ctx = ToolContext("live-test", uuid.uuid4().hex[:16])
    outcome = await invoke_tool(runtime.tool("item_search"), {"query": query, "top_k": 10}, ctx)
    assert isinstance(outcome.output, ItemSearchResult), outcome.output
    return {hit.item_id: hit.price_usd for hit in outcome.output.hits}


async def test_a_price_change_and_a_delete_while_eight_searches_run(live: Settings) -> None:
    async with Runtime(live) as runtime:
        before = {q: await _search(runtime, q) for q in QUERIES}
        old_price = before["classic varsity top large"][REPRICED]
        assert old_price is not None
        assert any(DELETED in hits for hits in before.values())
        new_offer = stored(live, "classic-varsity-top-large").model_copy(update={"price": 41.0})
        writer = LiveWriter.open(live, runtime.index.embedder)
        acknowledged = asyncio.Event()
        stop = asyncio.Event()
        enough = asyncio.Event()
        after_ack: list[dict[str, float | None]] = []
        errors: list[BaseException] = []

        async def searcher(n: int) -> None:
            while not stop.is_set():
                acked = acknowledged.is_set()
                try:
                    hits = await _search(runtime, QUERIES[n % len(QUERIES)])
                except Exception as exc:  # every search in flight must keep working
                    errors.append(exc)
                    enough.set()
                    return
                if acked:
                    after_ack.append(hits)
                    if len(after_ack) >= 16:
                        enough.set()
                n += 1
                await asyncio.sleep(0)  # a memoised search never yields; let the change run

        async def change() -> None:
            await asyncio.sleep(0.05)
            await asyncio.to_thread(writer.upsert, [(new_offer, "", 1)], actor="test")
            await asyncio.to_thread(
                writer.delete, [(SHOP, "classic-varsity-top-small")], actor="test"
            )
            assert runtime.index.live is not None
            await runtime.index.live.refresh()  # what the admin route does before it answers
            acknowledged.set()
            await enough.wait()
            stop.set()

        await asyncio.gather(change(), *(searcher(n) for n in range(8)))
        assert not errors
        assert len(after_ack) >= 16
        for hits in after_ack:
            assert DELETED not in hits
            assert hits.get(REPRICED, None) != old_price
        final = {q: await _search(runtime, q) for q in QUERIES}
        assert final["classic varsity top large"][REPRICED] == pytest.approx(41.0 * 1.03, abs=0.01)
        assert all(DELETED not in hits for hits in final.values())
        assert runtime.index.item(DELETED) is None
        assert runtime.index.cache_version != runtime.index.version


async def test_a_fresh_process_on_the_same_redis_sees_the_catalog_as_it_is(
    live: Settings,
) -> None:
    """L2 holds results of the old generation; a runtime opened now keys on the new one."""
    async with Runtime(live) as runtime:
        hits = await _search(runtime, "classic varsity top large")
    assert DELETED not in hits
    assert hits[REPRICED] == pytest.approx(41.0 * 1.03, abs=0.01)


def _cli(live: Settings, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PICKWISE_VAR_DIR": str(live.var_dir), "HF_HUB_OFFLINE": "1"}
    return subprocess.run(
        [str(PICKWISE), "catalog", *args], env=env, capture_output=True, text=True, timeout=600
    )


async def test_the_cli_upserts_only_changed_rows_and_reports_bad_ones(
    live: Settings, tmp_path: Path
) -> None:
    async with Runtime(live) as runtime:
        assert (await _search(runtime, "olive green jacket"))[f"{SHOP}:olive-green-jacket"]
        same = stored(live, "antique-drawers").model_dump(mode="json", exclude_defaults=True)
        jacket = stored(live, "olive-green-jacket").model_dump(mode="json")
        rows: list[dict[str, Any]] = [
            same,
            {**jacket, "price": 12.5},
            {"id": "no-title", "shop": SHOP, "price": 3},
            {"id": "bad-price", "shop": SHOP, "title": "Broken", "price": "abc"},
            {"id": "new-lamp", "shop": SHOP, "title": "Rattan Floor Lamp", "price": 88},
        ]
        path = tmp_path / "changes.jsonl"
        path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
        done = _cli(live, "upsert", str(path), "--json")
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout)
        assert (report["upserted"], report["unchanged"], report["rejected"]) == (2, 1, 2)
        assert sorted(e["row"] for e in report["errors"]) == [3, 4]
        assert report["embedded"] == 1, "the repriced jacket's text was embedded by the build"
        again = json.loads(_cli(live, "upsert", str(path), "--json").stdout)
        assert (again["upserted"], again["unchanged"]) == (0, 3)

        gone = _cli(live, "delete", f"{SHOP}:new-lamp", "nowhere:nothing", "--json")
        assert gone.returncode == 0, gone.stderr
        deleted = json.loads(gone.stdout)
        assert (deleted["deleted"], deleted["rejected"]) == (1, 1)
        assert deleted["errors"][0]["item_id"] == "nowhere:nothing"
        assert _cli(live, "delete", "nowhere:nothing", "--json").returncode == 2
        bad = _cli(live, "delete", "no-shop-given")
        assert bad.returncode != 0
        assert "SHOP:ID" in bad.stderr + bad.stdout

        assert runtime.index.live is not None
        await runtime.index.live.refresh()  # the throttled check, due now
        jackets = await _search(runtime, "olive green jacket")
        assert jackets[f"{SHOP}:olive-green-jacket"] == pytest.approx(12.5 * 1.03, abs=0.01)
        assert runtime.index.item(f"{SHOP}:new-lamp") is None


async def test_a_new_item_is_found_by_both_recall_sources(live: Settings) -> None:
    async with Runtime(live) as runtime:
        writer = LiveWriter.open(live, runtime.index.embedder)
        lamp = stored(live, "antique-drawers").model_copy(
            update={"id": "brass-reading-lamp", "title": "Brass Reading Lamp", "price": 70.0}
        )
        report = writer.upsert([(lamp, "", 1)], actor="test")
        assert (report.upserted, report.embedded) == (1, 1)
        assert runtime.index.live is not None
        await runtime.index.live.refresh()
        lamp_id = f"{SHOP}:brass-reading-lamp"
        dense = await runtime.dense.recall("brass reading lamp", _no_filters(), top_k=5)
        lexical = await runtime.bm25.recall("brass reading lamp", _no_filters(), top_k=5)
        assert dense[0].item_id == lamp_id
        assert lexical[0].item_id == lamp_id
        assert runtime.index.manifest.platforms[SHOP] == len(
            [i for i in runtime.index.items if i.startswith(SHOP)]
        )


def test_a_demo_index_refuses_live_changes(built_index: Settings) -> None:
    from app.errors import ConfigError

    with pytest.raises(ConfigError, match="imported catalog"):
        LiveWriter.open(built_index)


def _no_filters() -> Any:
    from app.recall.filters import SearchFilters

    return SearchFilters()


async def test_similar_items_follow_live_changes(live: Settings) -> None:
    async with Runtime(live) as runtime:
        writer = LiveWriter.open(live, runtime.index.embedder)
        anchor = stored(live, "antique-drawers")
        twin = anchor.model_copy(update={"id": "antique-drawers-twin", "price": 99.0})
        writer.upsert([(twin, "", 1)], actor="test")
        assert runtime.index.live is not None
        await runtime.index.live.refresh()
        store, collection = runtime.index.store, runtime.index.collection
        anchor_id, twin_id = f"{SHOP}:antique-drawers", f"{SHOP}:antique-drawers-twin"
        near = await store.similar(collection, anchor_id, _no_filters(), limit=5)
        assert near[0].item_id == twin_id, "the new item with the same text is the nearest"
        assert anchor_id not in [h.item_id for h in near]
        left_out = await store.similar(
            collection, anchor_id, _no_filters(), limit=5, exclude=[twin_id]
        )
        assert twin_id not in [h.item_id for h in left_out]
        assert len(left_out) == 5
        writer.delete([(SHOP, "antique-drawers-twin")], actor="test")
        await runtime.index.live.refresh()
        after = await store.similar(collection, anchor_id, _no_filters(), limit=5)
        assert twin_id not in [h.item_id for h in after]
        assert [h.item_id for h in after] == [h.item_id for h in left_out]


async def test_new_live_items_join_the_lookups_built_from_the_item_table(live: Settings) -> None:
    """The speller, the facets and the model-code index of compare were built before the
    upsert; the new items are in them after it, without a rebuild."""
    from app.recall.matching_offers import OfferFinder

    async with Runtime(live) as runtime:
        index = runtime.index
        assert index.live is not None
        assert index.speller.word("zephyrime") is None, "not a catalog word yet"
        finder = OfferFinder.build(index)
        items_before = index.facets.items
        kinds_before = {c.value for c in index.facets.categories}
        assert kinds_before, "the built catalog has categories"
        template = stored(live, "antique-drawers")
        lamps = [
            template.model_copy(
                update={"id": f"zephyrine-{n}", "title": f"Zephyrine Lamp ZX-44{n}0 Brass"}
            )
            for n in range(3)
        ]
        writer = LiveWriter.open(live, index.embedder)
        writer.upsert([(lamp, "", n) for n, lamp in enumerate(lamps, start=1)], actor="test")
        await index.live.refresh()
        assert index.speller.word("zephyrime") == "zephyrine"
        assert index.facets.items == items_before + 3
        kinds_after = {c.value for c in index.facets.categories}
        assert kinds_before <= kinds_after, "facets recomputed after a change keep the build's"
        new = index.items[f"{SHOP}:zephyrine-1"]
        keys = finder.matcher.lookup_keys(new)
        assert keys, "the title carries a model code"
        assert new.item_id in finder.codes.item_ids(keys)
        writer.delete([(SHOP, f"zephyrine-{n}") for n in range(3)], actor="test")
        await index.live.refresh()
        assert index.facets.items == items_before
