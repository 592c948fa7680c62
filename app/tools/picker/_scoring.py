"""item_picker stages 4 and 5: how well each candidate says what the shopper asked for (words,
meaning, numeric specs), and the weighted score that ranks the candidates."""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import NamedTuple

import numpy as np

from app.catalog.item import Item
from app.catalog.product_kinds import names_kind
from app.catalog.product_nouns import head_positions, narrower_head
from app.catalog.product_nouns import tokens as title_words
from app.config.params.picker import (
    PICK_W_AVOID,
    PICK_W_BRAND,
    PICK_W_CHEAP,
    PICK_W_CHEAP_ASKED,
    PICK_W_FORM,
    PICK_W_FRESH,
    PICK_W_GATE,
    PICK_W_MUST,
    PICK_W_NEAR_PRICE,
    PICK_W_PREFER,
    PICK_W_RECALL,
    PICK_W_SPEC,
    PICK_W_UNNAMED,
)
from app.recall.embedder import Embedder
from app.recall.offload import offload
from app.tools.picker._contrary import is_checked, same_family
from app.tools.picker._filter import cheapness, of_asked_brand
from app.tools.picker._model import Filtered, Gate, PickInputs, Pooled, Scored, Semantics, Weights
from app.tools.search import names_noun
from app.tools.terms import (
    Stated,
    Term,
    find_specs,
    has_words,
    negated_only,
    spec_nearness,
    spec_said,
    spec_where,
    term_in,
    where_stated,
)


def current_weights(*, cheap: bool = False) -> Weights:
    """The score weights in force now (read from the parameter registry on every call);
    `cheap`: the shopper asked for a low price, and cheapness weighs PICK_W_CHEAP_ASKED."""
    weights = Weights(
        recall=PICK_W_RECALL.get(),
        gate=PICK_W_GATE.get(),
        must=PICK_W_MUST.get(),
        prefer=PICK_W_PREFER.get(),
        avoid=PICK_W_AVOID.get(),
        cheap=PICK_W_CHEAP.get(),
        spec=PICK_W_SPEC.get(),
        form=PICK_W_FORM.get(),
        unnamed=PICK_W_UNNAMED.get(),
        brand=PICK_W_BRAND.get(),
        fresh=PICK_W_FRESH.get(),
        near=PICK_W_NEAR_PRICE.get(),
    )
    if cheap:
        return dataclasses.replace(weights, cheap=max(weights.cheap, PICK_W_CHEAP_ASKED.get()))
    return weights


def term_texts(inputs: PickInputs) -> list[str]:
    """Every must, prefer and avoid term, once each: what stage 4 embeds."""
    return list(dict.fromkeys(t.text for t in (*inputs.must, *inputs.prefer, *inputs.avoid)))


def semantic_scores(
    inputs: PickInputs,
    pool: Sequence[Pooled],
    term_vectors: Mapping[str, np.ndarray],
    title_vectors: Sequence[np.ndarray | None] | None,
) -> dict[str, Semantics]:
    """Stage 4 on given vectors: per candidate, must and prefer as the mean over terms of 1
    when the title says the term, else the term-title cosine clamped at 0; avoid as the
    strongest avoid term (0 when the title only negates it); spec as the share of asked
    specs (sizes, standards) the title carries, or exceeds where more serves (mAh), a missed
    bound counting as near as the title comes to it (160 GB of "at least 1tb"); for a
    product name of several words, whether it says them all ("Electric Dryer" does not
    name a hair dryer). A term or spec the spec sheet lists ("hdmi", "wifi6") counts as
    said."""
    out: dict[str, Semantics] = {}
    forms = inputs.form_terms()
    own = _saying_own_noun(inputs, pool)
    noun_only = bool(inputs.category) and not names_kind(inputs.category or "")
    for row, pooled in enumerate(pool):
        title = pooled.item.title
        text = f"{title} {pooled.item.brand or ''}"
        vector = None if title_vectors is None else title_vectors[row]
        said = {t.text: _stated(pooled.item, t, inputs) for t in (*inputs.must, *inputs.prefer)}
        forms_said = {t.text: where_stated(pooled.item, t) is not None for t in forms}

        def closeness(
            term: Term,
            said: Mapping[str, _Said | None] = said,
            vector: np.ndarray | None = vector,
        ) -> float:
            if said[term.text]:
                return 1.0
            return _cosine(term_vectors.get(term.text), vector)

        stated = find_specs(title)
        specs = [(s, spec_said(s, stated)) for s in inputs.specs]
        specs_said = tuple(said_as for _, said_as in specs if said_as)
        unsaid = [(s, spec_where(pooled.item, s) == "sheet") for s, said_as in specs if not said_as]
        on_sheet = sum(1 for _, listed_there in unsaid if listed_there)
        near = sum(spec_nearness(s, stated) for s, listed_there in unsaid if not listed_there)
        avoid = [
            (_avoid_closeness(t, text, term_vectors, vector, inputs.contrary), t.text)
            for t in inputs.avoid
        ]
        avoid_said = tuple(name for v, name in avoid if v >= 1.0)
        of_brand = of_asked_brand(pooled.item, inputs.brands)
        prefer_said = _said_in(said, inputs.prefer, "title")
        brand_unsaid = not (of_brand or set(inputs.brands) & set(prefer_said))
        out[pooled.item.item_id] = Semantics(
            must=_mean([closeness(t) for t in inputs.must]),
            prefer=_mean([closeness(t) for t in inputs.prefer]),
            avoid=max((v for v, _ in avoid), default=0.0),
            spec=(len(specs_said) + on_sheet + near) / len(inputs.specs) if inputs.specs else 0.0,
            form=_mean([1.0 if stated else 0.0 for stated in forms_said.values()]),
            brand=1.0 if of_brand else 0.0,
            must_said=_said_in(said, inputs.must, "title"),
            prefer_said=prefer_said,
            avoid_said=avoid_said,
            specs_said=specs_said,
            specs_unsaid=tuple(
                spec.wording
                for spec, listed_there in unsaid
                if not listed_there and not _contradicted(spec.wording, avoid_said, inputs)
            ),
            sheet_said=_said_in(said, (*inputs.must, *inputs.prefer), "sheet"),
            terms_unsaid=_terms_unsaid(inputs, said, forms_said, avoid_said)
            + ((inputs.brand_wording,) if inputs.brand_wording and brand_unsaid else ()),
            named=pooled.named and (own is None or pooled.item.item_id in own),
            noun_said=noun_only and names_noun(title, inputs.category or ""),
        )
    return out


def _saying_own_noun(inputs: PickInputs, pool: Sequence[Pooled]) -> frozenset[str] | None:
    """Ids of the candidates whose titles say the asked product's own noun, when it names a
    narrower product of a broader head and some title says it: for "earbuds", headphones
    that never say earbud count as unnamed beside earbuds. None when nothing narrows."""
    noun = narrower_head(inputs.category or "")
    if noun is None:
        return None
    said = frozenset(
        p.item.item_id for p in pool if head_positions(title_words(p.item.title), noun)
    )
    return said or None


class _Said(NamedTuple):
    """Where an item states a term, and in which words (the term's, or its part's)."""

    where: Stated
    text: str


def _stated(item: Item, term: Term, inputs: PickInputs) -> _Said | None:
    """Where the item states the term, or the must-have as it reads beside the product
    ("rtx" of "rtx graphics card")."""
    where = where_stated(item, term)
    if where:
        return _Said(where, _as_stated(item, term, where))
    part = inputs.parts.get(term.text)
    where = where_stated(item, part) if part else None
    return _Said(where, _as_stated(item, part, where)) if where and part else None


def _as_stated(item: Item, term: Term, where: Stated) -> str:
    """The term in the words of the alternative the item states ("16gb" of "8gb or 16gb"),
    or with the line that states it ("graphics card (geforce)")."""
    text = term.text
    source = item.title if where == "title" else ", ".join(item.features)
    if term.either:
        line = next((w for w in term.either if has_words(source, (w,))), None)
        return f"{text} ({line})" if line else text
    if term.specs and not term.words:  # a term that is only its specs reads as they are met
        met = [spec_said(spec, find_specs(source)) for spec in term.specs]
        if all(met):
            return ", ".join(m for m in met if m)
    for spec in term.specs:
        if spec.alternatives:
            said = spec_said(spec, find_specs(source))
            text = text.replace(spec.text, said) if said else text
    return text


def _said_in(
    said: Mapping[str, _Said | None], terms: Sequence[Term], where: Stated
) -> tuple[str, ...]:
    """The words in which the item states the terms there, once each."""
    found = (said[t.text] for t in terms)
    return tuple(dict.fromkeys(s.text for s in found if s is not None and s.where == where))


def _terms_unsaid(
    inputs: PickInputs,
    said: Mapping[str, _Said | None],
    forms_said: Mapping[str, bool],
    avoid_said: Sequence[str],
) -> tuple[str, ...]:
    """The must-haves without specs, the asked traits ("waterproof") and forms, as terms or in
    the product's name (wireless of "bluetooth headphones"), that neither title nor sheet
    states; a form the title contradicts ("wired" for wireless) is reported as the contrary
    instead, while the other asked forms ("over ear") are still named."""
    wanted = [
        *(t.text for t in inputs.must if not t.specs and not said[t.text]),
        *(
            t.text
            for t in inputs.prefer
            if is_checked(t.text, inputs.category) and not said[t.text]
        ),
        *(form for form, stated in forms_said.items() if not stated and form not in said),
    ]
    return tuple(
        dict.fromkeys(name for name in wanted if not _contradicted(name, avoid_said, inputs))
    )


def _contradicted(asked: str, avoid_said: Sequence[str], inputs: PickInputs) -> bool:
    """Whether the title says an alternative of the asked form ("ddr2" for ddr4)."""
    return any(same_family(asked, [t]) for t in avoid_said if t in inputs.contrary)


class TextVectors:
    """Memoised vectors of terms and titles: the same candidates and terms come back turn
    after turn, and embedding them is the costly part of stage 4."""

    def __init__(self, embedder: Embedder, *, size: int = 8192) -> None:
        self.embedder = embedder
        self.size = size
        self._memo: OrderedDict[tuple[bool, str], np.ndarray] = OrderedDict()

    async def vectors(self, texts: Sequence[str], *, query: bool) -> list[np.ndarray]:
        """One unit vector per text, embedding only the unseen ones (in a worker thread)."""
        found: dict[str, np.ndarray] = {}
        for text in dict.fromkeys(texts):
            if (query, text) in self._memo:
                self._memo.move_to_end((query, text))
                found[text] = self._memo[(query, text)]
        todo = [t for t in dict.fromkeys(texts) if t not in found]
        if todo:
            encode = self.embedder.encode_queries if query else self.embedder.encode_documents
            for text, row in zip(todo, await offload(encode, todo), strict=True):
                self._memo[(query, text)] = found[text] = row
            while len(self._memo) > self.size:
                self._memo.popitem(last=False)
        return [found[t] for t in texts]

    def __len__(self) -> int:
        return len(self._memo)


async def semantics(
    vectors: TextVectors, inputs: PickInputs, pool: Sequence[Pooled], *, embed: AbstractSet[str]
) -> dict[str, Semantics]:
    """Stage 4: embed the terms and the titles of the `embed` ids (skipped when there are no
    terms), then score every candidate; a title not embedded is matched on its words only."""
    texts = term_texts(inputs)
    if not texts or not pool:
        return semantic_scores(inputs, pool, {}, None)
    terms = await vectors.vectors(texts, query=True)
    chosen = [p.item for p in pool if p.item.item_id in embed]
    rows = await vectors.vectors([item.title for item in chosen], query=False)
    by_id = {item.item_id: row for item, row in zip(chosen, rows, strict=True)}
    titles = [by_id.get(p.item.item_id) for p in pool]
    return semantic_scores(inputs, pool, dict(zip(texts, terms, strict=True)), titles)


def kept_cheapness(filtered: Filtered, gate: Gate) -> dict[str, float]:
    """Each candidate's cheapness: against the budget as the hard filter scaled it; without
    one, between the prices of the items the gate keeps, so a $1 cable lock among laptops
    no longer sets the scale of the laptops' own prices."""
    pool = filtered.pool
    kept = [
        p.item.price_usd
        for p in pool
        if p.item.price_usd is not None and not gate.penalised(p.item.item_id)
    ]
    if not filtered.relative_price or not kept:
        return {p.item.item_id: p.cheapness for p in pool}
    prices = [p.item.price_usd for p in pool]
    scaled = cheapness(prices, None, among=kept)
    return {p.item.item_id: c for p, c in zip(pool, scaled, strict=True)}


def weigh(
    filtered: Filtered,
    gate: Gate,
    scores: Mapping[str, Semantics],
    weights: Weights,
    *,
    penalty: float,
) -> tuple[Scored, ...]:
    """Stage 5: the weighted sum of the parts, clamped at 0, the must-have and spec parts
    scaled by the item's gate score (what a monitor states counts little for "a tablet with
    1080p" when the gate scores it 0.46); an item the gate sank or marked
    as an accessory keeps (1 - penalty) of it; one that says neither every word of the
    product's name nor its noun with an asked spec ("64gb" serves a memory card that never
    says "memory", not a memory card for a phone) loses the `unnamed` weight when another
    says the name. Best first, ties by recall rank; every survivor stays in."""
    ranked: list[Scored] = []
    named = any(s.named for s in scores.values())
    cheapness = kept_cheapness(filtered, gate)
    for pooled in filtered.pool:
        item_id = pooled.item.item_id
        sem = scores.get(item_id, Semantics())
        gate_score = gate.scores.get(item_id)
        sure = min(1.0, gate_score) if gate.on and gate_score is not None else 1.0
        parts = {
            "recall": weights.recall * pooled.recall,
            "gate": weights.gate * (gate_score or 0.0) if gate.on else 0.0,
            "must": weights.must * sem.must * sure,
            "prefer": weights.prefer * sem.prefer,
            "spec": weights.spec * sem.spec * sure,
            "form": weights.form * sem.form,
            "brand": weights.brand * sem.brand,
            "unnamed": -weights.unnamed
            if named and sem.named is False and not (sem.specs_said and sem.noun_said)
            else 0.0,
            "cheap": weights.cheap * cheapness[item_id],
            "fresh": weights.fresh * pooled.freshness,
            "near": weights.near * pooled.nearness,
            "avoid": -weights.avoid * sem.avoid,
        }
        sunk = item_id in gate.sunk
        score = max(0.0, sum(parts.values()))
        if gate.penalised(item_id):
            score *= 1.0 - penalty
        ranked.append(
            Scored(
                pooled=pooled,
                score=round(score, 6),
                gate_score=gate_score,
                sunk=sunk,
                accessory=item_id in gate.accessories,
                semantics=sem,
                parts={k: round(v, 6) for k, v in parts.items()},
            )
        )
    ranked.sort(key=lambda s: (-s.score, s.pooled.candidate.rank, s.item.item_id))
    return tuple(ranked)


def _avoid_closeness(
    term: Term,
    text: str,
    vectors: Mapping[str, np.ndarray],
    vector: np.ndarray | None,
    contrary: Sequence[str],
) -> float:
    """1 when the title says the avoid term, else its cosine to the title; an alternative of
    an asked form ("triple" beside "dual") or a spec only counts when said."""
    if term_in(text, term):
        return 1.0
    if not term.words or term.text in contrary or negated_only(text, " ".join(term.words)):
        return 0.0
    return _cosine(vectors.get(term.text), vector)


def _cosine(a: np.ndarray | None, b: np.ndarray | None) -> float:
    if a is None or b is None:
        return 0.0
    return max(0.0, min(1.0, float(np.dot(a, b))))


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0
