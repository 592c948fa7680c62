"""The LLM engine behind a small Protocol: a chat completion that may call tools, and a
completion constrained to a JSON schema. With no `OPENAI_BASE_URL` there is no model and
every caller takes its deterministic path (rules, templates, the offline policy).

The model is a dependency like any other: each role (the planner's structured call, the
agent's calls) has its own breaker, every unusable reply is a `DependencyDown`, and all calls
of one turn share one deadline (`turn_deadline`) that each call clamps its timeout to."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypeVar, runtime_checkable

from app.config.settings import Settings
from app.errors import DependencyDown
from app.recall.breakers import BREAKERS

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

T = TypeVar("T")
Role = Literal["planner", "agent"]
PLANNER: Role = "planner"
AGENT: Role = "agent"
StructuredForm = Literal["json_schema", "json_object", "prompt"]
"""How structured output is asked for: `response_format` json_schema, json_object with a
`schema` (llama-cpp-python's server), or JSON instructions in the prompt."""

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


@dataclass(frozen=True)
class StructuredReply(Generic[T]):
    """A structured answer: the parsed value, the form the server accepted, and what was
    wrong with each earlier attempt (each one was repaired)."""

    value: T
    form: StructuredForm
    problems: tuple[str, ...] = ()


@runtime_checkable
class ChatModel(Protocol):
    """A chat model: tool-calling completions (role "agent") and structured output (role
    "planner"). Failures of either are `DependencyDown` named by the role's breaker."""

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
        parse: Callable[[str], T],
        repairs: int = 1,
        model: str | None = None,
        temperature: float | None = None,
    ) -> StructuredReply[T]:
        """A completion constrained to `schema`, read by `parse` (which raises ValueError
        saying what is wrong); up to `repairs` corrections, then `BadReply`."""
        ...

    async def close(self) -> None:
        """Release connections."""
        ...


def open_chat_model(settings: Settings) -> ChatModel | None:
    """The OpenAI-compatible model at `settings.openai_base_url`, or None when unset."""
    if not settings.openai_base_url:
        return None
    from app.tools.llm._openai_chat import OpenAIChatModel

    return OpenAIChatModel(settings.openai_base_url)


def breaker_of(role: Role) -> str:
    """The breaker guarding the model calls of `role`."""
    return f"llm_{role}"


def role_available(role: Role) -> bool:
    """False while the breaker of `role` is open (its calls would be refused at once)."""
    return BREAKERS.state(breaker_of(role)).state != "open"


@dataclass
class TurnDeadline:
    """When the model calls of the current turn must be over (`time.monotonic()` clock), and
    which roles this turn already charged with spending it (one failure per role and turn)."""

    at: float
    seconds: float
    hung: bool = False
    """A model call was cut by this deadline: the turn's time went to waiting on the model."""
    charged: set[Role] = field(default_factory=set)

    def left(self) -> float:
        return self.at - time.monotonic()

    def charge(self, role: Role) -> bool:
        """Whether `role` is still to be charged for this turn's spent deadline (now it is)."""
        if role in self.charged:
            return False
        self.charged.add(role)
        return True


_DEADLINE: ContextVar[TurnDeadline | None] = ContextVar("pickwise_llm_deadline", default=None)


@contextmanager
def turn_deadline(seconds: float) -> Iterator[TurnDeadline]:
    """All model calls inside (and in tasks started inside) end within `seconds` together."""
    deadline = TurnDeadline(time.monotonic() + seconds, seconds)
    token = _DEADLINE.set(deadline)
    try:
        yield deadline
    finally:
        _DEADLINE.reset(token)


def current_deadline() -> TurnDeadline | None:
    """The deadline of the turn this code runs in, if any."""
    return _DEADLINE.get()


def fallback_note(part: str, exc: DependencyDown, used: str) -> str:
    """The short note a turn carries when one `part` of it fell back from the model:
    "planner: llm timed out, rules used"."""
    return f"{part}: llm {exc.reason or 'is unavailable'}, {used} used"
