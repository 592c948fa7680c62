"""The tools that end a turn: shopping_summary (the answer over the picks, with its facts
and the bundle total) and chat_fallback (a reply to a message that is not about
shopping)."""

from app.tools.summary.chat_fallback import (
    ChatFallbackArgs,
    ChatFallbackResult,
    ChatFallbackTool,
    fallback_template,
)
from app.tools.summary.shopping_summary import (
    ShoppingSummaryArgs,
    ShoppingSummaryResult,
    ShoppingSummaryTool,
    check_item_ids,
    cited_ids,
    template,
)

__all__ = [
    "ChatFallbackArgs",
    "ChatFallbackResult",
    "ChatFallbackTool",
    "ShoppingSummaryArgs",
    "ShoppingSummaryResult",
    "ShoppingSummaryTool",
    "check_item_ids",
    "cited_ids",
    "fallback_template",
    "template",
]
