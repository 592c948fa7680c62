"""Fixtures of the admin tests: Redis db 15 flushed around each module, the process-wide
registry restored after it, one loaded index for the package, and admin tokens."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
import redis

from app.config.registry import REGISTRY
from app.config.settings import Settings
from app.recall.breakers import BREAKERS
from app.recall.search_index import SearchIndex
from tests.fakes.scripted_openai import scripted_openai, scripted_openai_server

__all__ = ["scripted_openai", "scripted_openai_server"]

REDIS_URL = "redis://127.0.0.1:6379/15"
ALICE_TOKEN = "tok-alice-5d1e0b7c"
BARE_TOKEN = "tok-bare-0c93a2f4"
ADMIN_TOKENS = f"alice:{ALICE_TOKEN},{BARE_TOKEN}"
SECRET_MARKER = "sk-never-shown-7c1f29ab"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def redis_db() -> Iterator[redis.Redis]:
    """Redis db 15, empty before and after the module."""
    client = redis.Redis.from_url(REDIS_URL)
    client.flushdb()
    yield client
    client.flushdb()
    client.close()


@pytest.fixture(scope="module")
def restored_registry() -> Iterator[None]:
    """Whatever an app of the module applies to the process registry is undone after it."""
    overrides, version = REGISTRY.overrides(), REGISTRY.version
    yield
    REGISTRY.apply_overrides(overrides, version=version)


@pytest.fixture(autouse=True)
def _closed_breakers() -> Iterator[None]:
    BREAKERS.reset()
    yield
    BREAKERS.reset()


@pytest.fixture(scope="package")
def admin_index(built_index: Settings) -> Iterator[SearchIndex]:
    """The real index and model, loaded once for every in-process app of the package."""
    index = SearchIndex.open(built_index)
    yield index
    asyncio.run(index.close())
