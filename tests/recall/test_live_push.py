"""Pushing acknowledged live changes to remote backends: each journal entry reaches each target
once and in order; a target that is down keeps its entries in the journal until it is back; a
restarted process resumes from the `pushed` mark; one process pushes a target at a time. The
targets are a recording fake at the process edge and the real embedded Qdrant store."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from app.catalog.item import Item
from app.catalog.offer_changes import Change
from app.catalog.offer_store import OfferStore
from app.catalog.schema import Offer
from app.config.registry import REGISTRY
from app.errors import DependencyDown
from app.recall._edge_store import EdgeVectorStore
from app.recall._qdrant_server_store import QdrantServerStore
from app.recall.live_push import LivePush, VectorTarget
from app.recall.vector_store import VectorPoint, VectorStore, item_payload

DIM = 8
SHOP = "corner-shop"


class Recording:
    """A target that records what it receives; `down` makes the next sends fail."""

    def __init__(self, name: str = "recording") -> None:
        self.name = name
        self.received: list[tuple[int, str, float | None]] = []
        self.down = 0

    async def send(self, changes: Sequence[Change]) -> None:
        if self.down:
            self.down -= 1
            raise DependencyDown("fake", "connection refused")
        for c in changes:
            self.received.append((c.seq, c.item_id, None if c.offer is None else c.offer.price))


def offer(offer_id: str, price: float) -> Offer:
    return Offer(id=offer_id, shop=SHOP, title=f"Kettle {offer_id}", price=price, currency="USD")


def vector(seed: int) -> np.ndarray:
    unit = np.random.default_rng(seed).normal(size=DIM).astype(np.float32)
    return unit / np.linalg.norm(unit)


def put(store: OfferStore, *offers: Offer) -> None:
    with store.live_update("test") as session:
        for n, o in enumerate(offers):
            session.put(o, vector(n + int(o.price or 0)))


def delete(store: OfferStore, offer_id: str) -> None:
    with store.live_update("test") as session:
        session.delete(SHOP, offer_id)


@pytest.fixture
def catalog(tmp_path: Path) -> OfferStore:
    return OfferStore(tmp_path / "catalog.sqlite")


def pusher(store: OfferStore, *targets: Recording | VectorTarget, since: int = 0) -> LivePush:
    return LivePush(store.feed(), list(targets), dimension=DIM, since=since)


async def test_each_entry_reaches_each_target_once_in_journal_order(catalog: OfferStore) -> None:
    a, b = Recording("a"), Recording("b")
    push = pusher(catalog, a, b)
    put(catalog, offer("k1", 10.0), offer("k2", 20.0))
    put(catalog, offer("k1", 12.0))
    delete(catalog, "k2")
    assert push.due()
    assert await push.push() == 8  # four entries, two targets
    expected: list[tuple[int, str, float | None]] = [
        (1, f"{SHOP}:k1", 10.0),
        (2, f"{SHOP}:k2", 20.0),
        (3, f"{SHOP}:k1", 12.0),
        (4, f"{SHOP}:k2", None),
    ]
    assert a.received == b.received == expected
    assert not push.due()
    assert await push.push() == 0
    assert a.received == expected
    assert push.backlog() == {"a": 0, "b": 0}


async def test_a_target_that_is_down_gets_its_entries_when_it_is_back(
    catalog: OfferStore,
) -> None:
    up, flaky = Recording("up"), Recording("flaky")
    flaky.down = 1
    push = pusher(catalog, up, flaky)
    put(catalog, offer("k1", 10.0))
    delete(catalog, "k1")
    await push.push()
    assert [seq for seq, _, _ in up.received] == [1, 2]
    assert flaky.received == []
    assert push.backlog() == {"up": 0, "flaky": 2}
    with REGISTRY.overridden(LIVE_PUSH_TIMEOUT_S=0.1):
        assert not push.due(), "no retry right after a failure"
        put(catalog, offer("k3", 30.0))
        await push.push()
    assert [seq for seq, _, _ in flaky.received] == [1, 2, 3]
    assert [seq for seq, _, _ in up.received] == [1, 2, 3]


async def test_a_restart_resumes_from_the_mark_and_sends_nothing_twice(
    catalog: OfferStore,
) -> None:
    first = Recording("target")
    push = pusher(catalog, first)
    put(catalog, offer("k1", 10.0))
    await push.push()
    push.close()
    put(catalog, offer("k2", 20.0))
    after = Recording("target")
    restarted = pusher(catalog, after)
    await restarted.push()
    assert [seq for seq, _, _ in first.received] == [1]
    assert [seq for seq, _, _ in after.received] == [2]


async def test_entries_a_build_folded_in_are_not_pushed(catalog: OfferStore) -> None:
    put(catalog, offer("k1", 10.0))
    put(catalog, offer("k2", 20.0))
    target = Recording()
    await pusher(catalog, target, since=1).push()
    assert [seq for seq, _, _ in target.received] == [2]


async def test_one_process_pushes_a_target_at_a_time(catalog: OfferStore) -> None:
    put(catalog, offer("k1", 10.0))
    holder, other = pusher(catalog, Recording("t")), pusher(catalog, Recording("t"))
    target = holder.targets[0]
    assert holder._claim(target)
    assert not other._claim(target)
    assert await other.push() == 0
    holder._release(target)
    assert await other.push() == 1


@pytest.mark.filterwarnings("ignore:Payload indexes have no effect:UserWarning")
@pytest.mark.parametrize("backend", ["qdrant-edge", "qdrant-memory"])
async def test_a_vector_store_takes_upserts_and_deletes(
    catalog: OfferStore, tmp_path: Path, backend: str
) -> None:
    """The embedded store, and the server store's code on qdrant-client's local engine."""
    store: VectorStore = (
        EdgeVectorStore(tmp_path / "vectors")
        if backend == "qdrant-edge"
        else QdrantServerStore.in_memory()
    )
    await store.ensure_collection("items", DIM)
    kept = Item.from_offer(offer("k0", 5.0))
    await store.upsert("items", [VectorPoint(kept.item_id, vector(0).tolist(), {})])
    push = pusher(catalog, VectorTarget(store, "items"))
    put(catalog, offer("k1", 10.0), offer("k2", 20.0))
    put(catalog, offer("k1", 15.0))
    delete(catalog, "k2")
    delete(catalog, "k0")
    await push.push()
    assert push.backlog() == {f"vector:{backend}:items": 0}
    found = await store.retrieve("items", [f"{SHOP}:k0", f"{SHOP}:k1", f"{SHOP}:k2"])
    assert [p.item_id for p in found] == [f"{SHOP}:k1"]
    assert dict(found[0].payload) == item_payload(Item.from_offer(offer("k1", 15.0)))
    assert np.allclose(found[0].vector, vector(15), atol=1e-5)
    assert await store.count("items") == 1
    await store.close()
