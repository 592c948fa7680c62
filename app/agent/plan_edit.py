"""A shopper's direct edit of the plan P_t (a chip removed on the chat page): the typed
edit, and how a held edit is applied to the plan the planner rebuilds each turn from the
messages, until the shopper's own words change that part of the plan again."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Annotated, Any, Protocol, runtime_checkable

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    StringConstraints,
    model_serializer,
    model_validator,
)

from app.agent.events import TurnEvent
from app.errors import InvalidRequest
from app.tools.plan import BundleSlot, ShoppingPlan

if TYPE_CHECKING:
    from app.agent.session_access import SessionAccess

__all__ = ["HeldPlanEdit", "PlanEdit", "PlanEditor", "apply_held_edit", "hold_edit"]

Term = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
Amount = Annotated[float, Field(gt=0, le=1_000_000)]
# A shop name is open (the catalog names its shops); an edit may only name a non-empty one.
Shop = Term
_OPTIONAL = ("budget_usd", "budget_min_usd", "platforms", "in_stock")


class PlanEdit(BaseModel):
    """What to change in the plan. A budget, shop scope or stock wish given as null clears
    it; terms listed under `drop_*` are taken out of the must-haves or the exclusions."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    budget_usd: Amount | None = Field(None, description="Highest price in USD; null: none.")
    budget_min_usd: Amount | None = Field(None, description="Lowest price in USD; null: none.")
    drop_must_have: tuple[Term, ...] = Field((), max_length=20)
    drop_exclude: tuple[Term, ...] = Field((), max_length=20)
    platforms: tuple[Shop, ...] | None = Field(
        None, max_length=50, description="Shops to search; null or []: every shop."
    )
    in_stock: bool | None = Field(
        None, description="True: only items in stock now; false or null: any availability."
    )

    @model_validator(mode="after")
    def _not_empty(self) -> PlanEdit:
        if not (self.drop_must_have or self.drop_exclude or self.given()):
            raise ValueError("the edit changes nothing")
        low, high = self.budget_min_usd, self.budget_usd
        if low is not None and high is not None and low > high:
            raise ValueError("budget_min_usd is above budget_usd")
        return self

    @model_serializer(mode="wrap")
    def _set_fields_only(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """An unset optional field is left out, so a stored edit read back still leaves it
        alone (a stored null would clear it)."""
        data: dict[str, Any] = handler(self)
        return {k: v for k, v in data.items() if k not in _OPTIONAL or k in self.model_fields_set}

    def given(self) -> dict[str, Any]:
        """The optional fields the edit sets (null included), by name."""
        return {name: getattr(self, name) for name in _OPTIONAL if name in self.model_fields_set}

    def merged(self, later: PlanEdit) -> PlanEdit:
        """This edit followed by `later`: later values win, dropped terms add up."""
        return PlanEdit.model_validate(
            {
                **self.given(),
                **later.given(),
                "drop_must_have": tuple(dict.fromkeys(self.drop_must_have + later.drop_must_have)),
                "drop_exclude": tuple(dict.fromkeys(self.drop_exclude + later.drop_exclude)),
            }
        )

    def describe(self) -> str:
        """The edit in words, as the turn it starts records it."""
        parts = []
        for name, value in self.given().items():
            if name == "in_stock":
                parts.append("in stock only" if value else "any availability")
            else:
                shown = "none" if value in (None, ()) else value
                parts.append(f"{name.removesuffix('_usd').replace('_', ' ')}: {shown}")
        parts += [f"without must-have {t!r}" for t in self.drop_must_have]
        parts += [f"no longer excluding {t!r}" for t in self.drop_exclude]
        return "Plan edited (" + "; ".join(parts) + "). Search again with this plan."


class HeldPlanEdit(BaseModel):
    """An edit kept in the session with `basis`, the planner's own plan it was made against."""

    edit: PlanEdit
    basis: ShoppingPlan


@runtime_checkable
class PlanEditor(Protocol):
    """An agent that can run a turn on an edited plan (no new message)."""

    def edit_plan(self, reach: SessionAccess | str, edit: PlanEdit) -> AsyncIterator[TurnEvent]:
        """Hold `edit` in the session `reach` names (a trusted id, or a caller's access) and
        stream a turn that searches again with it."""
        ...


def hold_edit(held: HeldPlanEdit | None, shown: ShoppingPlan, edit: PlanEdit) -> HeldPlanEdit:
    """The held edit after `edit`, checked against `shown` (the session's plan as the
    shopper sees it): dropping a term the plan does not have is an `InvalidRequest`."""
    missing = [t for t in edit.drop_must_have if t.lower() not in _lower(shown.must_have)]
    missing += [t for t in edit.drop_exclude if t.lower() not in _lower(shown.exclude_terms)]
    if missing:
        raise InvalidRequest("the plan has no such must-have or exclusion: " + ", ".join(missing))
    if held is None:
        return HeldPlanEdit(edit=edit, basis=shown)
    return HeldPlanEdit(edit=held.edit.merged(edit), basis=held.basis)


def apply_held_edit(
    held: HeldPlanEdit | None,
    planned: ShoppingPlan,
    said: str | None,
    shown: ShoppingPlan | None = None,
) -> tuple[ShoppingPlan, HeldPlanEdit | None]:
    """`planned` (rebuilt from the messages, seeded with `shown`, the plan the shopper saw)
    with what still holds of the edit, and the edit that holds on. A budget, shop scope or
    stock wish the messages changed since the edit (neither the planner's own value nor the
    one shown), or a dropped term the new message `said` names again, is the shopper's word
    again."""
    if held is None:
        return planned, None
    basis, edit = held.basis, held.edit

    def unchanged(name: str) -> bool:
        value = getattr(planned, name)
        seeded = shown is not None and value == getattr(shown, name)
        return value == getattr(basis, name) or seeded

    kept = {k: v for k, v in edit.given().items() if unchanged(k)}
    words = (said or "").lower()
    must = tuple(t for t in edit.drop_must_have if t.lower() not in words)
    exclude = tuple(t for t in edit.drop_exclude if t.lower() not in words)
    if not (kept or must or exclude):
        return planned, None
    still = PlanEdit.model_validate({**kept, "drop_must_have": must, "drop_exclude": exclude})
    return apply_edit(planned, still), HeldPlanEdit(edit=still, basis=planned)


def apply_edit(plan: ShoppingPlan, edit: PlanEdit) -> ShoppingPlan:
    """`plan` with `edit` applied; bundle parts lose the dropped must-haves too."""
    update: dict[str, Any] = {}
    given = edit.given()
    if "budget_usd" in given:
        update |= {"budget_usd": given["budget_usd"], "budget_amount": given["budget_usd"]}
        update["budget_target_usd"] = None
        update["currency"] = "USD"
    if "budget_min_usd" in given:
        update["budget_min_usd"] = given["budget_min_usd"]
    if "platforms" in given:
        update["platforms"] = tuple(given["platforms"] or ())
    if "in_stock" in given:
        update["in_stock"] = bool(given["in_stock"])
    dropped = _lower(edit.drop_must_have)
    if dropped:
        update["must_have"] = tuple(t for t in plan.must_have if t.lower() not in dropped)
        update["bundle"] = tuple(_without(slot, dropped) for slot in plan.bundle)
    gone = _lower(edit.drop_exclude)
    if gone:
        update["exclude"] = tuple(c for c in plan.exclude if c.term.lower() not in gone)
    return plan.model_copy(update=update)


def _without(slot: BundleSlot, dropped: frozenset[str]) -> BundleSlot:
    return slot.model_copy(
        update={"must_have": tuple(t for t in slot.must_have if t.lower() not in dropped)}
    )


def _lower(terms: tuple[str, ...]) -> frozenset[str]:
    return frozenset(t.lower() for t in terms)
