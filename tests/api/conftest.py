"""Fixtures of the API tests: one loaded index shared by every app of the package, settings
on Redis db 13, the scripted OpenAI server, and `serving(app)` to run an app's lifespan
under an httpx ASGI client."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager

import httpx
import pytest
from fastapi import FastAPI
from redis import Redis

from app.config.settings import Settings
from app.recall.search_index import SearchIndex
from tests.fakes.scripted_openai import scripted_openai, scripted_openai_server

__all__ = ["scripted_openai", "scripted_openai_server", "serving"]

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


@asynccontextmanager
async def serving(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """Run the app's lifespan and talk to it in-process."""
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://pickwise.test"
        ) as client:
            yield client
