"""A typed change a follow-up makes to the plan against the picks shown ("cheaper": a
ceiling below the first pick's price, "bigger": a size bound, "more ram": an amount of the
part), kept in the session beside the message so a replay makes it again."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["PlanChange"]


class PlanChange(BaseModel):
    """What a follow-up changes in the plan, in typed values (never text to read again)."""

    model_config = ConfigDict(frozen=True)

    budget_usd: float | None = Field(None, gt=0, description="A new ceiling in USD.")
    budget_amount: float | None = Field(
        None, gt=0, description="The ceiling in `currency`, the shop's currency of the pick."
    )
    currency: str = "USD"
    floor_usd: float | None = Field(None, gt=0, description="A new lowest price in USD.")
    size: str | None = Field(
        None,
        description="A size bound kept as a keyword ('at least 56 inch'), re-measuring "
        "the sizes asked before.",
    )
    part: str | None = Field(
        None,
        description="An amount of a part ('over 4gb ram') that replaces the vague words "
        "read for it ('more ram').",
    )
    vague: tuple[str, ...] = Field(
        (),
        description="The words the amount stands for ('more', 'ram'): terms made of "
        "them only give way to `part`.",
    )
