"""The one mapping from exceptions to HTTP answers: `{"error": {"code", "message", …}}` with
a status that says whose fault it is; nothing unexpected leaks a traceback to the client."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from app.errors import (
    AuthError,
    ConfigError,
    DependencyDown,
    InvalidRequest,
    NotFound,
    PickwiseError,
)

__all__ = [
    "describe_exception",
    "error_body",
    "error_response",
    "install_error_handlers",
    "status_for_code",
    "validation_message",
]

log = logging.getLogger(__name__)

_STATUS_BY_CODE = {
    "invalid_request": 400,
    "invalid_param": 400,
    "validation_error": 422,
    "not_found": 404,
    "unauthorized": 401,
    "dependency_down": 503,
    "config_error": 500,
    "index_missing": 500,
}
_HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 401: "unauthorized", 403: "forbidden"}


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    """The JSON document of every error answer."""
    return {"error": {"code": code, "message": message, **extra}}


def error_response(code: str, message: str, status: int, **extra: Any) -> JSONResponse:
    return JSONResponse(error_body(code, message, **extra), status_code=status)


def status_for_code(code: str) -> int:
    """The HTTP status of an error code (as found in an `error` event); unknown codes are 500."""
    return _STATUS_BY_CODE.get(code, 500)


def describe_exception(exc: BaseException) -> tuple[int, dict[str, Any]]:
    """Status and `error` object for an exception; only our own errors show their message."""
    if isinstance(exc, DependencyDown):
        return 503, {"code": exc.code, "message": str(exc), "dependency": exc.name}
    if isinstance(exc, AuthError):
        return exc.status, {"code": exc.code, "message": str(exc)}
    if isinstance(exc, InvalidRequest):
        return 400, {"code": exc.code, "message": str(exc)}
    if isinstance(exc, NotFound):
        return 404, {"code": exc.code, "message": str(exc)}
    if isinstance(exc, ConfigError):
        return 500, {"code": exc.code, "message": f"server misconfigured: {exc}"}
    if isinstance(exc, PickwiseError):
        return 500, {"code": exc.code, "message": str(exc)}
    return 500, {"code": "internal_error", "message": "internal error; see the server log"}


def validation_message(exc: RequestValidationError) -> str:
    """One readable line per failed field, e.g. `body.message: must not be blank`."""
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err.get("loc", ()))
        parts.append(f"{where}: {_msg(err)}" if where else _msg(err))
    return "; ".join(parts) or "invalid request"


def _msg(err: dict[str, Any]) -> str:
    """pydantic's message without the 'Value error, ' it puts before our validators' text."""
    return str(err.get("msg", "invalid")).removeprefix("Value error, ")


def install_error_handlers(app: FastAPI) -> None:
    """Register the mapping on `app` for our errors, request validation, HTTP errors and bugs."""

    async def on_validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        fields = [{"loc": list(e.get("loc", ())), "msg": _msg(e)} for e in exc.errors()]
        return error_response("validation_error", validation_message(exc), 422, fields=fields)

    async def on_http(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, HTTPException)
        code = _HTTP_CODES.get(exc.status_code, "http_error")
        return JSONResponse(
            error_body(code, str(exc.detail)), status_code=exc.status_code, headers=exc.headers
        )

    async def on_ours(request: Request, exc: Exception) -> JSONResponse:
        status, error = describe_exception(exc)
        if status >= 500 and not isinstance(exc, DependencyDown):
            log.error("%s %s: %s", request.method, request.url.path, exc)
        return JSONResponse({"error": error}, status_code=status)

    async def on_bug(request: Request, exc: Exception) -> JSONResponse:
        # Starlette re-raises after this answer, so the server logs the traceback once.
        return JSONResponse({"error": describe_exception(exc)[1]}, status_code=500)

    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(HTTPException, on_http)
    app.add_exception_handler(PickwiseError, on_ours)
    app.add_exception_handler(Exception, on_bug)
