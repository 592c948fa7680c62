"""`GET /v1/catalog/facets` (what the chat page shows as filters) and `GET /v1/items/{id}/
similar` (other products like one item, through the similar_items tool, within a session's
plan when one is named)."""

from __future__ import annotations

import asyncio
import uuid

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel

from app.api._state import api_state
from app.api._validation import session_id_problem
from app.api.routes_sessions import owned_session, session_token
from app.catalog.facets import CatalogFacets
from app.config.params.api import FACETS_TOP
from app.errors import ConfigError, DependencyDown, InvalidRequest, NotFound
from app.tools.base import ToolContext, ToolError, invoke_tool
from app.tools.browse import MAX_K, SimilarItemsResult
from app.tools.plan import ShoppingPlan

__all__ = ["FacetsAnswer", "router"]

router = APIRouter(tags=["catalog"])
_TOOL = "similar_items"


class FacetsAnswer(BaseModel):
    """The facets of the catalog the index in use was built from."""

    index_version: str
    facets: CatalogFacets


@router.get("/v1/catalog/facets", response_model=FacetsAnswer)
async def facets(
    request: Request,
    top: int | None = Query(
        None, ge=1, le=500, description="Most categories, brands and values per attribute."
    ),
) -> FacetsAnswer:
    """Categories, shops, brands and attribute values with counts, price ranges per category
    (display currency and USD), currencies, and whether ratings and stock are known."""
    index = api_state(request).runtime.index
    found = await asyncio.to_thread(lambda: index.facets)
    return FacetsAnswer(index_version=index.version, facets=found.top(top or FACETS_TOP.get()))


@router.get("/v1/items/{item_id}/similar", response_model=SimilarItemsResult)
async def similar(
    request: Request,
    item_id: str = Path(..., min_length=1, max_length=80, description="e.g. 'amazon:b0123'."),
    k: int = Query(5, ge=1, le=MAX_K, description="How many similar items (1-20)."),
    session_id: str | None = Query(
        None,
        description="Apply this session's plan: budget, shop scope, ruled-out words (with "
        "the session's `X-Session-Token`).",
    ),
    token: str | None = Depends(session_token),
) -> SimilarItemsResult:
    """Other products like the item, best first: 404 for an unknown item or session."""
    state = api_state(request)
    tool = state.runtime.tools.get(_TOOL)
    if tool is None:
        raise ConfigError(f"this server has no {_TOOL} tool")
    plan = await _plan(request, session_id, token)
    ctx = ToolContext(session_id or "similar", uuid.uuid4().hex[:16], plan=plan)
    outcome = await invoke_tool(tool, {"item_id": item_id, "k": k}, ctx)
    if isinstance(outcome.output, ToolError):
        raise _failure(outcome.output)
    assert isinstance(outcome.output, SimilarItemsResult)
    return outcome.output


async def _plan(request: Request, session_id: str | None, token: str | None) -> ShoppingPlan:
    """The plan of the caller's own session (404 as for no session when it is not theirs)."""
    if session_id is None:
        return ShoppingPlan()
    problem = session_id_problem(session_id)
    if problem is not None:
        raise RequestValidationError(
            [{"type": "value_error", "loc": ("query", "session_id"), "msg": problem}]
        )
    session = await owned_session(request, session_id, token)
    return session.plan or ShoppingPlan()


def _failure(error: ToolError) -> Exception:
    """The tool's structured error as the exception the API answers it with."""
    if error.code == NotFound.code:
        return NotFound(error.message)
    if error.code == DependencyDown.code:
        name = str(error.details.get("dependency", "a dependency"))
        said = error.message.split(". Do not retry")[0]
        return DependencyDown(name, said.removeprefix(f"{name} is unavailable").lstrip(": "))
    if error.code in (InvalidRequest.code, "invalid_arguments"):
        return InvalidRequest(error.message)
    return ConfigError(error.message)
