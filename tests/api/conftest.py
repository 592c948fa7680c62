"""Fixtures of the API tests: one loaded index shared by every app of the package, settings
on Redis db 13 or without Redis on a private var folder, the scripted OpenAI server, and
`serving(app)` to run an app's lifespan under an httpx ASGI client."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from redis import Redis

from app.config.settings import Settings
from app.recall.search_index import SearchIndex
from tests.fakes.scripted_openai import scripted_openai, scripted_openai_server

__all__ = ["scripted_openai", "scripted_openai_server", "serving", "without_redis"]

REDIS_URL = "redis://127.0.0.1:6379/13"


@pytest.fixture(scope="package")
def shared_index(built_index: Settings) -> Iterator[SearchIndex]:
    """The real index and model, loaded once for every app these tests start."""
    opened = SearchIndex.open(built_index)
    yield opened
    asyncio.run(opened.close())


@pytest.fixture(scope="module")
def api_settings(built_index: Settings) -> Iterator[Settings]:
    """Settings over the real index with the search cache and sessions on db 13, flushed
    before and after each module."""
    redis = Redis.from_url(REDIS_URL)
    redis.flushdb()
    yield built_index.model_copy(update={"redis_url": REDIS_URL})
    redis.flushdb()
    redis.close()


def without_redis(settings: Settings, var: Path) -> Settings:
    """`settings` without Redis over the empty folder `var` as their var folder, with the
    built index and models linked in: the embedded session and parameter stores start empty."""
    for entry in settings.var_dir.iterdir():
        if ".sqlite3" not in entry.name:
            (var / entry.name).symlink_to(entry.resolve())
    return settings.model_copy(update={"redis_url": None, "var_dir": var})


@pytest.fixture(scope="module")
def no_redis(built_index: Settings, tmp_path_factory: pytest.TempPathFactory) -> Settings:
    """`without_redis` on a fresh folder, for one module."""
    return without_redis(built_index, tmp_path_factory.mktemp("var"))


@asynccontextmanager
async def serving(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """Run the app's lifespan and talk to it in-process."""
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://pickwise.test"
        ) as client:
            yield client
