"""The compact text of an item_search result that the model reads: one line per shown item
([item_id] title | brand | price | platform), then what was blocked, relaxed or widened."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.catalog.currency import usd
from app.config.params.item_search import ITEM_SEARCH_RENDER_CAP

if TYPE_CHECKING:
    from app.tools.search._result import ItemSearchResult, SearchHit

TITLE_CHARS = 90


def render_result(result: ItemSearchResult) -> str:
    """Header, up to `ITEM_SEARCH_RENDER_CAP` item lines, then the explanations."""
    cap = ITEM_SEARCH_RENDER_CAP.get()
    shown = result.hits[:cap]
    lines = [_header(result, len(shown))]
    lines += [_item_line(hit) for hit in shown]
    if len(result.hits) > len(shown):
        lines.append(
            f"(+{len(result.hits) - len(shown)} more kept as candidates of slot "
            f"'{result.slot}' for price_compare and item_picker)"
        )
    lines += _explanations(result)
    return "\n".join(lines)


def _header(result: ItemSearchResult, shown: int) -> str:
    scope = f' for slot "{result.slot}"' if result.slot != "main" else ""
    if not result.hits:
        return f'item_search "{result.query}"{scope}: no relevant items found'
    count = f"{len(result.hits)} items" + (f", showing {shown}" if shown < len(result.hits) else "")
    return f'item_search "{result.query}"{scope}: {count}'


def _item_line(hit: SearchHit) -> str:
    title = hit.title if len(hit.title) <= TITLE_CHARS else hit.title[: TITLE_CHARS - 1] + "…"
    price = "price n/a" if hit.price_usd is None else usd(hit.price_usd)
    return f"[{hit.item_id}] {title} | {hit.brand or 'brand n/a'} | {price} | {hit.platform}"


def _explanations(result: ItemSearchResult) -> list[str]:
    lines = []
    if result.price_only is not None:
        lines.append(f"Blocked by budget: {result.price_only.sentence()}.")
    elif result.filtered_out:
        lines.append(f"Blocked by filters ({result.blocked_total} relevant items):")
        lines += [f"- [{b.item_id}] {b.title[:60]}: {b.detail}" for b in result.filtered_out]
    if result.absent:
        lines.append(
            f'The catalog lists nothing called "{result.absent}": these items are other '
            "products; tell the shopper the shop has none."
        )
    if result.relaxed:
        lines.append(
            f"Relaxed: dropped {', '.join(result.relaxed_constraints)} because too few items "
            "matched it; say so to the shopper."
        )
    if result.expanded:
        variants = ", ".join(f'"{v}"' for v in result.expansion_variants)
        lines.append(f"Also searched: {variants}.")
    if result.failed_sources:
        down = ", ".join(sorted(result.failed_sources))
        lines.append(f"Partial results: recall source(s) {down} unavailable.")
    if result.applied.exclude_terms:
        lines.append(f"Excluded for the shopper: {', '.join(result.applied.exclude_terms)}.")
    lines += [f"Note: {note}" for note in result.notes]
    return lines
