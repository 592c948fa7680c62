"""What every tool is: typed arguments, a typed `run()`, and one way to invoke it safely.

`invoke_tool` is the single pipeline through which the model, the offline policy and the
autopick harness call tools: arguments are validated with pydantic, and every expected
failure comes back as a structured `ToolError` instead of an exception, so the caller
(often an LLM) can read what went wrong and what to do.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.errors import ConfigError, DependencyDown, InvalidRequest, NotFound
from app.telemetry import observe_tool
from app.tools.candidates import CandidateRegistry
from app.tools.plan import ShoppingPlan

__all__ = [
    "Tool",
    "ToolContext",
    "ToolError",
    "ToolOutcome",
    "ToolResult",
    "invoke_tool",
    "tool_json_schema",
]

log = logging.getLogger(__name__)

ArgsT = TypeVar("ArgsT", bound=BaseModel, contravariant=True)
ResultT = TypeVar("ResultT", bound="ToolResult", covariant=True)


class ToolResult(BaseModel):
    """Base of every successful tool result; `render()` is what the model reads."""

    model_config = ConfigDict(frozen=True)
    ok: Literal[True] = True

    def render(self) -> str:
        """Compact text for the model; JSON of the result unless a tool says better."""
        return self.model_dump_json(exclude_none=True)


class ToolError(BaseModel):
    """A structured failure the model can read: a code, a message and whether to retry."""

    model_config = ConfigDict(frozen=True)
    ok: Literal[False] = False
    code: str
    message: str
    retry: bool = False
    details: dict[str, Any] = Field(default_factory=dict)

    def render(self) -> str:
        return self.model_dump_json(exclude_none=True)


@dataclass
class ToolContext:
    """Session-scoped state a tool may read and update during one turn."""

    session_id: str
    turn_id: str
    plan: ShoppingPlan = field(default_factory=ShoppingPlan)
    candidates: CandidateRegistry = field(default_factory=CandidateRegistry)
    last_results: dict[str, ToolResult] = field(default_factory=dict)
    slot_results: dict[str, dict[str, ToolResult]] = field(default_factory=dict)
    """The latest result per tool and slot, for results that name their slot (`slot`)."""
    shown_before: frozenset[str] = frozenset()
    """Ids of the picks the shopper saw and asked to see others than ("other options"):
    item_picker leaves them out this turn, with their near-identical listings."""


class Tool(Protocol, Generic[ArgsT, ResultT]):
    """A component the agent can call: name, description, argument model and `run()`."""

    name: ClassVar[str]
    description: ClassVar[str]
    args_model: ClassVar[type[BaseModel]]
    concurrency_safe: ClassVar[bool]
    terminal: ClassVar[bool]

    async def run(self, args: ArgsT, ctx: ToolContext) -> ResultT:
        """Do the work; raise `InvalidRequest`, `DependencyDown`, … for expected failures."""
        ...


@dataclass(frozen=True)
class ToolOutcome:
    """What one invocation produced, with its wall time."""

    tool: str
    output: ToolResult | ToolError
    ms: float

    @property
    def ok(self) -> bool:
        return isinstance(self.output, ToolResult)


def tool_json_schema(tool: Tool[Any, Any]) -> dict[str, Any]:
    """The OpenAI function-tool schema generated from the tool's pydantic arguments."""
    return {
        "type": "function",
        "function": {
            "name": tool.name,
            "description": tool.description,
            "parameters": tool.args_model.model_json_schema(),
        },
    }


async def invoke_tool(
    tool: Tool[Any, Any], raw_args: str | dict[str, Any] | None, ctx: ToolContext
) -> ToolOutcome:
    """Validate arguments, run the tool, and turn expected failures into `ToolError`s."""
    started = time.perf_counter()
    output: ToolResult | ToolError
    try:
        args = _parse_args(tool, raw_args)
        result: ToolResult = await tool.run(args, ctx)
        ctx.last_results[tool.name] = result
        output = result
        slot = getattr(output, "slot", None)
        if isinstance(output, ToolResult) and isinstance(slot, str):
            ctx.slot_results.setdefault(tool.name, {})[slot] = output
    except _ArgumentsInvalid as exc:
        output = ToolError(
            code="invalid_arguments", message=str(exc), retry=True, details={"errors": exc.errors}
        )
    except DependencyDown as exc:
        output = ToolError(
            code=DependencyDown.code,
            message=f"{exc}. Do not retry now; tell the shopper this part is unavailable.",
            details={"dependency": exc.name},
        )
    except InvalidRequest as exc:
        output = ToolError(code=exc.code, message=str(exc), retry=True)
    except NotFound as exc:
        output = ToolError(code=exc.code, message=str(exc), retry=True)
    except ConfigError as exc:
        log.error("tool %s: configuration error: %s", tool.name, exc)
        output = ToolError(code=exc.code, message=str(exc))
    ms = (time.perf_counter() - started) * 1000
    error = output if isinstance(output, ToolError) else None
    dependency = error.details.get("dependency") if error is not None else None
    observe_tool(tool.name, ms, error.code if error else None, dependency)
    return ToolOutcome(tool.name, output, ms)


class _ArgumentsInvalid(Exception):
    def __init__(self, message: str, errors: list[dict[str, Any]]) -> None:
        super().__init__(message)
        self.errors = errors


def _parse_args(tool: Tool[Any, Any], raw: str | dict[str, Any] | None) -> BaseModel:
    if raw is None or raw == "":
        raw = {}
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise _ArgumentsInvalid(
                f"arguments of {tool.name} are not valid JSON: {exc}", []
            ) from None
    if not isinstance(raw, dict):
        raise _ArgumentsInvalid(f"arguments of {tool.name} must be a JSON object", [])
    try:
        return tool.args_model.model_validate(raw)
    except ValidationError as exc:
        errors = [
            {"field": ".".join(str(p) for p in e["loc"]), "message": e["msg"]}
            for e in exc.errors(include_url=False, include_context=False, include_input=False)
        ]
        summary = "; ".join(f"{e['field'] or 'arguments'}: {e['message']}" for e in errors)
        raise _ArgumentsInvalid(f"invalid arguments for {tool.name}: {summary}", errors) from None
