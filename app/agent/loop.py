"""The LLM-driven turn: chat completions with the tools' JSON schemas, tool calls run
through the shared runner (parallel when safe), harness hints before every model call,
until a terminal tool answers, the model answers in text, or the iteration cap is hit."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from app.agent._prompts import hint_message, system_message
from app.agent._tool_calls import PlannedCall, run_calls
from app.agent._turn import Turn
from app.config.params.agent import AGENT_TOOL_RESULT_MAX_CHARS
from app.tools.base import Tool, ToolOutcome, tool_json_schema
from app.tools.llm import ChatModel, Message
from app.tools.summary import check_item_ids

__all__ = ["HIDDEN_TOOLS", "SUMMARY_TOOL", "finish_with_summary", "model_tools", "run_llm_turn"]

log = logging.getLogger(__name__)

HIDDEN_TOOLS = frozenset({"planner"})
"""Tools the agent runs itself and never offers to the model."""

SUMMARY_TOOL = "shopping_summary"


def model_tools(tools: Mapping[str, Tool[Any, Any]]) -> list[dict[str, Any]]:
    """The function-tool schemas offered to the model, generated from the argument models."""
    return [tool_json_schema(t) for name, t in tools.items() if name not in HIDDEN_TOOLS]


async def run_llm_turn(turn: Turn, model: ChatModel, tools: Mapping[str, Tool[Any, Any]]) -> bool:
    """Drive the turn with the model; True when it produced the answer. A `DependencyDown`
    from the model propagates (the caller falls back to the offline policy)."""
    offered = {n: t for n, t in tools.items() if n not in HIDDEN_TOOLS}
    schemas = model_tools(tools)
    messages: list[Message] = [system_message(turn.session, turn.ctx.plan, turn.catalog)]
    messages += [line.model_dump() for line in turn.session.conversation]
    messages.append({"role": "user", "content": turn.message})
    iteration = 0
    while turn.allow_model_call(iteration):
        iteration += 1
        messages += [hint_message(h) for h in await turn.hints()]
        with turn.stage(f"model.{iteration}"):
            reply = await model.chat(messages, tools=schemas)
        if not reply.tool_calls:
            text, removed = check_item_ids(
                reply.content or "", turn.allowed_ids(), turn.shops or None
            )
            if removed:
                turn.notes.append(f"removed unknown item ids from the answer: {removed}")
            turn.answer = text
            return bool(text)
        messages.append(reply.as_message())
        calls = [PlannedCall(c.id, c.name, c.arguments, "model") for c in reply.tool_calls]
        outcomes = await run_calls(turn, offered, calls)
        messages += [_tool_message(turn, c, o) for c, o in zip(calls, outcomes, strict=True)]
        answer = _terminal_answer(offered, outcomes)
        if answer is not None:
            turn.answer = answer
            return True
    turn.notes.append(f"stopped after {iteration} model calls")
    return await finish_with_summary(turn, offered)


async def finish_with_summary(turn: Turn, tools: Mapping[str, Tool[Any, Any]]) -> bool:
    """Answer with shopping_summary when something was searched (armed harnesses pick
    first); False when it cannot."""
    if SUMMARY_TOOL not in tools or not turn.ctx.slot_results.get("item_search"):
        return False
    await turn.hints()
    call = PlannedCall(f"agent-summary-{len(turn.trace)}", SUMMARY_TOOL, {}, "agent")
    outcomes = await run_calls(turn, tools, [call])
    answer = _terminal_answer(tools, outcomes)
    if answer is None:
        return False
    turn.answer = answer
    return True


def _terminal_answer(
    tools: Mapping[str, Tool[Any, Any]], outcomes: list[ToolOutcome]
) -> str | None:
    """The text of the first successful terminal tool of the batch, if any."""
    for outcome in outcomes:
        tool = tools.get(outcome.tool)
        if tool is not None and tool.terminal and outcome.ok:
            return str(getattr(outcome.output, "text", outcome.output.render()))
    return None


def _tool_message(turn: Turn, call: PlannedCall, outcome: ToolOutcome) -> Message:
    """The tool result the model reads, cut to size, with the guarding hooks' notes."""
    text = outcome.output.render()
    cap = AGENT_TOOL_RESULT_MAX_CHARS.get()
    if len(text) > cap:
        text = text[:cap] + f"\n[cut: {len(text) - cap} more characters]"
    text = "\n".join([text, *turn.model_notes(call.name, outcome)])
    return {"role": "tool", "tool_call_id": call.call_id, "content": text}
