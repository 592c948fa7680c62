"""The LLM engine behind a small Protocol: a chat completion that may call tools, and a
completion constrained to a JSON schema. With no `OPENAI_BASE_URL` there is no model and
every caller takes its deterministic path (rules, templates, the offline policy)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from app.config.settings import Settings

__all__ = ["ChatModel", "ChatReply", "Message", "ToolCallRequest", "open_chat_model"]

Message = dict[str, Any]
"""One chat message in the OpenAI wire format (role, content, tool_calls, tool_call_id)."""


@dataclass(frozen=True)
class ToolCallRequest:
    """One function call the model asked for; `arguments` is the raw JSON text it wrote."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class ChatReply:
    """The model's answer: text, tool calls, or both."""

    content: str | None
    tool_calls: tuple[ToolCallRequest, ...] = ()
    finish_reason: str | None = None

    def as_message(self) -> Message:
        """The assistant message to append to the conversation before the tool results."""
        message: Message = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            message["tool_calls"] = [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": call.arguments},
                }
                for call in self.tool_calls
            ]
        return message


@runtime_checkable
class ChatModel(Protocol):
    """A chat model: tool-calling completions and JSON-schema structured output."""

    name: str
    remote: bool

    async def chat(
        self,
        messages: Sequence[Message],
        *,
        tools: Sequence[dict[str, Any]] = (),
        model: str | None = None,
        temperature: float | None = None,
    ) -> ChatReply:
        """One completion; the model may answer or call some of `tools`."""
        ...

    async def structured(
        self,
        messages: Sequence[Message],
        *,
        schema: dict[str, Any],
        schema_name: str,
        model: str | None = None,
        temperature: float | None = None,
    ) -> str:
        """One completion constrained to `schema`; returns the JSON text, unvalidated."""
        ...

    async def close(self) -> None:
        """Release connections."""
        ...


def open_chat_model(settings: Settings) -> ChatModel | None:
    """The OpenAI-compatible model at `settings.openai_base_url`, or None when unset."""
    if not settings.openai_base_url:
        return None
    from app.tools._openai_chat import OpenAIChatModel

    return OpenAIChatModel(settings.openai_base_url)
