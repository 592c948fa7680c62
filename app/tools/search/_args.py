"""item_search arguments as the model sends them, and the `SearchScope` they resolve to at
call time once the session plan (budget, platforms, hard excludes) and the caps are applied."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from app.catalog.item import PLATFORMS
from app.config.params.item_search import ITEM_SEARCH_NEAR_PRICE_FLOOR
from app.recall.filters import SearchFilters, brand_key
from app.tools.candidates import DEFAULT_SLOT
from app.tools.plan import ShoppingPlan, current_vocabulary
from app.tools.terms import Term, make_term, make_terms

PlatformChoice = str
BudgetSource = Literal["args", "slot", "plan"]


class ItemSearchArgs(BaseModel):
    """What the model may ask item_search for; anything else is rejected."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    query: str = Field(
        min_length=1,
        max_length=300,
        description="Product words to search for, e.g. 'noise cancelling headphones'. "
        "Short and concrete works best; leave budget and brand to their own fields.",
    )
    platform: PlatformChoice | list[PlatformChoice] | None = Field(
        None,
        description="One platform, a list of platforms, or 'all'. "
        "Default: the platforms of the shopping plan, else all.",
    )
    top_k: int | None = Field(
        None, ge=1, description="How many items to return (the server caps it)."
    )
    price_usd_max: float | None = Field(
        None,
        gt=0,
        allow_inf_nan=False,
        description="Highest price in USD. Default: the slot's budget, else the plan's budget.",
    )
    price_usd_min: float | None = Field(
        None,
        gt=0,
        allow_inf_nan=False,
        description="Lowest price in USD. Default: the plan's price floor, for a plan without a "
        "bundle.",
    )
    min_rating: float | None = Field(
        None, ge=0, le=5, allow_inf_nan=False, description="Lowest rating, 0 to 5."
    )
    brand: str | None = Field(
        None, min_length=1, max_length=80, description="Only items of this brand."
    )
    brand_exclude: list[str] = Field(
        default_factory=list, max_length=20, description="Brands the shopper does not want."
    )
    model_number: str | None = Field(
        None,
        min_length=2,
        max_length=64,
        description="A model or part number the item must carry, e.g. 'WH-1000XM4'.",
    )
    product: str | None = Field(
        None,
        min_length=1,
        max_length=80,
        description="The product this search is for, as the plan names it (e.g. 'laptop "
        "sleeve'). Default: the plan's product for the slot when the query names it.",
    )
    slot: str = Field(
        DEFAULT_SLOT,
        min_length=1,
        max_length=40,
        description="Which part of a multi-item request this search is for (default 'main').",
    )

    @field_validator("platform", mode="before")
    @classmethod
    def _lower_platforms(cls, value: Any) -> Any:
        if isinstance(value, str):
            return value.strip().lower()
        if isinstance(value, list):
            return [v.strip().lower() if isinstance(v, str) else v for v in value]
        return value

    @field_validator("brand_exclude")
    @classmethod
    def _clean_brands(cls, value: list[str]) -> list[str]:
        cleaned = [" ".join(b.split()) for b in value]
        if any(not b for b in cleaned):
            raise ValueError("brand_exclude entries must not be blank")
        return list(dict.fromkeys(cleaned))

    @model_validator(mode="after")
    def _brand_not_excluded(self) -> ItemSearchArgs:
        if self.brand and brand_key(self.brand) in {brand_key(b) for b in self.brand_exclude}:
            raise ValueError(f"brand {self.brand!r} is also in brand_exclude; drop one of them")
        if isinstance(self.platform, list) and not self.platform:
            raise ValueError("platform list is empty; omit it or use 'all'")
        low, high = self.price_usd_min, self.price_usd_max
        if low is not None and high is not None and low > high:
            raise ValueError(f"price_usd_min {low:g} is above price_usd_max {high:g}")
        return self


@dataclass(frozen=True)
class SearchScope:
    """The constraints one search runs under, resolved from the arguments and the plan."""

    query: str
    slot: str
    top_k: int
    requested_top_k: int
    platforms: tuple[str, ...] = ()
    price_max: float | None = None
    budget_source: BudgetSource | None = None
    price_min: float | None = None
    min_rating: float | None = None
    brand: str | None = None
    brand_exclude: tuple[str, ...] = ()
    exclude_terms: tuple[str, ...] = ()
    model_number: str | None = None
    floor_set_aside: float | None = None
    """The price floor asked or planned, when the ceiling in force sits below it (not applied)."""
    product: str | None = None
    """The product the search asks for, typed (given, or the plan's): never read off the query."""
    near_floor: float | None = None
    """A soft floor under a price said as approximate ("around $1500"): what is found above
    it goes first, the search at any price follows; never told as a block."""

    @property
    def top_k_capped(self) -> bool:
        return self.top_k < self.requested_top_k

    @property
    def has_hard_filters(self) -> bool:
        """True when a filter that can hide matching items is set (platform is a scope)."""
        return any(
            (
                self.price_max is not None,
                self.price_min is not None,
                self.min_rating is not None,
                self.brand,
                self.brand_exclude,
                self.exclude_terms,
            )
        )

    def filters(self) -> SearchFilters:
        """The payload filters the stores apply: platforms, price, rating and brands."""
        return SearchFilters.build(
            platforms=self.platforms,
            price_min=self.price_min if self.price_min is not None else self.near_floor,
            price_max=self.price_max,
            rating_min=self.min_rating,
            brands_in=[self.brand] if self.brand else (),
            brands_out=self.brand_exclude,
        )

    def probe_filters(self) -> SearchFilters:
        """The platform scope alone: what a search without the hard filters would see."""
        return SearchFilters.build(platforms=self.platforms)

    def without_rating(self) -> SearchScope:
        """This scope with min_rating lifted (the relaxed search)."""
        return replace(self, min_rating=None)

    def without_near_floor(self) -> SearchScope:
        """This scope searched at any price under the ceiling."""
        return replace(self, near_floor=None)


def resolve_scope(
    args: ItemSearchArgs, plan: ShoppingPlan, *, default_top_k: int, max_top_k: int
) -> SearchScope:
    """Apply the plan's defaults and the top_k cap in force now to `args`."""
    requested = args.top_k if args.top_k is not None else default_top_k
    price_max, source = _budget(args, plan)
    floor = _price_floor(args, plan)
    set_aside = floor is not None and price_max is not None and floor > price_max
    return SearchScope(
        query=args.query,
        slot=args.slot,
        top_k=max(1, min(requested, max_top_k)),
        requested_top_k=requested,
        platforms=_platforms(args.platform, plan),
        price_max=price_max,
        budget_source=source,
        price_min=None if set_aside else floor,
        min_rating=args.min_rating,
        brand=args.brand,
        brand_exclude=tuple(args.brand_exclude),
        exclude_terms=tuple(dict.fromkeys(t.strip().lower() for t in plan.exclude_terms if t)),
        model_number=args.model_number,
        floor_set_aside=floor if set_aside else None,
        near_floor=_near_floor(plan, floor, source),
    )


def _near_floor(
    plan: ShoppingPlan, floor: float | None, source: BudgetSource | None
) -> float | None:
    """The soft floor under the plan's approximate price, where the plan's budget is the
    search's and no floor is set."""
    share = ITEM_SEARCH_NEAR_PRICE_FLOOR.get()
    target = plan.budget_target_usd
    if target is None or floor is not None or source != "plan" or share <= 0:
        return None
    return round(target * share, 2)


def _platforms(
    asked: PlatformChoice | list[PlatformChoice] | None, plan: ShoppingPlan
) -> tuple[str, ...]:
    if asked is None:
        chosen = [p.strip().lower() for p in plan.platforms]
    else:
        chosen = [asked] if isinstance(asked, str) else list(asked)
    if not chosen or "all" in chosen:
        return ()
    return tuple(p for p in PLATFORMS if p in chosen) + tuple(
        sorted({p for p in chosen if p not in PLATFORMS})
    )


def _price_floor(args: ItemSearchArgs, plan: ShoppingPlan) -> float | None:
    """The asked floor, else the plan's for a plan without a bundle (a range is about one
    product)."""
    if args.price_usd_min is not None or plan.bundle:
        return args.price_usd_min
    return plan.budget_min_usd


def _budget(args: ItemSearchArgs, plan: ShoppingPlan) -> tuple[float | None, BudgetSource | None]:
    if args.price_usd_max is not None:
        return args.price_usd_max, "args"
    for slot in plan.bundle:
        if slot.slot == args.slot and slot.budget_usd is not None:
            return slot.budget_usd, "slot"
    if plan.budget_usd is not None:
        return plan.budget_usd, "plan"
    return None, None


def stated_terms(plan: ShoppingPlan) -> tuple[Term, ...]:
    """What a hit must state: the must-haves and the keywords that are specs alone ("4k")
    or the catalog's brands ("razer")."""
    brands = current_vocabulary().brands
    asked = [k for k in plan.keywords if k in brands or _spec_only(k)]
    return make_terms([*plan.must_have, *asked])


def _spec_only(text: str) -> bool:
    return (term := make_term(text)) is not None and bool(term.specs) and not term.words


def planned_category(plan: ShoppingPlan, slot: str) -> str | None:
    """The category the plan gives the slot: its bundle slot's, else the plan's."""
    for part in plan.bundle:
        if part.slot == slot:
            return part.category or None
    return plan.category or None
