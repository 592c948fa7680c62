"""`ChatModel` over the OpenAI SDK (any OpenAI-compatible endpoint). The SDK never retries:
every call goes through the "llm" breaker, which turns failures into `DependencyDown`."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from openai import AsyncOpenAI
from openai.types.chat import ChatCompletion

from app.config.params.llm import (
    LLM_API_KEY,
    LLM_MAX_TOKENS,
    LLM_MODEL,
    LLM_PLANNER_MODEL,
    LLM_PLANNER_TEMPERATURE,
    LLM_TEMPERATURE,
    LLM_TIMEOUT_S,
)
from app.errors import DependencyDown
from app.recall.breakers import guarded
from app.telemetry import observe_llm_call, observe_llm_error
from app.tools.llm import ChatReply, Message, ToolCallRequest

BREAKER = "llm"
_NO_KEY = "no-key"


class OpenAIChatModel:
    """Chat completions at `base_url`; one SDK client per API key in force."""

    name = "openai"
    remote = True

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self._clients: dict[str, AsyncOpenAI] = {}

    async def chat(
        self,
        messages: Sequence[Message],
        *,
        tools: Sequence[dict[str, Any]] = (),
        model: str | None = None,
        temperature: float | None = None,
    ) -> ChatReply:
        extra: dict[str, Any] = {"tools": list(tools), "tool_choice": "auto"} if tools else {}
        completion = await self._complete(
            messages,
            model=model or LLM_MODEL.get(),
            temperature=LLM_TEMPERATURE.get() if temperature is None else temperature,
            **extra,
        )
        choice = completion.choices[0]
        calls = tuple(
            ToolCallRequest(call.id, call.function.name, call.function.arguments or "")
            for call in choice.message.tool_calls or ()
            if call.type == "function"
        )
        return ChatReply(choice.message.content, calls, choice.finish_reason)

    async def structured(
        self,
        messages: Sequence[Message],
        *,
        schema: dict[str, Any],
        schema_name: str,
        model: str | None = None,
        temperature: float | None = None,
    ) -> str:
        completion = await self._complete(
            messages,
            model=model or LLM_PLANNER_MODEL.get() or LLM_MODEL.get(),
            temperature=LLM_PLANNER_TEMPERATURE.get() if temperature is None else temperature,
            response_format={
                "type": "json_schema",
                "json_schema": {"name": schema_name, "schema": schema, "strict": False},
            },
        )
        return completion.choices[0].message.content or ""

    async def close(self) -> None:
        clients, self._clients = list(self._clients.values()), {}
        for client in clients:
            await client.close()

    async def _complete(
        self, messages: Sequence[Message], *, model: str, temperature: float, **extra: Any
    ) -> ChatCompletion:
        client = self._client()

        async def call() -> ChatCompletion:
            return await client.chat.completions.create(
                model=model,
                messages=list(messages),  # type: ignore[arg-type]
                temperature=temperature,
                max_tokens=LLM_MAX_TOKENS.get(),
                timeout=LLM_TIMEOUT_S.get(),
                **extra,
            )

        started = time.perf_counter()
        try:
            completion = await guarded(BREAKER, call)
        except DependencyDown as exc:
            observe_llm_error(model, exc)
            raise
        observe_llm_call(model, time.perf_counter() - started, completion.usage)
        if not completion.choices:
            raise DependencyDown(BREAKER, "the model returned no choices")
        return completion

    def _client(self) -> AsyncOpenAI:
        key = LLM_API_KEY.get() or _NO_KEY
        client = self._clients.get(key)
        if client is None:
            client = AsyncOpenAI(base_url=self.base_url, api_key=key, max_retries=0)
            self._clients[key] = client
        return client
