"""`pickwise serve`: the HTTP API under uvicorn; the app's lifespan opens the runtime in the
server's event loop."""

from __future__ import annotations

import typer

from app.config import get_settings
from app.logging_setup import configure_logging

__all__ = ["API_FACTORY", "register", "serve"]

API_FACTORY = "app.api.app:create_app"
"""The HTTP app by name: uvicorn builds it (on the same cached `get_settings()`), so the CLI
never imports the API layer."""


def register(app: typer.Typer) -> None:
    """Add the `serve` command to the root CLI."""
    app.command("serve")(serve)


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Interface to listen on."),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="TCP port."),
    log_level: str = typer.Option("info", "--log-level", help="uvicorn's log level."),
) -> None:
    """Serve POST /v1/chat (SSE), /v1/sessions/{id} and /healthz."""
    import uvicorn

    settings = get_settings()
    configure_logging(settings.log_level, json_lines=settings.log_json)
    uvicorn.run(
        API_FACTORY, factory=True, host=host, port=port, log_level=log_level, log_config=None
    )
