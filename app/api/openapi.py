"""The OpenAPI document with the error answers every route can give declared: one `Error`
body for all of them, the statuses each route family documents (429 with `Retry-After`,
503 when a dependency is down…), so clients and conformance checks can rely on them."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

__all__ = ["ERROR_SCHEMA", "install_openapi", "statuses_for"]

ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": {"type": "string"},
                "message": {"type": "string"},
                "retry_after_s": {"type": "integer"},
                "dependency": {"type": "string"},
            },
        }
    },
}
_DESCRIPTIONS = {
    400: "Bad input (a value out of range, a malformed id).",
    401: "Admin token missing.",
    403: "Admin token wrong.",
    404: "No such session (or not the caller's: a wrong or missing `X-Session-Token`), "
    "item, parameter or route.",
    409: "The index cannot change live (built from the demo sources, not an imported catalog).",
    422: "The request does not match its schema, or holds text that is not valid Unicode.",
    429: "This worker is at capacity; retry after `Retry-After` seconds.",
    503: "A dependency needed for this request is down.",
}
_FAMILIES: tuple[tuple[str, frozenset[int]], ...] = (
    ("/v1/chat", frozenset({400, 404, 422, 429, 503})),
    ("/v1/sessions", frozenset({400, 404, 422, 429, 503})),
    ("/v1/admin/catalog", frozenset({400, 401, 403, 404, 409, 422, 503})),
    ("/v1/admin", frozenset({400, 401, 403, 404, 422, 503})),
    ("/v1/items", frozenset({400, 404, 422, 503})),
    ("/v1/catalog", frozenset({400, 422})),
)
_DEFAULT = frozenset({400, 422})
_HEALTH_DOWN = {
    "description": "A critical component is down; the body is the same report as with 200.",
    "content": {"application/json": {"schema": {"type": "object"}}},
}


def statuses_for(path: str) -> frozenset[int]:
    """The error statuses documented for `path`."""
    for prefix, statuses in _FAMILIES:
        if path.startswith(prefix):
            return statuses
    return _DEFAULT if path.startswith("/v1/") else frozenset()


def install_openapi(app: FastAPI) -> None:
    """Serve `app`'s OpenAPI document with the error answers declared (built once)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title,
                version=app.version,
                summary=app.summary,
                description=app.description,
                routes=app.routes,
            )
            app.openapi_schema = declare_errors(schema)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def declare_errors(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with the error responses of each operation set to the shared `Error` body
    (FastAPI's own 422 shape is not what the API answers)."""
    schema.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    ref = {"$ref": "#/components/schemas/Error"}
    for path, operations in schema.get("paths", {}).items():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            for status in sorted(statuses_for(path)):
                answer: dict[str, Any] = {
                    "description": _DESCRIPTIONS[status],
                    "content": {"application/json": {"schema": ref}},
                }
                if status == 429:
                    answer["headers"] = {
                        "Retry-After": {"schema": {"type": "integer"}, "required": True}
                    }
                responses[str(status)] = answer
            if path == "/healthz":
                responses["503"] = _HEALTH_DOWN
    return schema
