"""The chat model: the ChatModel protocol, the OpenAI-compatible client, turn deadlines
and breakers per role."""

from app.tools.llm.llm import (
    AGENT,
    PLANNER,
    ChatModel,
    ChatReply,
    Message,
    Role,
    StructuredForm,
    StructuredReply,
    ToolCallRequest,
    TurnDeadline,
    breaker_of,
    current_deadline,
    fallback_note,
    open_chat_model,
    role_available,
    turn_deadline,
)

__all__ = [
    "AGENT",
    "PLANNER",
    "ChatModel",
    "ChatReply",
    "Message",
    "Role",
    "StructuredForm",
    "StructuredReply",
    "ToolCallRequest",
    "TurnDeadline",
    "breaker_of",
    "current_deadline",
    "fallback_note",
    "open_chat_model",
    "role_available",
    "turn_deadline",
]
