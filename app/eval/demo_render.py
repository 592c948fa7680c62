"""How the demo shows things to a person: search hits, a conversation (shopper line, picks,
answer) and a turn's per-stage trace, each as a few short, indented lines."""

from __future__ import annotations

from collections.abc import Collection

from app.agent.events import PickView, TurnSummary
from app.catalog.currency import usd
from app.eval.demo_script import Conversation
from app.tools.search import ItemSearchResult

__all__ = [
    "WIDTH",
    "clip",
    "conversation_lines",
    "pick_line",
    "price",
    "search_lines",
    "trace_lines",
]

WIDTH = 110


def clip(text: str, width: int = WIDTH) -> str:
    """One line of at most `width` characters."""
    text = " ".join(text.splitlines())
    return text if len(text) <= width else text[: width - 1] + "…"


def price(value: float | None) -> str:
    return "no price" if value is None else usd(value)


def search_lines(result: ItemSearchResult) -> list[str]:
    """The hits of one item_search: rank, platform, price, id and title."""
    lines = [f"> {result.query}"]
    for rank, hit in enumerate(result.hits, 1):
        row = f"{rank}. {hit.platform:<8}{price(hit.price_usd):>11}  {hit.item_id:<22}{hit.title}"
        lines.append("  " + clip(row, WIDTH - 2))
    if not result.hits:
        lines.append("  no relevant items found")
    return lines


def pick_line(pick: PickView) -> str:
    return clip(f"{pick.item_id:<22}{pick.platform:<8}{price(pick.price_usd):>11}  {pick.title}")


def conversation_lines(conversation: Conversation, number: int, total: int) -> list[str]:
    """The shopper's message, the picks and the answer of one scripted conversation."""
    s = conversation.scenario
    lines = [f"[{number}/{total}] {s.title}", f"  shopper: {s.message}"]
    summary = conversation.summary
    if summary is None:
        lines.append(f"  the turn failed: {conversation.error}")
        return lines
    if summary.picks:
        lines.append("  picks:")
        lines += [f"    {pick_line(p)}" for p in summary.picks]
    else:
        lines.append("  picks:   none")
    answer = [line for line in summary.answer.splitlines() if line.strip()]
    lines.append(f"  answer:  {clip(answer[0], WIDTH - 11)}" if answer else "  answer:  (empty)")
    lines += [f"           {clip(line, WIDTH - 11)}" for line in answer[1:]]
    lines.append(f"  ({conversation.ms:,.0f} ms)")
    return lines


def trace_lines(summary: TurnSummary, hide: Collection[str] = ()) -> list[str]:
    """Each stage of a turn with its time, but those in `hide` (the demo's own observer); a
    harness stage includes the tool calls it ran, which are also listed on their own."""
    stages = [t for t in summary.trace if t.stage not in hide]
    width = max((len(t.stage) for t in stages), default=10)
    lines = [f"  {t.stage:<{width}}  {t.ms:>9,.1f} ms" for t in stages]
    lines.append(
        "  (harness.autopick includes the price_compare and item_picker calls listed after it)"
    )
    return lines
