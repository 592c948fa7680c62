"""Read one user message with every rule in a fixed order: budgets first ("no more than $50"
is no negation), then lifts, negations, preferences, and products and keywords last."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from app.catalog.model_codes import code_spans
from app.catalog.product_nouns import singular
from app.catalog.short_names import to_short_names
from app.catalog.specs import with_unit_shorthands_spelled
from app.config.params.planner import PLANNER_MAX_MESSAGE_CHARS, PLANNER_MAX_PHRASE_WORDS
from app.tools.plan._amount_rules import product_count
from app.tools.plan._audience_rules import claim_audience
from app.tools.plan._budget_rules import (
    BudgetFindings,
    BudgetMention,
    FloorMention,
    claim_price_wishes,
    claim_stock_wish,
    find_budget,
    pick_mention,
)
from app.tools.plan._bundle_rules import (
    Segment,
    assign_budgets,
    continues_bundle,
    opens_request,
    shared_words,
    split_bundle,
)
from app.tools.plan._category_rules import (
    CategoryGuess,
    bare_category,
    clearly_not_shopping,
    fallback_category,
)
from app.tools.plan._keyword_rules import Bound, find_bounds, keywords
from app.tools.plan._lexicon_rules import is_product_noun
from app.tools.plan._lift_rules import Lift, find_lifts
from app.tools.plan._negation_rules import Finding, find_negations
from app.tools.plan._preference_rules import find_preferences, must_cue_before
from app.tools.plan._story_rules import StoryOwner, claim_story, interest_product
from app.tools.plan._text_rules import (
    Allowed,
    SpanMask,
    Token,
    connector_names,
    joined_words,
    lower_same_length,
    normalize,
    screen_setups,
    tokens,
    unglued_numbers,
)
from app.tools.plan.catalog_words import current_vocabulary

_FOR = re.compile(r"\bfor\b")
_M = TypeVar("_M", BudgetMention, FloorMention)


@dataclass(frozen=True)
class ProductReading:
    """One product named in a message: category, head noun, keywords and own budget."""

    category: str
    head: str
    keywords: tuple[str, ...]
    budget: BudgetMention | None
    must_have: tuple[str, ...] = ()
    for_planned: bool = False
    """Said "for it" ("a case for it"): made for the product already planned."""
    typed_alone: bool = False
    """Read only because the message is a bare phrase ("dog food"): a product where none is
    planned yet, words about the planned one otherwise ("low profile")."""


@dataclass(frozen=True)
class MessageReading:
    """Everything the rules found in one message, with positions kept for ordering;
    `claimed_product`: the product noun only appears inside a requirement ("with a case");
    `opens_request`: it opens as a request of its own ("now i need a ...")."""

    products: tuple[ProductReading, ...]
    keywords: tuple[str, ...]
    findings: tuple[Finding, ...]
    lifts: tuple[Lift, ...]
    budget: BudgetMention | None
    floor: FloorMention | None
    budget_cleared: bool
    continues_bundle: bool
    claimed_product: bool
    not_shopping: bool
    cheap: bool = False
    cheapest: bool = False
    in_stock: bool | None = None
    """True: stock asked ("in stock"); False: said not to matter; None: not said."""
    gift: bool = False
    """Whether the message says what is bought is a gift ("a gift for my dad")."""
    monochrome: str | None = None
    """The words asking black-and-white print ("black and white only"), if any."""
    opens_request: bool = False
    audiences: tuple[str, ...] = ()
    """Who the product is for, as the catalog lists it ("men" of "for my dad"; "men", "boys"
    of "for my son"), if said."""


def read_message(message: str) -> MessageReading:
    """Apply every rule to one message."""
    written = normalize(message[: PLANNER_MAX_MESSAGE_CHARS.get()])
    spelled = with_unit_shorthands_spelled(joined_words(unglued_numbers(written)))
    text = screen_setups(connector_names(to_short_names(spelled)))
    low = lower_same_length(text)
    mask = SpanMask()
    budget = find_budget(low, text, mask)
    cheap, cheapest = claim_price_wishes(low, mask)
    in_stock = claim_stock_wish(low, mask)
    story = claim_story(low, mask)
    bought_for = claim_audience(low, mask)
    bounds = find_bounds(low, mask)
    lifts = find_lifts(low, text, mask, max_words=PLANNER_MAX_PHRASE_WORDS.get())
    product_at = _first_product(low, mask)
    findings = find_negations(low, text, mask, product_before=product_at)
    findings += find_preferences(low, text, mask)
    required, bounds = _split_required(low, text, bounds)
    findings += required
    findings.sort(key=lambda f: f.start)

    def free(tok: Token) -> bool:
        return mask.is_free(tok.start, tok.end)

    negative = [
        (f.start, f.start + len(f.evidence)) for f in findings if f.kind in {"exclude", "avoid"}
    ]

    def not_negated(tok: Token) -> bool:
        return all(tok.end <= s or tok.start >= e for s, e in negative)

    segments = split_bundle(low, free)
    claimed_product = not segments
    if claimed_product:
        segments = split_bundle(low, not_negated)
    if len(segments) == 1:
        segments = [_prefer_named_object(low, segments[0], free)]
    continues = continues_bundle(low)
    musts = [f for f in findings if f.kind == "must_have"]
    budget = _priced(budget, segments, mask)
    products, overall = _products(
        low, segments, budget.mentions, free, bounds, musts, own=continues
    )
    if not products:
        guess = fallback_category(low, 0, len(low), free)
        bare = bare_category(low, free) if guess is None and not musts else None
        guess = guess or bare
        words = tuple(keywords(low, 0, len(low), _outside(free, guess), bounds))
        if guess is not None:
            alone = bare is not None
            products = (ProductReading(guess.category, guess.head, words, None, typed_alone=alone),)
        elif (interest := interest_product(low, words)) is not None:
            product, said = interest
            words = tuple(w for w in words if w != said)
            products = (ProductReading(product, singular(product.split()[-1]), words, None),)
    else:
        words = tuple(k for p in products for k in p.keywords)
    products = tuple(_with_owner(p, story.owners) for p in products)
    words = tuple(dict.fromkeys((*words, *(k for p in products for k in p.keywords))))
    products, words, coded = _codes_required(low, text, products, words)
    findings = sorted([*findings, *coded], key=lambda f: f.start)
    decision = _decide(overall, budget.cleared_at)
    return MessageReading(
        products=products,
        keywords=tuple(dict.fromkeys(words)),
        findings=tuple(findings),
        lifts=tuple(lifts),
        budget=decision if isinstance(decision, BudgetMention) else None,
        floor=_last_floor(budget.floors, budget.cleared_at),
        budget_cleared=decision == "clear",
        continues_bundle=continues and bool(products),
        claimed_product=claimed_product,
        cheap=cheap,
        cheapest=cheapest,
        in_stock=in_stock,
        gift=story.gift,
        monochrome=_monochrome(low, text),
        opens_request=opens_request(low),
        audiences=bought_for.audiences,
        not_shopping=clearly_not_shopping(
            low,
            has_product=bool(segments or products),
            has_findings=bool(
                findings
                or bought_for.said
                or cheap
                or in_stock is not None
                or story.gift
                or lifts
                or budget.mentions
                or budget.floors
                or budget.cleared_at is not None
            ),
            n_keywords=len(words),
        ),
    )


def _products(
    low: str,
    segments: list[Segment],
    mentions: tuple[BudgetMention, ...],
    free: Allowed,
    bounds: list[Bound],
    musts: Sequence[Finding],
    *,
    own: bool,
) -> tuple[tuple[ProductReading, ...], list[BudgetMention]]:
    """Products with their keywords, budgets and the must-haves said in their segment;
    `own`: a lone product keeps its budget ("plus a bag under $50" adds a slot, it does not
    change the plan's budget)."""
    if not segments:
        return (), list(mentions)
    budgets: list[BudgetMention | None]
    if len(segments) > 1:
        budgets, overall = assign_budgets(low, segments, mentions)
    elif own:
        budgets, overall = [pick_mention(mentions) if mentions else None], []
    else:
        budgets, overall = [None], list(mentions)
    products = []
    for seg, seg_budget in zip(segments, budgets, strict=True):
        allowed = _outside(free, seg.guess)
        count = product_count([t for t in tokens(low, seg.start, seg.guess.start) if free(t)])
        if count is not None:
            allowed = _without(allowed, count)
        for_it = _FOR_IT.match(low, seg.guess.end)
        if for_it is not None:
            allowed = _outside_span(allowed, for_it.span())
        products.append(
            ProductReading(
                category=seg.guess.category,
                head=seg.guess.head,
                keywords=tuple(keywords(low, seg.start, seg.end, allowed, bounds)),
                budget=seg_budget,
                must_have=tuple(f.term for f in musts if _said_of(low, seg, f)),
                for_planned=for_it is not None,
            )
        )
    shared = shared_words(low, segments, _outside(free, segments[-1].guess), bounds)
    for i, product in enumerate(products[:-1] if shared else ()):
        products[i] = dataclasses.replace(product, keywords=(*product.keywords, *shared))
    return tuple(products), overall


def _with_owner(product: ProductReading, owners: tuple[StoryOwner, ...]) -> ProductReading:
    """The product an accessory is for, told in a story ("my PHONE screen cracked, need a
    screen protector"), as a keyword, as "a screen protector for my phone" has it."""
    mine = [
        o.owner for o in owners if o.accessory == product.head and o.owner not in product.keywords
    ]
    return dataclasses.replace(product, keywords=(*product.keywords, *mine)) if mine else product


def _said_of(low: str, segment: Segment, finding: Finding) -> bool:
    """Whether a finding is said of the segment's product: inside the segment, with no
    clause break after the product ("a mouse WITH 16000 DPI", not "a mouse, must have
    hdmi", which speaks of the whole request)."""
    if not segment.start <= finding.start < segment.end:
        return False
    return not _CLAUSE_BREAK.search(low, segment.guess.end, finding.start)


_CLAUSE_BREAK = re.compile(r"[,.;:!?]")
_MONOCHROME = re.compile(r"\b(?:black\s*(?:and|&|/|n)\s*white|b\s*&\s*w|b/w|monochrome)\b")


def _monochrome(low: str, text: str) -> str | None:
    """The shopper's words for black-and-white print, which the planner reads beside a
    printer ("black and white only": no colour, where it searched for black and white)."""
    found = _MONOCHROME.search(low)
    return None if found is None else text[found.start() : found.end()]


_FOR_IT = re.compile(
    r"\s+(?:that\s+(?:fits|works\s+with|goes\s+with)\s+|to\s+(?:fit|go\s+with)\s+|for\s+)"
    r"(?:it|that|this|them|those|these|the\s+same)\b"
)
"""An accessory said to be for the product already planned ("a case for it")."""


def _prefer_named_object(low: str, segment: Segment, free: Allowed) -> Segment:
    """ "a frobnicator for my desk": the object the shopper asked for, not the purpose noun."""
    named = fallback_category(low, 0, len(low), free)
    if named is None or named.end > segment.guess.start:
        return segment
    if not _FOR.search(low, named.end, segment.guess.start):
        return segment
    return Segment(segment.start, segment.end, named)


def _split_required(low: str, text: str, bounds: list[Bound]) -> tuple[list[Finding], list[Bound]]:
    """Bounds a must-have cue introduces ("with at least 16gb ram") as must-haves, and the
    others, which stay keywords."""
    required: list[Finding] = []
    others: list[Bound] = []
    for bound in bounds:
        cue = must_cue_before(low, bound.start)
        if cue is None:
            others.append(bound)
        else:
            required.append(Finding("must_have", bound.term, text[cue : bound.end], cue))
    return required, others


def _codes_required(
    low: str, text: str, products: tuple[ProductReading, ...], words: tuple[str, ...]
) -> tuple[tuple[ProductReading, ...], tuple[str, ...], list[Finding]]:
    """Model codes the keywords spell ("rtx" "2060", "tn-2110") as must-haves instead: a code
    names one model, and a near one ("rtx 2070") is another product. Codes the rules read
    otherwise (a processor tier, a product's name) are left to them."""
    found: list[Finding] = []
    for span in code_spans(low):
        parts = span.code.text.split()
        if all(part in words for part in parts):
            evidence = text[span.start : span.end]
            found.append(Finding("must_have", span.code.text, evidence, span.start))
    if not found:
        return products, words, []
    coded = {part for f in found for part in f.term.split()}

    def required(product: ProductReading) -> ProductReading:
        mine = [f.term for f in found if all(p in product.keywords for p in f.term.split())]
        return dataclasses.replace(
            product,
            keywords=tuple(k for k in product.keywords if k not in coded),
            must_have=tuple(dict.fromkeys((*product.must_have, *mine))),
        )

    kept = tuple(w for w in words if w not in coded)
    return tuple(required(p) for p in products), kept, found


def _priced(budget: BudgetFindings, segments: Sequence[Segment], mask: SpanMask) -> BudgetFindings:
    """`budget` without the bare numbers ("over 300", "between 800 and 1200") the catalog
    prices no product named before them at: "a tv over 50" is a size, not a price. A range
    left out gives its words back ("between 13 and 15" may be sizes)."""

    known = current_vocabulary()

    def plausible(start: int, *usd: float | None) -> bool:
        named = [s.guess.head for s in segments if s.guess.start < start]
        return bool(named) and all(u is None or known.plausible_price(named[-1], u) for u in usd)

    mentions = []
    for m in budget.mentions:
        if not m.bare or plausible(m.start, m.budget_usd, m.floor_usd):
            mentions.append(m)
        else:
            mask.release(m.start, m.end)
    floors = tuple(f for f in budget.floors if not f.bare or plausible(f.start, f.floor_usd))
    return dataclasses.replace(budget, mentions=tuple(mentions), floors=floors)


def _last_floor(floors: tuple[FloorMention, ...], cleared_at: int | None) -> FloorMention | None:
    after = _after_clear(floors, cleared_at)
    return after[-1] if after else None


def _decide(mentions: list[BudgetMention], cleared_at: int | None) -> BudgetMention | str | None:
    after = _after_clear(mentions, cleared_at)
    if after:
        return pick_mention(after)
    return "clear" if cleared_at is not None else None


def _after_clear(mentions: Sequence[_M], cleared_at: int | None) -> list[_M]:
    """The mentions stated after the shopper dropped the budget (all when they did not)."""
    return [m for m in mentions if cleared_at is None or m.start > cleared_at]


def _outside(free: Allowed, guess: CategoryGuess | None) -> Allowed:
    if guess is None:
        return free
    return lambda tok: free(tok) and not guess.claims(tok)


def _without(allowed: Allowed, token: Token) -> Allowed:
    return lambda tok: allowed(tok) and tok != token


def _outside_span(allowed: Allowed, span: tuple[int, int]) -> Allowed:
    return lambda tok: allowed(tok) and not span[0] <= tok.start < span[1]


def _first_product(low: str, mask: SpanMask) -> int:
    for tok in tokens(low):
        if mask.is_free(tok.start, tok.end) and is_product_noun(tok.text):
            return tok.start
    return len(low)
