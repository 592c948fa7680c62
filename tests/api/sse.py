"""A small Server-Sent Events parser for tests: blocks of `field: value` lines."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SseMessage:
    event: str
    data: dict[str, Any]
    id: str | None


def parse_block(lines: Iterable[str]) -> SseMessage | None:
    """One message from the lines of a block; None for a comment-only (keep-alive) block."""
    fields: dict[str, list[str]] = {}
    for line in lines:
        if not line or line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        fields.setdefault(name, []).append(value.removeprefix(" "))
    if not fields:
        return None
    return SseMessage(
        event=fields.get("event", ["message"])[-1],
        data=json.loads("\n".join(fields.get("data", []))),
        id=fields.get("id", [None])[-1],
    )


def parse_sse(text: str) -> list[SseMessage]:
    """Every message of a whole stream."""
    blocks = (parse_block(block.split("\n")) for block in text.replace("\r\n", "\n").split("\n\n"))
    return [m for m in blocks if m is not None]


async def iter_sse(lines: AsyncIterator[str]) -> AsyncIterator[SseMessage]:
    """Messages as they arrive on a line iterator (e.g. httpx `aiter_lines`)."""
    block: list[str] = []
    async for line in lines:
        if line:
            block.append(line)
            continue
        message = parse_block(block)
        block = []
        if message is not None:
            yield message
