"""The documented shape of one whole turn (`/v1/chat?stream=false`, `pickwise ask --json`)
and of a pick in it, written out once so every front end's test checks the same contract."""

from __future__ import annotations

__all__ = ["PICK_KEYS", "TURN_KEYS"]

TURN_KEYS = frozenset(
    {
        "session_id",
        "answer",
        "picks",
        "plan",
        "trace",
        "readings",
        "planner",
        "policy",
        "notes",
        "saved",
    }
)
"""Keys of every whole-turn document; the HTTP reply adds `session_token` for a new session."""

PICK_KEYS = frozenset(
    {
        "item_id",
        "title",
        "platform",
        "brand",
        "price",
        "currency",
        "price_usd",
        "attributes",
        "availability",
        "reason",
    }
)
