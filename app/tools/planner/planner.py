"""The planner tool: P_t from the recent user messages. With an LLM, one structured-output call
(repaired once with its validation error; the model adapter negotiates the output form), then
the rules; the rules always decide what they do best (budget, currency, negations with their
evidence) and platform mentions."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.catalog.item import PLATFORMS
from app.catalog.spelling import Respelling, Speller
from app.config.params.agent import PLANNER_LLM_REPAIRS
from app.config.params.planner import PLANNER_MAX_MESSAGE_CHARS
from app.errors import DependencyDown
from app.language.shops import ShopNames
from app.recall.offload import offload
from app.tools.base import ToolContext, ToolResult
from app.tools.llm import PLANNER, ChatModel, Message, fallback_note
from app.tools.plan import (
    BundleSlot,
    PlanChange,
    RulesReading,
    ShoppingPlan,
    note_reading,
    one_reading,
    read_plan,
)

__all__ = [
    "DEMO_SHOPS",
    "PlannerArgs",
    "PlannerResult",
    "PlannerTool",
    "merge_plans",
    "platform_scope",
]

log = logging.getLogger(__name__)

PlanSource = Literal["llm", "llm_repaired", "rules"]
UserMessage = Annotated[str, Field(min_length=1, max_length=20_000)]

SYSTEM_PROMPT = (
    "You turn a shopper's recent messages (oldest first) into a shopping plan: one JSON "
    "object of the given schema, nothing else. category: the product asked for most recently "
    "('gaming keyboard'). keywords: short descriptive words the shopper used. must_have: "
    "required features; prefer: nice-to-haves. exclude: what the shopper ruled out (term, "
    "and evidence quoting their exact words); avoid: soft dislikes. budget_usd, "
    "budget_amount and currency only from a number the shopper wrote. bundle: one slot per "
    "product when several are wanted together, with the must_have said of that product "
    "alone. platforms: the catalog's shops (named below) the shopper "
    "limited the search to; empty means all. is_shopping: "
    "false for small talk or questions that are not about buying. A later message overrides "
    "an earlier one and may lift a constraint."
)

DEMO_SHOPS = ShopNames.of(PLATFORMS)
"""The shop names read when no catalog names its own (the demo catalog's shops)."""


class PlannerArgs(BaseModel):
    """The recent user messages, oldest first (the latest last)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    messages: list[UserMessage] = Field(min_length=1, max_length=50)
    changes: list[PlanChange | None] = Field(
        default_factory=list,
        max_length=50,
        description="The typed change each message's follow-up made, by position.",
    )


class PlannerResult(ToolResult):
    """The plan, where it came from, and whether the latest message alone is about shopping."""

    plan: ShoppingPlan
    source: PlanSource
    turn_is_shopping: bool
    notes: list[str] = Field(default_factory=list)
    respelled: list[Respelling] = Field(default_factory=list)
    """Words of the latest message read as other words ("hedphones" as "headphones")."""
    latest: ShoppingPlan = Field(default_factory=ShoppingPlan)
    """What the latest message says alone (the rules' reading of it): what a follow-up asks."""

    def render(self) -> str:
        return f"plan ({self.source}): " + self.plan.model_dump_json(exclude_defaults=True)


class PlannerTool:
    """Builds P_t; the session's current plan (`ctx.plan`) seeds the rules unless it is empty.
    With a speller, the rules read misspelt words as the words meant; the LLM reads the
    messages as written."""

    name: ClassVar[str] = "planner"
    description: ClassVar[str] = "Rebuild the shopping plan from the shopper's recent messages."
    args_model: ClassVar[type[BaseModel]] = PlannerArgs
    concurrency_safe: ClassVar[bool] = True
    terminal: ClassVar[bool] = False

    def __init__(
        self,
        model: ChatModel | None = None,
        *,
        speller: Speller | None = None,
        catalog: str = "",
        shops: ShopNames = DEMO_SHOPS,
    ) -> None:
        self.model = model
        self.speller = speller
        self.shops = shops
        """The catalog's shops and the names that scope a search to them."""
        self.catalog = catalog
        """The catalog's brief, told to the LLM so platforms name this catalog's shops."""

    async def run(self, args: PlannerArgs, ctx: ToolContext) -> PlannerResult:
        with one_reading():  # the rules' reading and the LLM's draft make one plan
            return await self._plan(args, ctx)

    async def _plan(self, args: PlannerArgs, ctx: ToolContext) -> PlannerResult:
        previous = None if ctx.plan == ShoppingPlan() else ctx.plan
        reading, rules, respelled = await offload(
            self._rules, args.messages, previous, args.changes
        )
        turn_is_shopping = reading.latest_is_shopping
        notes = [f"read {r.written!r} as {r.read_as!r}" for r in respelled]
        drafted: ShoppingPlan | None = None
        source: PlanSource = "rules"
        if self.model is not None:
            drafted, source = await self._draft(self.model, args.messages, previous, notes)
        plan = rules if drafted is None else merge_plans(drafted, rules, self.shops.shops)
        return PlannerResult(
            plan=plan,
            source=source,
            turn_is_shopping=turn_is_shopping,
            notes=notes,
            respelled=list(respelled),
            latest=reading.latest,
        )

    def _rules(
        self,
        messages: Sequence[str],
        previous: ShoppingPlan | None,
        changes: Sequence[PlanChange | None],
    ) -> tuple[RulesReading, ShoppingPlan, tuple[Respelling, ...]]:
        """The rules' one reading, its plan scoped to the shops named, and the latest
        message's respelt words (CPU-bound: run off the event loop)."""
        read, respelled = self._read(messages)
        reading = read_plan(read, previous=previous, changes=changes)
        platforms = self.shops.scope(messages, previous.platforms if previous else ())
        return reading, _with_platforms(reading.plan, platforms, self.shops.words), respelled

    def _read(self, messages: Sequence[str]) -> tuple[list[str], tuple[Respelling, ...]]:
        """The messages as the rules read them (the first PLANNER_MAX_MESSAGE_CHARS of each),
        and the latest one's respelt words."""
        if self.speller is None:
            return list(messages), ()
        cap = PLANNER_MAX_MESSAGE_CHARS.get()
        repaired = [self.speller.text(m[:cap]) for m in messages]
        return [text for text, _ in repaired], repaired[-1][1]

    async def _draft(
        self,
        model: ChatModel,
        messages: Sequence[str],
        previous: ShoppingPlan | None,
        notes: list[str],
    ) -> tuple[ShoppingPlan | None, PlanSource]:
        """The LLM's plan, with up to `PLANNER_LLM_REPAIRS` repairs; None: use the rules (the
        model failed, answered nothing usable, or never validated: all `DependencyDown`)."""
        note_reading()
        try:
            reply = await model.structured(
                _prompt(messages, previous, self.catalog),
                schema=ShoppingPlan.model_json_schema(),
                schema_name="shopping_plan",
                parse=_parse_plan,
                repairs=PLANNER_LLM_REPAIRS.get(),
            )
        except DependencyDown as exc:
            log.info("LLM planner gave no plan (%s); using the rules", exc)
            notes.append(fallback_note(PLANNER, exc, "rules"))
            return None, "rules"
        notes += [f"LLM plan attempt {n} invalid: {p}" for n, p in enumerate(reply.problems, 1)]
        return reply.value, "llm_repaired" if reply.problems else "llm"


def merge_plans(
    drafted: ShoppingPlan, rules: ShoppingPlan, shops: Sequence[str] = PLATFORMS
) -> ShoppingPlan:
    """The LLM's plan with the rules' budget, currency, negations and platform scope laid
    over it; a positive term the rules ruled out is dropped, and so is a shop not in `shops`."""
    ruled_out = {*rules.exclude_terms, *rules.avoid_terms}
    ruled_words = {w for term in ruled_out for w in term.split()}

    def positive(terms: Sequence[str], extra: Sequence[str] = ()) -> tuple[str, ...]:
        kept = [t.strip().lower() for t in (*terms, *extra) if t.strip()]
        return tuple(dict.fromkeys(t for t in kept if t not in ruled_out))

    keywords = [k for k in positive(drafted.keywords) if k not in ruled_words]
    return ShoppingPlan(
        is_shopping=drafted.is_shopping or rules.budget_usd is not None,
        category=drafted.category or rules.category,
        keywords=tuple(keywords) or rules.keywords,
        must_have=positive(drafted.must_have, rules.must_have),
        prefer=positive(drafted.prefer, rules.prefer),
        exclude=rules.exclude,
        avoid=rules.avoid,
        budget_usd=rules.budget_usd,
        budget_min_usd=rules.budget_min_usd,
        budget_amount=rules.budget_amount,
        budget_target_usd=rules.budget_target_usd,
        currency=rules.currency,
        cheap=drafted.cheap or rules.cheap,
        cheapest=drafted.cheapest or rules.cheapest,
        in_stock=drafted.in_stock or rules.in_stock,
        bundle=_bundle(drafted.bundle, rules.bundle),
        platforms=rules.platforms or _known_platforms(drafted.platforms, shops),
    )


def platform_scope(
    messages: Sequence[str], previous: Sequence[str] = (), shops: ShopNames = DEMO_SHOPS
) -> tuple[str, ...]:
    """The shops the messages limit the search to (see `ShopNames.scope`)."""
    return shops.scope(messages, previous)


def _with_platforms(
    plan: ShoppingPlan, platforms: tuple[str, ...], shop_words: frozenset[str]
) -> ShoppingPlan:
    """`plan` scoped to `platforms`, with shop names dropped from its words."""
    if not platforms and not plan.platforms:
        return plan
    return plan.model_copy(
        update={
            "platforms": platforms,
            "keywords": tuple(k for k in plan.keywords if k not in shop_words),
            "exclude": tuple(c for c in plan.exclude if c.term not in shop_words),
        }
    )


def _known_platforms(platforms: Sequence[str], shops: Sequence[str]) -> tuple[str, ...]:
    chosen = {p.strip().lower() for p in platforms}
    return tuple(p for p in shops if p in chosen)


def _bundle(drafted: Sequence[BundleSlot], rules: Sequence[BundleSlot]) -> tuple[BundleSlot, ...]:
    """The LLM's slots with each budget taken from the rules' slot of that name or category
    (a budget needs a number in the text); without LLM slots, the rules' slots."""
    if not drafted:
        return tuple(rules)
    by_key = {s.slot.lower(): s for s in rules} | {s.category.lower(): s for s in rules}
    slots = []
    for slot in drafted:
        match = by_key.get(slot.slot.lower()) or by_key.get(slot.category.lower())
        budget = match.budget_usd if match is not None else None
        slots.append(slot.model_copy(update={"budget_usd": budget}))
    return tuple(slots)


def _prompt(
    messages: Sequence[str], previous: ShoppingPlan | None, catalog: str = ""
) -> list[Message]:
    lines = [f"{n}. {m}" for n, m in enumerate(messages, start=1)]
    text = "Shopper's messages, oldest first:\n" + "\n".join(lines)
    if previous is not None:
        text += "\n\nPlan before these messages:\n" + previous.model_dump_json(
            exclude_defaults=True
        )
    system = f"{SYSTEM_PROMPT}\n\n{catalog}" if catalog else SYSTEM_PROMPT
    return [{"role": "system", "content": system}, {"role": "user", "content": text}]


def _parse_plan(text: str) -> ShoppingPlan:
    """The plan in the model's JSON text; ValueError says what does not validate."""
    try:
        return ShoppingPlan.model_validate_json(text)
    except ValidationError as exc:
        raise ValueError(_validation_summary(exc)) from None


def _validation_summary(exc: ValidationError) -> str:
    parts = [
        f"{'.'.join(str(p) for p in e['loc']) or 'plan'}: {e['msg']}"
        for e in exc.errors(include_url=False, include_context=False, include_input=False)
    ]
    return json.dumps(parts[:8])
