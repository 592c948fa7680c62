"""`ChatModel` over the OpenAI SDK (any OpenAI-compatible endpoint). The SDK never retries and
its parsing is not trusted: the raw body is read here, so a reply that is not JSON, has the
wrong shape or is empty becomes `BadReply`. Every call goes through its role's breaker
(`llm_planner`, `llm_agent`) and clamps its timeout to the turn's deadline."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

import openai
from openai import AsyncOpenAI

from app.config.params.llm import (
    LLM_API_KEY,
    LLM_MAX_TOKENS,
    LLM_MODEL,
    LLM_PLANNER_MODEL,
    LLM_PLANNER_TEMPERATURE,
    LLM_TEMPERATURE,
)
from app.errors import BadReply, DependencyDown, PickwiseError
from app.recall.breakers import guarded
from app.telemetry import observe_llm_call, observe_llm_error, observe_llm_failure
from app.tools.llm._deadline import budget_of, cut_by_deadline, deadline_reason
from app.tools.llm.llm import (
    AGENT,
    PLANNER,
    ChatReply,
    Message,
    Role,
    StructuredForm,
    StructuredReply,
    ToolCallRequest,
    breaker_of,
    current_deadline,
)

T = TypeVar("T")

log = logging.getLogger(__name__)

_NO_KEY = "no-key"
FORMS: tuple[StructuredForm, ...] = ("json_schema", "json_object", "prompt")
"""Structured-output forms, most constrained first; a server that refuses one gets the next."""
_REFUSALS = frozenset({400, 422})
PROMPT_SCHEMA_INTRO = (
    "Reply with one JSON object, and nothing else, that validates against this JSON schema:"
)
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.S)


class _FormRefused(PickwiseError):
    """The server refused the `response_format` asked for (400/422): not a failure of it."""

    code = "format_refused"


class _Usage(NamedTuple):
    prompt_tokens: int | None
    completion_tokens: int | None


@dataclass(frozen=True)
class _Completion:
    """The one choice of a completion, checked for shape."""

    content: str | None
    tool_calls: tuple[ToolCallRequest, ...]
    finish_reason: str | None
    usage: _Usage | None


class OpenAIChatModel:
    """Chat completions at `base_url`; one SDK client per API key in force. Remembers, per
    model, the structured-output form the server accepted."""

    name = "openai"
    remote = True

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self._clients: dict[str, AsyncOpenAI] = {}
        self.structured_forms: dict[tuple[str, str], StructuredForm] = {}
        """(base_url, model) -> the form that server accepted last."""

    async def chat(
        self,
        messages: Sequence[Message],
        *,
        tools: Sequence[dict[str, Any]] = (),
        model: str | None = None,
        temperature: float | None = None,
    ) -> ChatReply:
        extra: dict[str, Any] = {"tools": list(tools), "tool_choice": "auto"} if tools else {}
        completion, _ = await self._complete(
            AGENT,
            messages,
            model=model or LLM_MODEL.get(),
            temperature=LLM_TEMPERATURE.get() if temperature is None else temperature,
            check=_has_answer,
            **extra,
        )
        return ChatReply(completion.content, completion.tool_calls, completion.finish_reason)

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
        name = model or LLM_PLANNER_MODEL.get() or LLM_MODEL.get()
        heat = LLM_PLANNER_TEMPERATURE.get() if temperature is None else temperature
        key = (self.base_url, name)
        start = FORMS.index(self.structured_forms.get(key, FORMS[0]))
        for form in FORMS[start:]:
            try:
                reply = await self._structured_as(
                    form, messages, schema, schema_name, parse, repairs, name, heat
                )
            except _FormRefused as exc:
                log.info("%s at %s refuses %s structured output (%s)", name, key[0], form, exc)
                continue
            self.structured_forms[key] = form
            return reply
        raise AssertionError("the prompt form sends no response_format and cannot be refused")

    async def close(self) -> None:
        clients, self._clients = list(self._clients.values()), {}
        for client in clients:
            await client.close()

    async def _structured_as(
        self,
        form: StructuredForm,
        messages: Sequence[Message],
        schema: dict[str, Any],
        schema_name: str,
        parse: Callable[[str], T],
        repairs: int,
        model: str,
        temperature: float,
    ) -> StructuredReply[T]:
        """Ask in `form`, repairing up to `repairs` times; the last attempt is read inside the
        breaker, so output that never validates counts as a failure of the planner role."""
        chat = _in_form(form, list(messages), schema)
        extra = _response_format(form, schema, schema_name)
        read = _unfenced(parse) if form == "prompt" else parse
        problems: list[str] = []
        for attempt in range(repairs + 1):
            last = attempt == repairs
            check = _validating(read, repairs) if last else _has_text
            completion, value = await self._complete(
                PLANNER, chat, model=model, temperature=temperature, check=check, **extra
            )
            text = completion.content or ""
            if last:
                return StructuredReply(value, form, tuple(problems))
            try:
                return StructuredReply(read(text), form, tuple(problems))
            except ValueError as exc:
                problems.append(str(exc))
            chat += [
                {"role": "assistant", "content": text},
                {
                    "role": "user",
                    "content": f"That JSON does not validate: {problems[-1]}. "
                    "Reply with the corrected JSON object only.",
                },
            ]
        raise AssertionError("the last attempt returns or raises")

    async def _complete(
        self,
        role: Role,
        messages: Sequence[Message],
        *,
        model: str,
        temperature: float,
        check: Callable[[_Completion], Any],
        **extra: Any,
    ) -> tuple[_Completion, Any]:
        """One request through the breaker of `role`, within the turn's deadline; the body is
        parsed and `check`ed inside the breaker, so a bad one counts as a failure."""
        breaker = breaker_of(role)
        budget, clamped = budget_of(role)
        client = self._client()
        refusable = "response_format" in extra

        async def call() -> tuple[_Completion, Any]:
            try:
                async with asyncio.timeout(budget):
                    raw = await client.chat.completions.with_raw_response.create(
                        model=model,
                        messages=list(messages),  # type: ignore[arg-type]
                        temperature=temperature,
                        max_tokens=LLM_MAX_TOKENS.get(),
                        timeout=budget,
                        **extra,
                    )
            except openai.APIStatusError as exc:
                if refusable and exc.status_code in _REFUSALS:
                    raise _FormRefused(f"HTTP {exc.status_code}") from exc
                raise
            completion = _read_completion(breaker, raw.text)
            return completion, check(completion)

        started = time.perf_counter()
        try:
            completion, checked = await guarded(breaker, call)
        except DependencyDown as exc:
            failure = _failure(breaker, exc, clamped)
            if failure.kind == "deadline":
                failure = cut_by_deadline(role, failure, time.perf_counter() - started)
            observe_llm_failure(role, failure.kind)
            observe_llm_error(model, exc)
            raise failure from exc
        observe_llm_call(model, time.perf_counter() - started, completion.usage)
        return completion, checked

    def _client(self) -> AsyncOpenAI:
        key = LLM_API_KEY.get() or _NO_KEY
        client = self._clients.get(key)
        if client is None:
            client = AsyncOpenAI(base_url=self.base_url, api_key=key, max_retries=0)
            self._clients[key] = client
        return client


def _failure(breaker: str, exc: DependencyDown, clamped: bool) -> DependencyDown:
    """The failure as the caller sees it: a short reason and a stable `kind`."""
    opened = "; circuit opened" if exc.reason.endswith("circuit opened") else ""
    cause = exc if isinstance(exc, BadReply) else exc.__cause__
    if isinstance(cause, BadReply):
        return BadReply(breaker, cause.reason + opened, kind=cause.kind)
    kind, reason = "error", exc.reason or "failed"
    if exc.reason == "circuit open":
        kind, reason = "circuit_open", "is off (circuit open)"
    elif isinstance(cause, TimeoutError | openai.APITimeoutError):
        deadline = current_deadline()
        if clamped and deadline is not None:
            kind, reason = "deadline", deadline_reason(deadline.seconds)
        else:
            kind, reason = "timeout", "timed out"
    elif isinstance(cause, openai.APIConnectionError):
        kind, reason = "connection", "could not be reached"
    elif isinstance(cause, openai.APIStatusError):
        kind, reason = f"http_{cause.status_code // 100}xx", f"answered HTTP {cause.status_code}"
    return DependencyDown(breaker, reason + opened, kind=kind)


def _read_completion(breaker: str, body: str) -> _Completion:
    """The first choice of a completion body; anything else is `BadReply`."""
    try:
        doc = json.loads(body)
    except ValueError:
        raise BadReply(breaker, "sent a malformed reply (not JSON)", kind="malformed") from None
    if not isinstance(doc, dict):
        what = type(doc).__name__
        raise BadReply(breaker, f"sent a malformed reply (a JSON {what})", kind="malformed")
    choices = doc.get("choices")
    if not isinstance(choices, list):
        raise BadReply(breaker, "sent a malformed reply (no choices list)", kind="malformed")
    if not choices:
        raise BadReply(breaker, "sent an empty reply (no choices)", kind="empty")
    choice = choices[0]
    message = choice.get("message") if isinstance(choice, dict) else None
    if not isinstance(message, dict):
        raise BadReply(breaker, "sent an empty reply (no message)", kind="empty")
    content = message.get("content")
    if content is not None and not isinstance(content, str):
        raise BadReply(breaker, "sent a malformed reply (content)", kind="malformed")
    finish = choice.get("finish_reason")
    return _Completion(
        content,
        _tool_calls(breaker, message.get("tool_calls")),
        finish if isinstance(finish, str) else None,
        _usage(doc.get("usage")),
    )


def _tool_calls(breaker: str, calls: Any) -> tuple[ToolCallRequest, ...]:
    if not calls:
        return ()
    if not isinstance(calls, list):
        raise BadReply(breaker, "sent a malformed reply (tool calls)", kind="malformed")
    found = []
    for n, call in enumerate(calls):
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(call, dict) or not isinstance(function, dict):
            raise BadReply(breaker, "sent a malformed reply (tool call)", kind="malformed")
        name = function.get("name")
        if not isinstance(name, str) or not name:
            raise BadReply(breaker, "sent a malformed reply (tool call name)", kind="malformed")
        if call.get("type", "function") != "function":
            continue
        arguments = function.get("arguments")
        if not isinstance(arguments, str):
            arguments = "" if arguments is None else json.dumps(arguments)
        found.append(ToolCallRequest(str(call.get("id") or f"call_{n}"), name, arguments))
    return tuple(found)


def _usage(usage: Any) -> _Usage | None:
    if not isinstance(usage, dict):
        return None
    prompt, completion = usage.get("prompt_tokens"), usage.get("completion_tokens")
    return _Usage(
        prompt if isinstance(prompt, int) else None,
        completion if isinstance(completion, int) else None,
    )


def _has_answer(completion: _Completion) -> None:
    """A chat reply must answer or call a tool."""
    if not completion.tool_calls and not (completion.content or "").strip():
        reason = "sent an empty reply (no text, no tool call)"
        raise BadReply(breaker_of(AGENT), reason, kind="empty")


def _has_text(completion: _Completion) -> None:
    """A structured reply must have text (whether it validates is the repair's business)."""
    if not (completion.content or "").strip():
        raise BadReply(breaker_of(PLANNER), "sent an empty reply (no text)", kind="empty")


def _validating(parse: Callable[[str], T], repairs: int) -> Callable[[_Completion], T]:
    """`parse` for the last attempt: output that still does not validate is `BadReply`."""

    def check(completion: _Completion) -> T:
        _has_text(completion)
        try:
            return parse(completion.content or "")
        except ValueError as exc:
            after = f" after {repairs} repair{'s' if repairs != 1 else ''}" if repairs else ""
            reason = f"sent JSON that did not validate{after}: {exc}"
            raise BadReply(breaker_of(PLANNER), reason[:300], kind="invalid_output") from None

    return check


def _unfenced(parse: Callable[[str], T]) -> Callable[[str], T]:
    """`parse` of a prompt-instructed reply, which may come in a ```json fence."""

    def read(text: str) -> T:
        fenced = _FENCE.match(text)
        return parse(fenced.group(1) if fenced else text)

    return read


def _response_format(
    form: StructuredForm, schema: dict[str, Any], schema_name: str
) -> dict[str, Any]:
    if form == "json_schema":
        return {
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": schema_name, "schema": schema, "strict": False},
            }
        }
    if form == "json_object":
        return {"response_format": {"type": "json_object", "schema": schema}}
    return {}


def _in_form(
    form: StructuredForm, messages: list[Message], schema: dict[str, Any]
) -> list[Message]:
    """The messages of `form`: for the prompt form, the schema joins the system message."""
    if form != "prompt":
        return messages
    instruction = f"{PROMPT_SCHEMA_INTRO}\n{json.dumps(schema, separators=(',', ':'))}"
    if messages and messages[0].get("role") == "system":
        first = messages[0]
        content = f"{first.get('content') or ''}\n\n{instruction}"
        return [{**first, "content": content}, *messages[1:]]
    return [{"role": "system", "content": instruction}, *messages]
