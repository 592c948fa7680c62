"""Hand-made catalog items and slot candidates for the item_picker stage tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.catalog.item import Item
from app.tools.candidates import Candidate
from app.tools.picker._filter import hard_filter, prepare
from app.tools.picker._model import Filtered, PickInputs
from app.tools.plan.shopping_plan import ShoppingPlan


def item(n: int, title: str, price: float | None = 10.0, **fields: Any) -> Item:
    """A catalog item with id `<platform>:<n>` (platform amazon unless given)."""
    fields.setdefault("platform", "amazon")
    return Item(
        item_id=f"{fields['platform']}:{n}", title=title, price_usd=price, source="test", **fields
    )


def candidates(items: Sequence[Item], query: str = "query", slot: str = "main") -> list[Candidate]:
    """Candidates in the given order, recall scores falling with rank."""
    return [
        Candidate(item_id=it.item_id, slot=slot, query=query, recall_score=1.0 / (60 + r), rank=r)
        for r, it in enumerate(items, start=1)
    ]


def inputs_for(
    items: Sequence[Item],
    plan: ShoppingPlan | None = None,
    *,
    query: str = "query",
    slot: str = "main",
    **options: Any,
) -> PickInputs:
    """Stage 1 over `items` as the slot's candidates."""
    return prepare(
        plan or ShoppingPlan(),
        slot,
        candidates(items, query, slot),
        {i.item_id: i for i in items},
        **options,
    )


def filtered_for(items: Sequence[Item], plan: ShoppingPlan | None = None, **kw: Any) -> Filtered:
    """Stages 1 and 2 over `items`."""
    return hard_filter(inputs_for(items, plan, **kw))
