"""Labelled shopping requests against an imported catalog (the Myntra fashion proof): each
request runs as a chat turn scoped to one shop, and every pick is checked against the asked
kind, colour, gender, budget (in the currency said) and exclusions."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app.agent.chat import ShoppingAgent, collect
from app.agent.events import PickView, TurnSummary

__all__ = ["Budget", "LabelledRequest", "RequestOutcome", "load_requests", "run_requests", "score"]


class Budget(BaseModel):
    """A ceiling as the shopper said it."""

    model_config = ConfigDict(frozen=True)

    amount: float = Field(gt=0)
    currency: str


class LabelledRequest(BaseModel):
    """One request and what every pick for it must be."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    split: str
    request: str
    kind: list[str] = Field(min_length=1)
    colour: str | None = None
    gender: str | None = None
    budget: Budget | None = None
    exclude_brands: list[str] = Field(default_factory=list)
    exclude_words: list[str] = Field(default_factory=list)
    follow_up: str | None = None


@dataclass
class RequestOutcome:
    """The picks of a request's first turn and of its follow-up, if any."""

    request: LabelledRequest
    picks: list[PickView]
    follow_picks: list[PickView] = field(default_factory=list)


def load_requests(path: Path) -> list[LabelledRequest]:
    """The labelled requests of a JSON file (`{"requests": [...]}`)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return [LabelledRequest.model_validate(r) for r in data["requests"]]


async def run_requests(
    agent: ShoppingAgent, requests: Sequence[LabelledRequest], shops: tuple[str, ...]
) -> list[RequestOutcome]:
    """Each request as a fresh session scoped to `shops`, and its follow-up in the same one."""
    agent.shops = shops
    out = []
    for req in requests:
        first: TurnSummary = await collect(agent.run_turn(None, req.request))
        outcome = RequestOutcome(req, list(first.picks))
        if req.follow_up:
            then = await collect(agent.run_turn(first.session_id, req.follow_up))
            outcome.follow_picks = list(then.picks)
        out.append(outcome)
    return out


def _names_kind(title: str, kind: str) -> bool:
    """The kind as a whole word of the title, plural allowed ("shirt" is no "t-shirt")."""
    return re.search(rf"(?<![\w-]){re.escape(kind)}(?:s|es)?(?![\w-])", title.lower()) is not None


def _fits_gender(pick: PickView, asked: str) -> bool:
    said = (pick.attributes.get("gender") or "").lower()
    kids = asked in {"boys", "girls"}
    return said == asked or said == ("unisex kids" if kids else "unisex")


def _fits_colour(pick: PickView, asked: str) -> bool:
    return asked in (pick.attributes.get("color") or "").lower() or asked in pick.title.lower()


def _over_budget(pick: PickView, budget: Budget) -> bool:
    if pick.currency == budget.currency and pick.price is not None:
        return pick.price > budget.amount
    if budget.currency == "USD":
        return pick.price_usd is None or pick.price_usd > budget.amount
    return True


def _excluded(pick: PickView, req: LabelledRequest) -> bool:
    brand = (pick.brand or "").lower()
    title = pick.title.lower()
    named = any(b.lower() == brand or title.startswith(b.lower() + " ") for b in req.exclude_brands)
    return named or any(w.lower() in title for w in req.exclude_words)


def score(outcomes: Sequence[RequestOutcome]) -> dict[str, Any]:
    """Shares of picks of the asked kind, colour and gender; budget and exclusion violations
    (every pick, follow-ups included); follow-ups that were not cheaper."""
    picks = kind = colour = colour_n = gender = gender_n = 0
    over = excluded = no_pick = not_cheaper = 0
    for o in outcomes:
        req = o.request
        if not o.picks:
            no_pick += 1
        for pick in [*o.picks, *o.follow_picks]:
            picks += 1
            kind += any(_names_kind(pick.title, k) for k in req.kind)
            if req.colour:
                colour_n += 1
                colour += _fits_colour(pick, req.colour)
            if req.gender:
                gender_n += 1
                gender += _fits_gender(pick, req.gender)
            over += req.budget is not None and _over_budget(pick, req.budget)
            excluded += _excluded(pick, req)
        if o.follow_picks and o.picks and o.picks[0].price is not None:
            top = o.picks[0].price
            not_cheaper += sum(1 for p in o.follow_picks if p.price is None or p.price >= top)
    return {
        "requests": len(outcomes),
        "picks": picks,
        "without_picks": no_pick,
        "kind_share": round(kind / picks, 3) if picks else None,
        "colour_share": round(colour / colour_n, 3) if colour_n else None,
        "gender_share": round(gender / gender_n, 3) if gender_n else None,
        "budget_violations": over,
        "exclusion_violations": excluded,
        "follow_ups_not_cheaper": not_cheaper,
    }
