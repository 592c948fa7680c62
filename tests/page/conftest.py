"""Fixtures of the chat page tests: headless Chromium (the system's, driven by Playwright),
the real index loaded once, settings on Redis db 6, and `serve_page(agent=None)` running the
API and page on loopback with the production agent unless one is given."""

from __future__ import annotations

import asyncio
import os
import shutil
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest
from redis import Redis

from app.agent.events import ChatAgent
from app.api.app import create_app
from app.config.settings import Settings
from app.recall.breakers import BREAKERS
from app.recall.search_index import SearchIndex
from app.runtime import Runtime
from tests.api.live_server import live_server

playwright_api = pytest.importorskip("playwright.sync_api")

REDIS_URL = "redis://127.0.0.1:6379/6"
CHROMIUM = os.environ.get("PICKWISE_CHROMIUM", "/usr/bin/chromium")
ServePage = Callable[..., AbstractContextManager[str]]


@pytest.fixture(scope="package")
def page_index(built_index: Settings) -> Iterator[SearchIndex]:
    """The real index and model, loaded once for every server these tests start."""
    opened = SearchIndex.open(built_index)
    yield opened
    closing = threading.Thread(target=asyncio.run, args=(opened.close(),))
    closing.start()
    closing.join(timeout=60)


@pytest.fixture(scope="package")
def page_settings(built_index: Settings) -> Iterator[Settings]:
    """Settings over the real index with sessions and the search cache on db 6, flushed."""
    redis = Redis.from_url(REDIS_URL)
    redis.flushdb()
    yield built_index.model_copy(update={"redis_url": REDIS_URL})
    redis.flushdb()
    redis.close()


@pytest.fixture
def serve_page(page_settings: Settings, page_index: SearchIndex) -> ServePage:
    """Serve the app (page included) on loopback; yields its base URL."""

    @contextmanager
    def serve(agent: ChatAgent | None = None) -> Iterator[str]:
        BREAKERS.reset()
        runtime = Runtime(page_settings, index=page_index)
        with live_server(create_app(page_settings, agent=agent, runtime=runtime)) as url:
            yield url
        BREAKERS.reset()

    return serve


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    """Headless system Chromium; `playwright install` downloads nothing here."""
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)")
    args = ["--no-sandbox"] if os.geteuid() == 0 else []
    with playwright_api.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=args)
        yield launched
        launched.close()


@pytest.fixture
def reports(settings: Settings) -> Path:
    """Where the tests leave their screenshots."""
    folder = settings.var_dir / "reports"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
