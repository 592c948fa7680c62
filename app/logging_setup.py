"""Process logging: one line per record, JSON when `LOG_JSON=true`, tagged with the session
and turn of the task that logged it (context variables the agent sets per turn), with the
current value of every secret parameter masked out of the finished line, and credentials
(`?token=` and the like in a URL, `X-Session-Token` and `Authorization` values) masked out
of every record, uvicorn's access log included."""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Mapping
from contextvars import ContextVar
from datetime import UTC, datetime

from app.config.registry import REGISTRY, Param, mask

__all__ = [
    "PLAIN_FORMAT",
    "QUIET_LIBRARIES",
    "SESSION_ID",
    "TURN_ID",
    "JsonFormatter",
    "PlainFormatter",
    "TokenMask",
    "TurnContext",
    "bind_turn",
    "configure_logging",
    "install_token_mask",
    "mask_tokens",
]

SESSION_ID: ContextVar[str | None] = ContextVar("pickwise_session_id", default=None)
TURN_ID: ContextVar[str | None] = ContextVar("pickwise_turn_id", default=None)

PLAIN_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_MIN_SECRET_CHARS = 4
_MASK = "***"
_QUERY_SECRET = re.compile(
    r"([?&;][^=&\s\"'#]*(?:token|secret|password|passwd|api[_-]?key|signature)[^=&\s\"'#]*=)"
    r"[^&\s\"'#]*",
    re.IGNORECASE,
)
_HEADER_SECRET = re.compile(
    r"((?:x-session-token|x-admin-token|authorization)[\"']?\s*[:=]\s*[\"']?(?:bearer\s+)?)"
    r"[^\s\"',;}\]]+",
    re.IGNORECASE,
)
_MASKED_LOGGERS = ("uvicorn.access", "uvicorn.error")


def mask_tokens(text: str) -> str:
    """`text` with credential values masked: URL query parameters named like a token, secret,
    password or key, and the values of `X-Session-Token` / `Authorization` headers."""
    if "=" in text:
        text = _QUERY_SECRET.sub(lambda m: m.group(1) + _MASK, text)
    return _HEADER_SECRET.sub(lambda m: m.group(1) + _MASK, text)


class TokenMask(logging.Filter):
    """Masks credentials in a record's message and arguments in place (the arguments keep
    their shape, so uvicorn's access formatter still reads its tuple)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = mask_tokens(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_masked(a) for a in record.args)
        elif isinstance(record.args, Mapping):
            record.args = {k: _masked(v) for k, v in record.args.items()}
        return True


def _masked(value: object) -> object:
    return mask_tokens(value) if isinstance(value, str) else value


def install_token_mask() -> None:
    """Put a `TokenMask` on uvicorn's loggers (whatever handlers it was configured with);
    idempotent."""
    for name in _MASKED_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, TokenMask) for f in logger.filters):
            logger.addFilter(TokenMask())


def bind_turn(session_id: str, turn_id: str) -> None:
    """Tag the log records of the current task (one turn) and the tasks it starts."""
    SESSION_ID.set(session_id)
    TURN_ID.set(turn_id)


class TurnContext(logging.Filter):
    """Copies the session and turn ids of the logging task onto the record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.session_id = SESSION_ID.get()
        record.turn_id = TURN_ID.get()
        return True


class _Secrets:
    """The values of secret parameters in force, looked up per record (they may change)."""

    def __init__(self) -> None:
        self._params: list[Param[str]] = []
        self._declared = -1

    def redact(self, text: str) -> str:
        if self._declared != len(REGISTRY):
            self._params = [p for p in REGISTRY if p.secret]
            self._declared = len(REGISTRY)
        for param in self._params:
            value = str(REGISTRY.value(param))
            if len(value) >= _MIN_SECRET_CHARS and value in text:
                text = text.replace(value, mask(value))
        return mask_tokens(text)


_SECRETS = _Secrets()


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, session and turn ids, and
    the traceback when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        doc: dict[str, object] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": _SECRETS.redact(record.getMessage()),
        }
        for key in ("session_id", "turn_id"):
            value = getattr(record, key, None)
            if value is not None:
                doc[key] = value
        if record.exc_info:
            doc["exc"] = _SECRETS.redact(self.formatException(record.exc_info))
        return json.dumps(doc, ensure_ascii=False, default=str)


class PlainFormatter(logging.Formatter):
    """The human format, with the turn id appended when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        turn = getattr(record, "turn_id", None)
        return _SECRETS.redact(f"{line} [turn {turn}]" if turn else line)


QUIET_LIBRARIES = ("bm25s",)
"""Libraries that set their own logger to DEBUG on import; held at WARNING."""


def configure_logging(level: str = "INFO", *, json_lines: bool = False) -> logging.Handler:
    """Send every logger's records to stderr through one handler, replacing the root's."""
    for name in QUIET_LIBRARIES:
        logging.getLogger(name).setLevel(logging.WARNING)
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(TurnContext())
    handler.addFilter(TokenMask())
    install_token_mask()
    handler.setFormatter(JsonFormatter() if json_lines else PlainFormatter(PLAIN_FORMAT))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    return handler
