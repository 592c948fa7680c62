"""The relevance gate's reading of the catalog's product types: an item filed as the asked
product scores at least the shelf floor (the cross-encoder gave a Shuttle "Mini PC" 0.05
for "mini pc"); one filed as another kind of the asked machine sinks (a notebook for a
desktop)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from app.tools.picker._model import Gate, PickInputs, Pooled
from app.tools.search import on_rival_shelf, on_shelf


def shelf_floor(
    targets: Sequence[Pooled],
    scores: Sequence[float],
    product: str | None,
    *,
    shelf: float,
    floor: float,
) -> tuple[list[float], frozenset[str]]:
    """The scores with every item of the asked product type at least `shelf`, and the ids
    that this saved from sinking below `floor`."""
    if product is None or shelf <= 0 or len(scores) != len(targets):
        return list(scores), frozenset()
    out, saved = [], set()
    for pooled, score in zip(targets, scores, strict=True):
        if score < shelf and on_shelf(pooled.item, product):
            if score < floor:
                saved.add(pooled.item.item_id)
            score = shelf
        out.append(float(score))
    return out, frozenset(saved)


def misfile(gate: Gate, inputs: PickInputs, pool: Sequence[Pooled]) -> Gate:
    """Sink the scored items the catalog files as another kind of the asked machine (the
    cross-encoder scored notebooks up to 0.73 for "desktop")."""
    if not gate.on or not inputs.category:
        return gate
    rivals = frozenset(
        p.item.item_id
        for p in pool
        if p.item.item_id in gate.scores and on_rival_shelf(p.item, inputs.category)
    )
    if not rivals:
        return gate
    return dataclasses.replace(gate, sunk=gate.sunk | rivals, misfiled=gate.misfiled | rivals)
