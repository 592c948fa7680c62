"""The behaviour every `ChatModel` backend must show: a text answer or tool calls come back as
a typed `ChatReply`, the conversation and the offered tools reach the engine, a tool round
trip is accepted, structured output comes back read by the caller's `parse` (never-valid
output is `DependencyDown`), and a failing engine is `DependencyDown`.

Backend test classes inherit `ChatModelContract` and provide a `model` fixture and an `edge`
fixture: a `ChatEdge` that scripts the engine behind the backend and reports what it got.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

import pytest

from app.errors import DependencyDown
from app.tools.llm.llm import ChatModel, Message

TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": name,
            "description": f"{name} for the contract test",
            "parameters": {"type": "object", "properties": {"query": {"type": "string"}}},
        },
    }
    for name in ("item_search", "item_picker")
]
CONVERSATION: list[Message] = [
    {"role": "system", "content": "You help shoppers."},
    {"role": "user", "content": "a quiet keyboard under $50"},
]


class ChatEdge(Protocol):
    """The engine behind a backend, scripted by the contract: each method queues one answer."""

    def answer(self, text: str) -> None: ...

    def call_tools(self, calls: Sequence[tuple[str, dict[str, Any]]]) -> None: ...

    def answer_structured(self, text: str) -> None: ...

    def echo_last_user_message(self) -> None: ...

    def fail_next(self) -> None: ...

    def last_request(self) -> dict[str, Any]:
        """What the engine got last: `messages` (role/content dicts) and `tools` (names)."""
        ...


class ChatModelContract:
    """Inherit and provide `model` (the backend) and `edge` (its scripted engine) fixtures."""

    @pytest.fixture
    def model(self) -> ChatModel:
        raise NotImplementedError

    @pytest.fixture
    def edge(self) -> ChatEdge:
        raise NotImplementedError

    def test_is_a_chat_model(self, model: ChatModel) -> None:
        assert isinstance(model, ChatModel)
        assert isinstance(model.name, str)
        assert model.name
        assert isinstance(model.remote, bool)

    async def test_a_text_answer_has_no_tool_calls(self, model: ChatModel, edge: ChatEdge) -> None:
        edge.answer("The Logitech K295 is quiet and costs $29.99.")
        reply = await model.chat(CONVERSATION)
        assert reply.content == "The Logitech K295 is quiet and costs $29.99."
        assert reply.tool_calls == ()

    async def test_the_conversation_reaches_the_engine(
        self, model: ChatModel, edge: ChatEdge
    ) -> None:
        edge.echo_last_user_message()
        reply = await model.chat(CONVERSATION)
        assert reply.content == "a quiet keyboard under $50"
        sent = edge.last_request()
        assert [m["role"] for m in sent["messages"]] == ["system", "user"]
        assert sent["tools"] == []

    async def test_tool_calls_come_back_in_order_with_their_arguments(
        self, model: ChatModel, edge: ChatEdge
    ) -> None:
        edge.call_tools([("item_search", {"query": "quiet keyboard"}), ("item_picker", {})])
        reply = await model.chat(CONVERSATION, tools=TOOLS)
        assert [c.name for c in reply.tool_calls] == ["item_search", "item_picker"]
        assert [json.loads(c.arguments or "{}") for c in reply.tool_calls] == [
            {"query": "quiet keyboard"},
            {},
        ]
        ids = [c.id for c in reply.tool_calls]
        assert all(ids)
        assert len(set(ids)) == 2
        assert edge.last_request()["tools"] == ["item_search", "item_picker"]

    async def test_a_tool_round_trip_is_accepted(self, model: ChatModel, edge: ChatEdge) -> None:
        edge.call_tools([("item_search", {"query": "quiet keyboard"})])
        first = await model.chat(CONVERSATION, tools=TOOLS)
        call = first.tool_calls[0]
        result: Message = {"role": "tool", "tool_call_id": call.id, "content": '{"hits": 3}'}
        edge.answer("Three quiet keyboards fit.")
        second = await model.chat([*CONVERSATION, first.as_message(), result], tools=TOOLS)
        assert second.content == "Three quiet keyboards fit."
        sent = edge.last_request()["messages"]
        assert [m["role"] for m in sent] == ["system", "user", "assistant", "tool"]
        assert sent[3]["content"] == '{"hits": 3}'

    async def test_structured_output_is_read_by_parse_and_never_valid_is_dependency_down(
        self, model: ChatModel, edge: ChatEdge
    ) -> None:
        schema = {"type": "object", "properties": {"budget": {"type": "number"}}}
        edge.answer_structured('{"budget": 50}')
        reply = await model.structured(
            CONVERSATION, schema=schema, schema_name="plan", parse=json.loads, repairs=0
        )
        assert (reply.value, reply.problems) == ({"budget": 50}, ())
        edge.answer_structured("not json at all")
        with pytest.raises(DependencyDown):
            await model.structured(
                CONVERSATION, schema=schema, schema_name="plan", parse=json.loads, repairs=0
            )

    async def test_a_failing_engine_is_dependency_down_and_the_next_call_works(
        self, model: ChatModel, edge: ChatEdge
    ) -> None:
        edge.fail_next()
        with pytest.raises(DependencyDown):
            await model.chat(CONVERSATION)
        edge.answer("back")
        assert (await model.chat(CONVERSATION)).content == "back"

    async def test_close_twice_is_harmless(self, model: ChatModel) -> None:
        await model.close()
        await model.close()
