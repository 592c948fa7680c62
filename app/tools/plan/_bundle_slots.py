"""Bundle slots of the rule planner's fold: a product read into a slot of its own name, the
part a later message is about, and that part refined by it."""

from __future__ import annotations

from collections.abc import Sequence

from app.catalog.product_nouns import singular
from app.tools.plan._lexicon_rules import RIVAL_FACETS
from app.tools.plan._message_rules import MessageReading, ProductReading
from app.tools.plan.shopping_plan import BundleSlot

__all__ = ["new_slot", "part_named", "refined_part", "same_request", "slot_of", "with_words"]


def same_request(a: BundleSlot, b: BundleSlot) -> bool:
    """Two slots asking for the same thing: a repeated "and a mouse under $80" adds none."""
    return (a.category, a.keywords, a.budget_usd) == (b.category, b.keywords, b.budget_usd)


def slot_of(product: ProductReading, taken: Sequence[BundleSlot]) -> BundleSlot:
    """A product of a message as a slot, named apart from the slots `taken`."""
    budget = product.budget.budget_usd if product.budget is not None else None
    return new_slot(
        product.category, product.head, product.keywords, product.must_have, budget, taken
    )


def new_slot(
    category: str,
    head: str,
    keywords: Sequence[str],
    must_have: Sequence[str],
    budget_usd: float | None,
    taken: Sequence[BundleSlot],
) -> BundleSlot:
    """A slot named by its head noun, numbered when a slot `taken` has that name."""
    names = {s.slot for s in taken}
    name, n = head, 1
    while name in names:
        n += 1
        name = f"{head}-{n}"
    return BundleSlot(
        slot=name,
        category=category,
        keywords=tuple(keywords),
        must_have=tuple(must_have),
        budget_usd=budget_usd,
    )


def part_named(bundle: Sequence[BundleSlot], reading: MessageReading) -> int | None:
    """The bundle part a message is about: it names one product, a part's ("make the
    keyboard wireless" after "a monitor and a keyboard"); None for anything else."""
    if not bundle or len(reading.products) != 1:
        return None
    head = reading.products[0].head
    heads = [singular(part.category.split()[-1]) for part in bundle]
    return heads.index(head) if head in heads else None


def refined_part(part: BundleSlot, reading: MessageReading) -> tuple[BundleSlot, list[str]]:
    """The part with the message's words, must-haves and budget, and the must-haves said
    (the plan's own list takes them too)."""
    product = reading.products[0]
    musts = [*product.must_have, *(f.term for f in reading.findings if f.kind == "must_have")]
    musts = list(dict.fromkeys(musts))
    named = set(part.category.split())
    words = [k for k in (*product.keywords, *reading.keywords) if k not in named]
    budget = reading.budget or product.budget
    refined = part.model_copy(
        update={
            "keywords": tuple(dict.fromkeys((*part.keywords, *words))),
            "must_have": tuple(dict.fromkeys((*part.must_have, *musts))),
            "budget_usd": budget.budget_usd if budget else part.budget_usd,
        }
    )
    return refined, musts


def with_words(part: BundleSlot, words: Sequence[str]) -> BundleSlot:
    """The part with words said of every part ("make them black"), less those its name
    already holds; a colour or audience said anew replaces its rival ("white" after "black")."""
    named = set(part.category.split())
    added = [w for w in words if w not in named]
    kept = [k for k in part.keywords if not any(_rivals(k, w) for w in added)]
    return part.model_copy(update={"keywords": tuple(dict.fromkeys((*kept, *added)))})


def _rivals(old: str, new: str) -> bool:
    return old != new and any(old in facet and new in facet for facet in RIVAL_FACETS)
