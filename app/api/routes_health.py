"""`GET /healthz`: every dependency's state and breaker with an overall status; 200 while
a chat turn can be served (possibly degraded), 503 when it cannot."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from app.api._health import health
from app.api._state import api_state

__all__ = ["healthz", "router"]

router = APIRouter(tags=["health"])


@router.get("/healthz")
async def healthz(request: Request) -> JSONResponse:
    """Components: index, vector_store, search_cache, session_store, reranker, llm, breakers."""
    report = await health(api_state(request))
    return JSONResponse(report, status_code=503 if report["status"] == "down" else 200)
