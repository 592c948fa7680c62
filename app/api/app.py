"""The FastAPI app factory: its lifespan opens the `Runtime` in the server's own event loop
(the Redis clients bind to it), builds the agent on it unless one is injected, and closes
everything on shutdown."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from app.agent.events import ChatAgent
from app.agent.session import SessionStore
from app.api import (
    metrics,
    routes_admin,
    routes_admin_catalog,
    routes_cards,
    routes_catalog,
    routes_chat,
    routes_health,
    routes_page,
    routes_plan,
    routes_sessions,
)
from app.api._admission import AdmissionMiddleware, TurnGate
from app.api._state import ApiState
from app.api._validation import TextGuard
from app.api.errors import install_error_handlers
from app.api.openapi import install_openapi
from app.config.params.api import API_WARM_UP
from app.config.settings import Settings, get_settings
from app.logging_setup import install_token_mask
from app.runtime import Runtime
from app.runtime_agent import build_agent, warm_up

__all__ = ["create_app"]

log = logging.getLogger(__name__)


def create_app(
    settings: Settings | None = None,
    *,
    agent: ChatAgent | None = None,
    runtime: Runtime | None = None,
) -> FastAPI:
    """The HTTP API over `settings`. An injected `agent` is used as is; an injected, not yet
    opened `runtime` (e.g. sharing a loaded index) replaces `Runtime(settings)`. With neither
    (`pickwise serve`), one offline turn warms the runtime before requests (`API_WARM_UP`)."""
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        opened = runtime or Runtime(settings)
        async with opened:
            chat_agent = agent if agent is not None else build_agent(opened)
            if runtime is None and agent is None and API_WARM_UP.get():
                await warm_up(opened)  # before the first request: `serve` is ready when warm
            app.state.api = ApiState(
                settings=settings,
                agent=chat_agent,
                sessions=_session_store(chat_agent),
                runtime=opened,
            )
            log.info("pickwise API serving index %s", opened.index.version)
            try:
                yield
            finally:
                await _close(chat_agent)
                app.state.api = None

    app = FastAPI(
        title="Pickwise",
        summary="Conversational shopping over a real catalog.",
        lifespan=lifespan,
    )
    install_error_handlers(app)
    install_token_mask()
    app.add_middleware(TextGuard)  # inside admission: a refused turn's body is never read
    app.state.turn_gate = TurnGate()
    app.add_middleware(AdmissionMiddleware, gate=app.state.turn_gate)
    app.include_router(routes_chat.router)
    app.include_router(routes_sessions.router)
    app.include_router(routes_health.router)
    app.include_router(routes_plan.router)
    app.include_router(routes_cards.router)
    app.include_router(routes_catalog.router)
    routes_page.install(app)
    routes_admin.install(app, settings)
    routes_admin_catalog.install(app, settings)
    metrics.install(app)
    install_openapi(app)
    return app


def _session_store(agent: ChatAgent) -> SessionStore | None:
    store = getattr(agent, "sessions", None)
    return store if isinstance(store, SessionStore) else None


async def _close(agent: ChatAgent) -> None:
    close = getattr(agent, "aclose", None)
    if close is not None:
        await close()
