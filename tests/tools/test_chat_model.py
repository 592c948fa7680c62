"""The chat model backends against one contract: the OpenAI SDK client over real HTTP to the
scripted OpenAI-compatible server (the process edge)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

import pytest

from app.recall.breakers import BREAKERS
from app.tools.llm._openai_chat import OpenAIChatModel
from app.tools.llm.llm import ChatModel
from tests.contracts.chat_model_contract import ChatEdge, ChatModelContract
from tests.fakes.scripted_openai import (
    Call,
    ScriptedOpenAI,
    calls,
    echo,
    fail,
    say,
    scripted_openai,
    scripted_openai_server,
    structured,
)

__all__ = ["scripted_openai", "scripted_openai_server"]


class ScriptedEdge:
    """`ChatEdge` over the scripted server: answers queue for the request kind they fit."""

    def __init__(self, server: ScriptedOpenAI) -> None:
        self.server = server

    def answer(self, text: str) -> None:
        self.server.script("text", say(text))
        self.server.script("tools", say(text))

    def call_tools(self, tool_calls: Sequence[tuple[str, dict[str, Any]]]) -> None:
        self.server.script("tools", calls(*(Call(name, args) for name, args in tool_calls)))

    def answer_structured(self, text: str) -> None:
        self.server.script("plan", structured(text))

    def echo_last_user_message(self) -> None:
        self.server.script("text", echo())

    def fail_next(self) -> None:
        for kind in ("text", "tools", "plan"):
            self.server.script(kind, fail(503))

    def last_request(self) -> dict[str, Any]:
        last = self.server.requests()[-1]
        return {"messages": last.messages, "tools": last.tool_names}


@pytest.fixture(autouse=True)
def _closed_breakers() -> Iterator[None]:
    BREAKERS.reset()
    yield
    BREAKERS.reset()


class TestOpenAIChatModel(ChatModelContract):
    @pytest.fixture
    async def model(self, scripted_openai: ScriptedOpenAI) -> AsyncIterator[ChatModel]:
        chat = OpenAIChatModel(scripted_openai.base_url)
        yield chat
        await chat.close()

    @pytest.fixture
    def edge(self, scripted_openai: ScriptedOpenAI) -> ChatEdge:
        return ScriptedEdge(scripted_openai)
