"""The agent loop's system prompt (the session's plan and last picks included) and the form
of harness hints in the conversation."""

from __future__ import annotations

from app.agent.hooks import HarnessHint
from app.agent.session import Session
from app.catalog.currency import usd
from app.tools.llm import Message
from app.tools.plan import ShoppingPlan

SYSTEM = """You are Pickwise, a shopping assistant over a real product catalog (described \
below).
How to work:
- Search with item_search (one call per product of a multi-item request, each with its \
own slot). The shopping plan below (budget, ruled-out terms, platforms) applies \
automatically; do not repeat it in the query. Write queries in catalog words: name a \
laptop also as a notebook ("laptop notebook 8gb"), and RAM or storage by its size alone \
("16gb", not "16gb ram", which finds memory modules).
- After a search, the autopick harness compares prices and picks items for you; its \
results arrive as messages starting with [autopick]. You may also call price_compare and \
item_picker yourself.
- Answer with shopping_summary once there are picks or the search showed there are none; \
it cites every item as [item_id]. For a message that is not about shopping, call \
chat_fallback.
- A price question about one of the previous picks ("is the second one cheaper \
elsewhere?") needs no new search: call price_compare with its item_id and answer from it. \
When the shopper asks for other options, the picks already shown are left out for you. \
For items like one already shown ("anything similar to the first?"), call similar_items \
with its item_id.
- Never invent an item, a price or an offer: cite only [item_id]s that tool results \
showed. When filters hide the matches, say which and why.
- A tool result with code dependency_down means that part is unavailable: do not retry \
it; tell the shopper plainly."""


def system_message(session: Session, plan: ShoppingPlan, catalog: str = "") -> Message:
    """The system prompt with the catalog's brief, the plan in force and the picks of the
    previous turn."""
    lines = [SYSTEM, *(["", catalog] if catalog else []), ""]
    lines.append("Shopping plan (from the shopper's messages):")
    lines.append(plan.model_dump_json(exclude_defaults=True) or "{}")
    if session.picks:
        lines.append("Picks of the previous turn:")
        lines += [
            f"- [{p.item_id}] {p.title} | {p.platform} | "
            + ("no price" if p.price_usd is None else usd(p.price_usd))
            for p in session.picks
        ]
    return {"role": "system", "content": "\n".join(lines)}


def hint_message(hint: HarnessHint) -> Message:
    """A harness hint as the model reads it: marked as automatic, not from the shopper."""
    return {"role": "user", "content": f"[{hint.source}] {hint.text}"}
