"""Turns matched offers into price_compare's view: the cheapest offer, the saving, and the
grouping of compared items that turn out to be one product."""

from __future__ import annotations

from collections.abc import Sequence

from app.catalog.item import Item
from app.recall.matching_offers import OfferMatch
from app.tools.compare._result import ComparedItem, Offer, ProductGroup

# How each matcher feature reads to a shopper, when it argued for a match.
EVIDENCE_WORDS = {
    "model_exact": "same model number",
    "code_exact": "same model code",
    "code_extends": "model code variant",
    "code_inside": "model code inside the other",
    "trigram_jaccard": "similar title",
    "idf_containment": "shared distinctive words",
    "brand_same": "same brand",
}


def compared_item(item: Item, matches: Sequence[OfferMatch]) -> ComparedItem:
    """The item with its offers cheapest first (unpriced last), the cheapest marked and the
    saving against the item's price."""
    priced = [m for m in matches if m.item.price_usd is not None]
    cheapest = min(
        priced,
        key=lambda m: (m.item.price_usd, -m.score.probability, m.item.item_id),
        default=None,
    )
    ordered = sorted(
        matches,
        key=lambda m: (
            m.item.price_usd is None,
            m.item.price_usd or 0.0,
            -m.score.probability,
            m.item.item_id,
        ),
    )
    offers = [_offer(item, m, cheapest is m) for m in ordered]
    saving = None
    if cheapest is not None and item.price_usd is not None:
        saving = round(item.price_usd - (cheapest.item.price_usd or 0.0), 2)
    return ComparedItem(
        item_id=item.item_id,
        platform=item.platform,
        title=item.title,
        price_usd=item.price_usd,
        offers=offers,
        cheapest_offer_id=cheapest.item.item_id if cheapest else None,
        saving_usd=saving,
    )


def _offer(item: Item, match: OfferMatch, cheapest: bool) -> Offer:
    price = match.item.price_usd
    saving = None
    if price is not None and item.price_usd is not None:
        saving = round(item.price_usd - price, 2)
    positive = sorted(
        ((v, k) for k, v in match.score.reasons.items() if v > 0 and k in EVIDENCE_WORDS),
        reverse=True,
    )
    return Offer(
        item_id=match.item.item_id,
        platform=match.item.platform,
        title=match.item.title,
        price_usd=price,
        match_probability=round(match.score.probability, 4),
        cheapest=cheapest,
        saving_usd=saving,
        evidence=[EVIDENCE_WORDS[name] for _, name in positive],
    )


def group_by_product(items: Sequence[ComparedItem]) -> list[ProductGroup]:
    """Compared items joined when one lists the other or both list a common offer; groups
    and their items keep the compared order."""
    parent = list(range(len(items)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[str, int] = {}
    for i, item in enumerate(items):
        for item_id in [item.item_id, *(o.item_id for o in item.offers)]:
            j = owner.setdefault(item_id, i)
            if root(j) != root(i):
                parent[max(root(i), root(j))] = min(root(i), root(j))
    groups: dict[int, list[ComparedItem]] = {}
    for i, item in enumerate(items):
        groups.setdefault(root(i), []).append(item)
    return [ProductGroup(title=members[0].title, items=members) for members in groups.values()]
