"""The admin API over the parameter registry (`/v1/admin/params`, `/v1/admin/audit`, bearer
tokens from `ADMIN_TOKENS`; absent without tokens) and, for every app, the override sync:
started with the app, and a throttled version check before each request."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Depends, FastAPI, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.types import ASGIApp, Receive, Scope, Send

from app.api._auth import AdminAuth, require_admin
from app.api.errors import error_response
from app.config.overrides import open_override_store
from app.config.overrides_admin import Change, ParamAdmin
from app.config.overrides_sync import OverrideSync
from app.config.settings import Settings
from app.errors import ConfigError

__all__ = [
    "AUDIT_LIMIT_MAX",
    "OverrideCheckMiddleware",
    "ParamsReset",
    "ParamsState",
    "ParamsUpdate",
    "audit",
    "install",
    "list_params",
    "reset_params",
    "router",
    "update_params",
]

AUDIT_LIMIT_MAX = 1000

router = APIRouter(prefix="/v1/admin", tags=["admin"])


@dataclass
class ParamsState:
    """What the admin routes and the sync middleware share for one app."""

    admin: ParamAdmin
    sync: OverrideSync
    auth: AdminAuth


class ParamsUpdate(BaseModel):
    """A batch of new values by parameter name; all are validated before any is applied."""

    model_config = ConfigDict(extra="forbid")
    values: dict[str, Any] = Field(description="New values; a blank secret keeps the old one.")


class ParamsReset(BaseModel):
    """The parameters whose overrides to drop; none given resets every override."""

    model_config = ConfigDict(extra="forbid")
    keys: list[str] | None = Field(None, description="Names to reset; omitted or null: all.")


@router.get("/params")
async def list_params(request: Request, actor: str = Depends(require_admin)) -> dict[str, Any]:
    """Every parameter: value, default, bounds, group, description, secret flag and source."""
    state = _state(request)
    params = await asyncio.to_thread(state.admin.params)
    return {"version": state.admin.version, "store": state.admin.store.name, "params": params}


@router.put("/params", response_model=None)
async def update_params(
    body: ParamsUpdate, request: Request, actor: str = Depends(require_admin)
) -> dict[str, Any] | JSONResponse:
    """Override a batch; 400 naming the first invalid key, and then nothing changes."""
    admin = _state(request).admin
    rejected = admin.check_update(body.values)
    if rejected is not None:
        return error_response("invalid_param", rejected.message, 400, key=rejected.key)
    change = await asyncio.to_thread(admin.update, body.values, actor=actor)
    return _change(change)


@router.post("/params/reset", response_model=None)
async def reset_params(
    request: Request, body: ParamsReset | None = None, actor: str = Depends(require_admin)
) -> dict[str, Any] | JSONResponse:
    """Drop the overrides of the named keys, or of all; 400 for an unknown key."""
    admin = _state(request).admin
    keys = None if body is None else body.keys
    unknown = admin.check_reset(keys)
    if unknown is not None:
        return error_response("invalid_param", unknown.message, 400, key=unknown.key)
    change = await asyncio.to_thread(admin.reset, keys, actor=actor)
    return _change(change)


@router.get("/audit")
async def audit(
    request: Request,
    limit: int = Query(100, ge=1, le=AUDIT_LIMIT_MAX, description="Newest entries to return."),
    actor: str = Depends(require_admin),
) -> dict[str, Any]:
    """The newest parameter changes: who, when, key, old and new value (secrets masked)."""
    entries = await asyncio.to_thread(_state(request).admin.audit, limit)
    return {"entries": [e.as_dict() for e in entries]}


def install(app: FastAPI, settings: Settings) -> None:
    """Follow the shared overrides for the app's lifetime, check their version before each
    request, and serve the admin routes when `ADMIN_TOKENS` names any."""
    auth = AdminAuth.from_secret(settings.admin_tokens)
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[Any]:
        store = open_override_store(settings)
        sync = OverrideSync(store)
        await asyncio.to_thread(sync.start)
        app.state.params = ParamsState(ParamAdmin(store, sync=sync), sync, auth)
        try:
            async with inner(app) as value:
                yield value
        finally:
            app.state.params = None
            await asyncio.to_thread(sync.stop)

    app.router.lifespan_context = lifespan
    app.add_middleware(OverrideCheckMiddleware)
    if auth.enabled:
        app.include_router(router)


class OverrideCheckMiddleware:
    """Before each HTTP request, the throttled check of the override version: the fallback
    for a change notice that never arrived."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            state = getattr(scope["app"].state, "params", None)
            if isinstance(state, ParamsState):
                await state.sync.refresh_if_due()
        await self.app(scope, receive, send)


def _state(request: Request) -> ParamsState:
    state = getattr(request.app.state, "params", None)
    if not isinstance(state, ParamsState):
        raise ConfigError("the admin API was not started through its lifespan")
    return state


def _change(change: Change) -> dict[str, Any]:
    return {"version": change.version, "changed": [e.as_dict() for e in change.entries]}
