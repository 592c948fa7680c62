"""Live catalog changes over HTTP, behind the admin tokens: `PUT /v1/admin/catalog/items` (a
JSON list of offers in the catalog schema; bad rows reported, the rest applied),
`DELETE /v1/admin/catalog/items/{shop}/{id}` and `GET /v1/admin/catalog/changes` (the
journal: who changed what, when). A change is applied to this process before the answer;
every other process sees it within LIVE_CHECK_INTERVAL_MS, checked before each request."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Body, Depends, FastAPI, Query, Request
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from starlette.types import ASGIApp, Receive, Scope, Send

from app.api._auth import AdminAuth, require_admin
from app.api._state import ApiState, api_state
from app.api.errors import error_response
from app.catalog.importer import offer_reason
from app.catalog.schema import Offer
from app.config.params.catalog import LIVE_MAX_ITEMS
from app.config.settings import Settings
from app.errors import ConfigError, InvalidRequest, NotFound
from app.recall.live_update import LiveReport, LiveWriter

__all__ = ["LiveRefreshMiddleware", "catalog_changes", "delete_item", "install", "router"]

CHANGES_LIMIT_MAX = 1000

router = APIRouter(prefix="/v1/admin/catalog", tags=["admin"])


@router.put("/items", response_model=None)
async def put_items(
    request: Request,
    rows: list[Any] = Body(..., description="Offers in the catalog schema."),
    actor: str = Depends(require_admin),
) -> dict[str, Any] | JSONResponse:
    """Validate every offer; store, embed (only changed ones) and serve the valid ones."""
    if len(rows) > LIVE_MAX_ITEMS.get():
        raise InvalidRequest(f"send at most {LIVE_MAX_ITEMS.get()} offers per request")
    report = LiveReport()
    valid: list[tuple[Offer, str, int]] = []
    for number, row in enumerate(rows, start=1):
        try:
            valid.append((Offer.model_validate(row), "", number))
        except ValidationError as exc:
            report.reject(offer_reason(exc), row=number)
    state = api_state(request)
    writer = _writer(request, state)
    if isinstance(writer, JSONResponse):
        return writer
    await asyncio.to_thread(writer.upsert, valid, actor=actor, report=report)
    await _apply(state)
    return report.as_json()


@router.delete("/items/{shop}/{offer_id}", response_model=None)
async def delete_item(
    shop: str, offer_id: str, request: Request, actor: str = Depends(require_admin)
) -> dict[str, Any] | JSONResponse:
    """Remove one offer from the catalog and the live index; 404 when there is none."""
    state = api_state(request)
    writer = _writer(request, state)
    if isinstance(writer, JSONResponse):
        return writer
    report = await asyncio.to_thread(writer.delete, [(shop.lower(), offer_id)], actor=actor)
    if report.deleted == 0:
        raise NotFound(f"no item {shop}:{offer_id} in the catalog")
    await _apply(state)
    return report.as_json()


@router.get("/changes")
async def catalog_changes(
    request: Request,
    limit: int = Query(100, ge=1, le=CHANGES_LIMIT_MAX, description="Newest entries."),
    actor: str = Depends(require_admin),
) -> dict[str, Any]:
    """The newest live changes: sequence number, who, when, the item and its new price."""
    live = api_state(request).runtime.index.live
    if live is None:
        return {"generation": 0, "entries": []}
    entries = await asyncio.to_thread(live.feed.recent, limit)
    return {
        "generation": live.generation,
        "entries": [
            {
                "seq": e.seq,
                "actor": e.actor,
                "at": e.at,
                "item_id": e.item_id,
                "op": "delete" if e.offer is None else "upsert",
                "price": None if e.offer is None else e.offer.price,
                "currency": None if e.offer is None else e.offer.currency,
            }
            for e in entries
        ],
    }


def install(app: FastAPI, settings: Settings) -> None:
    """Check for live changes before each request; serve the routes when admin tokens exist."""
    app.add_middleware(LiveRefreshMiddleware)
    if AdminAuth.from_secret(settings.admin_tokens).enabled:
        app.include_router(router)


class LiveRefreshMiddleware:
    """Before each HTTP request, the throttled check for catalog changes made elsewhere."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            state = getattr(scope["app"].state, "api", None)
            if isinstance(state, ApiState):
                await state.runtime.index.refresh_live()
        await self.app(scope, receive, send)


def _writer(request: Request, state: ApiState) -> LiveWriter | JSONResponse:
    """This app's writer (made once), or 409 when the index cannot change live."""
    writer = getattr(request.app.state, "live_writer", None)
    if isinstance(writer, LiveWriter) and writer.manifest.version == state.runtime.index.version:
        return writer
    try:
        writer = LiveWriter.open(state.settings, state.runtime.index.embedder)
    except ConfigError as exc:
        return error_response("not_live", str(exc), 409)
    request.app.state.live_writer = writer
    return writer


async def _apply(state: ApiState) -> None:
    """Apply the change here (and push it to remote backends, which may be down: the journal
    keeps it for later) before answering, so this process never serves the old offer."""
    live = state.runtime.index.live
    if live is not None:
        await live.refresh()
