"""The chat page: `GET /` and its static files under `/static/`, shipped in the package
(plain HTML, CSS and JavaScript; no build step, nothing fetched from elsewhere)."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

__all__ = ["STATIC_DIR", "install"]

STATIC_DIR = Path(__file__).with_name("static")
_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data: https: http:; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'"
)
"""Only the page's own scripts run, whatever text a product or an answer carries; product
images may come from the shops."""


def install(app: FastAPI) -> None:
    """Serve the page at `/` and its files at `/static/`."""

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(
            STATIC_DIR / "index.html",
            headers={"Content-Security-Policy": _CSP, "Cache-Control": "no-cache"},
        )

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
