"""The behaviour every `SessionStore` must show; backend classes inherit the contract and
provide an async `store` fixture over an empty store."""

from __future__ import annotations

import asyncio

import pytest

from app.agent.events import PickView
from app.agent.session import Session, SessionStore
from app.config.registry import REGISTRY
from app.errors import InvalidRequest
from app.tools.candidates import Candidate
from app.tools.plan.shopping_plan import BundleSlot, Constraint, ShoppingPlan


def full_session(session_id: str = "s-1") -> Session:
    """A session with every field filled, as after a few turns."""
    session = Session(
        session_id=session_id,
        plan=ShoppingPlan(
            category="gaming keyboard",
            keywords=("quiet",),
            exclude=(Constraint(term="logitech", evidence="not Logitech"),),
            budget_usd=80.0,
            budget_amount=80.0,
            bundle=(BundleSlot(slot="mouse", category="mouse", budget_usd=30.0),),
            platforms=("amazon",),
        ),
    )
    session.begin_turn("a quiet gaming keyboard under $80, not Logitech")
    session.candidates.replace(
        "main",
        [Candidate(item_id="amazon:1", query="gaming keyboard", recall_score=0.5, rank=1)],
    )
    session.picks = [
        PickView(item_id="amazon:1", title="K1", platform="amazon", price_usd=59.0, reason="quiet")
    ]
    session.end_turn("a quiet gaming keyboard under $80, not Logitech", "[amazon:1] K1 …")
    return session


class SessionStoreContract:
    """Inherit and provide an async `store` fixture yielding an empty `SessionStore`."""

    async def test_satisfies_the_protocol(self, store: SessionStore) -> None:
        assert isinstance(store, SessionStore)
        assert isinstance(store.name, str)
        assert isinstance(store.remote, bool)

    async def test_an_unknown_session_is_absent(self, store: SessionStore) -> None:
        assert await store.get("never-saved") is None
        assert await store.ttl("never-saved") is None
        assert await store.delete("never-saved") is False

    async def test_a_saved_session_comes_back_whole(self, store: SessionStore) -> None:
        session = full_session()
        await store.save(session)
        loaded = await store.get("s-1")
        assert loaded == session
        assert loaded is not session
        assert loaded.plan is not None
        assert loaded.plan.exclude_terms == ("logitech",)
        assert loaded.candidates.slot("main")[0].item_id == "amazon:1"

    async def test_the_stored_copy_is_independent_of_the_caller(self, store: SessionStore) -> None:
        session = full_session()
        await store.save(session)
        session.begin_turn("a mouse instead")
        session.candidates.clear()
        loaded = await store.get("s-1")
        assert loaded is not None
        assert loaded.turns == 1
        assert loaded.candidates.slots() == ["main"]

    async def test_a_save_starts_the_ttl_and_a_later_save_restarts_it(
        self, store: SessionStore
    ) -> None:
        with REGISTRY.overridden(SESSION_TTL_S=100):
            await store.save(full_session())
            first = await store.ttl("s-1")
        assert first is not None
        assert 0 < first <= 100
        with REGISTRY.overridden(SESSION_TTL_S=5000):
            await store.save(full_session())
            second = await store.ttl("s-1")
        assert second is not None
        assert 100 < second <= 5000

    async def test_a_session_expires_after_its_ttl(self, store: SessionStore) -> None:
        with REGISTRY.overridden(SESSION_TTL_S=1):
            await store.save(full_session("short"))
        await store.save(full_session("long"))
        await asyncio.sleep(1.3)
        assert await store.get("short") is None
        assert await store.ttl("short") is None
        assert await store.get("long") is not None

    async def test_delete_forgets_a_session(self, store: SessionStore) -> None:
        await store.save(full_session("a"))
        await store.save(full_session("b"))
        assert await store.delete("a") is True
        assert await store.get("a") is None
        assert await store.delete("a") is False
        assert await store.get("b") is not None

    @pytest.mark.parametrize("bad", ["", "has space", "slash/es", "x" * 300])
    async def test_a_malformed_session_id_is_rejected(self, store: SessionStore, bad: str) -> None:
        with pytest.raises(InvalidRequest, match="session id"):
            await store.save(full_session(bad))
