"""Log lines: JSON with the session and turn ids of the task that logged, plain text with
the turn id, and secret parameter values masked out of both."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Iterator

import pytest

from app.config.registry import REGISTRY
from app.logging_setup import JsonFormatter, PlainFormatter, TurnContext, bind_turn
from tests.admin.conftest import SECRET_MARKER


@pytest.fixture
def lines() -> Iterator[tuple[logging.Logger, io.StringIO, logging.Handler]]:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(TurnContext())
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("tests.admin.logging")
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    yield logger, out, handler
    logger.removeHandler(handler)


async def test_each_turn_task_logs_its_own_ids(
    lines: tuple[logging.Logger, io.StringIO, logging.Handler],
) -> None:
    logger, out, _ = lines

    async def turn(session: str, turn_id: str) -> None:
        bind_turn(session, turn_id)
        await asyncio.sleep(0)
        logger.info("working on %s", turn_id)

    await asyncio.gather(turn("s1", "t1"), turn("s2", "t2"))
    logger.warning("outside any turn")
    docs = [json.loads(line) for line in out.getvalue().splitlines()]
    by_message = {d["message"]: d for d in docs}
    assert by_message["working on t1"]["session_id"] == "s1"
    assert by_message["working on t2"]["turn_id"] == "t2"
    outside = by_message["outside any turn"]
    assert "turn_id" not in outside
    assert (outside["level"], outside["logger"]) == ("WARNING", "tests.admin.logging")


def test_secrets_are_masked_in_json_and_plain_lines(
    lines: tuple[logging.Logger, io.StringIO, logging.Handler],
) -> None:
    logger, out, handler = lines
    with REGISTRY.overridden(LLM_API_KEY=SECRET_MARKER):
        logger.info("calling with key %s", SECRET_MARKER)
        try:
            raise RuntimeError(f"bad key {SECRET_MARKER}")
        except RuntimeError:
            logger.exception("failed")
        handler.setFormatter(PlainFormatter("%(levelname)s %(message)s"))
        logger.info('quoted "%s"', SECRET_MARKER)
    text = out.getvalue()
    assert SECRET_MARKER not in text
    assert text.count("********") == 3
    first = json.loads(text.splitlines()[0])
    assert first["message"] == "calling with key ********"
    assert "RuntimeError: bad key ********" in text
