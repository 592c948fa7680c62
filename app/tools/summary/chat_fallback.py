"""chat_fallback: the answer to a message that is not about shopping (a greeting, thanks,
small talk, an off-topic question): brief, and steering back to what Pickwise can do.
Written by the LLM when one is configured, from a template otherwise; never names items."""

from __future__ import annotations

import logging
import re
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.config.params.agent import AGENT_MESSAGE_MAX_CHARS
from app.errors import DependencyDown
from app.tools.base import ToolContext, ToolResult
from app.tools.llm import ChatModel
from app.tools.summary._facts import check_item_ids

__all__ = ["ChatFallbackArgs", "ChatFallbackResult", "ChatFallbackTool", "fallback_template"]

log = logging.getLogger(__name__)

DESCRIPTION = (
    "End the turn with a short reply to a message that is not a shopping request (a "
    "greeting, thanks, small talk, an unrelated question). Pass the shopper's message; the "
    "reply answers briefly and says what Pickwise can help with. Never use it to answer a "
    "shopping request."
)

FALLBACK_PROMPT = (
    "You are Pickwise, a shopping assistant that searches a shop's product catalog and "
    "compares prices across its shops. The shopper's message is not a "
    "shopping request. Answer it in one or two friendly sentences, without naming any "
    "product or price, and invite them to say what they are looking for."
)

OFFER = (
    "I'm Pickwise: I search this catalog, compare prices across its shops and pick the best "
    "matches. Tell me what you're looking for, e.g. "
    "'a quiet keyboard under $80, not Logitech'."
)
_GREETING = re.compile(r"^\s*(hi|hello|hey|good (morning|afternoon|evening)|howdy)\b", re.I)
_THANKS = re.compile(r"\b(thanks|thank you|thx|cheers|that's all|that is all|bye)\b", re.I)


class ChatFallbackArgs(BaseModel):
    """The message to answer."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    message: str = Field(min_length=1, description="The shopper's message.")

    @field_validator("message")
    @classmethod
    def _within_the_cap(cls, value: str) -> str:
        cap = AGENT_MESSAGE_MAX_CHARS.get()
        if len(value) > cap:
            raise ValueError(f"a message is at most {cap} characters (AGENT_MESSAGE_MAX_CHARS)")
        return value


class ChatFallbackResult(ToolResult):
    """The reply and how it was written."""

    text: str
    source: Literal["llm", "template"]

    def render(self) -> str:
        return self.text


class ChatFallbackTool:
    """Answers off-topic messages; the LLM's reply loses any item id it made up."""

    name: ClassVar[str] = "chat_fallback"
    description: ClassVar[str] = DESCRIPTION
    args_model: ClassVar[type[BaseModel]] = ChatFallbackArgs
    concurrency_safe: ClassVar[bool] = False
    terminal: ClassVar[bool] = True

    def __init__(self, model: ChatModel | None = None) -> None:
        self.model = model

    async def run(self, args: ChatFallbackArgs, ctx: ToolContext) -> ChatFallbackResult:
        if self.model is not None:
            try:
                reply = await self.model.chat(
                    [
                        {"role": "system", "content": FALLBACK_PROMPT},
                        {"role": "user", "content": args.message},
                    ]
                )
            except DependencyDown as exc:
                log.info("LLM chat fallback unavailable (%s); using the template", exc)
            else:
                text, _ = check_item_ids(reply.content or "", ())
                if text:
                    return ChatFallbackResult(text=text, source="llm")
        return ChatFallbackResult(text=fallback_template(args.message), source="template")


def fallback_template(message: str) -> str:
    """A greeting, a thank-you or a redirect, each followed by what Pickwise does."""
    if _THANKS.search(message):
        return "You're welcome! Whenever you need something else, just tell me what."
    if _GREETING.search(message):
        return "Hi! " + OFFER
    return "I can only help with shopping. " + OFFER
